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
  },
});
