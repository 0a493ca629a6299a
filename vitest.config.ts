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
    // Line coverage of the runtimes' sources (issue 13), from the unit and router tests that import them; the
    // suites over the compiled packages are the net above them. `npm test` runs with --coverage.
    coverage: {
      provider: "v8",
      include: ["templates/runtime/**/*.ts"],
      reporter: ["text-summary", "text", "json-summary"],
      reportsDirectory: ".tmp/coverage",
      thresholds: { lines: 90 },
    },
  },
});
