import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const out = (p: string) => fileURLToPath(new URL(`./output/${p}`, import.meta.url));

export default defineConfig({
  resolve: {
    // The generated packages, as a consumer imports them by name.
    alias: {
      "collab-platform-api-types": out("types/index.js"),
      "collab-platform-api-client": out("client/index.js"),
      "collab-platform-api-server": out("server/index.js"),
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // One test file per core. Vitest's default leaves a core free, which on the 2-core CI machine ran the files one
    // after another (about 520 s); side by side they take about 360 s. The long property tests carry hang guards
    // of their own (D6) for the slower pace beside another file.
    maxWorkers: "100%",
    // Line coverage of the runtimes' sources (issue 13), from the unit and router tests that import them; the
    // suites over the compiled packages are the net above them. `npm test` runs with --coverage.
    coverage: {
      provider: "v8",
      include: ["runtime/**/*.ts"],
      reporter: ["text-summary", "text", "json-summary"],
      reportsDirectory: ".tmp/coverage",
      thresholds: { lines: 90 },
    },
  },
});
