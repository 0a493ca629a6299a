// Issue 10's speed goal, side by side: a full `generate` (every output, fresh process, existing output folder) against
// openapi-typescript's types-only run on our own legacy OpenAPI document, interleaved run by run, medians.
// openapi-typescript is not a dependency of the project (it wants TypeScript 5 as a peer; the project builds with
// TypeScript 7), so this installs the pinned version into a temporary folder from the npm registry first.
// `npm run bench -- versus [RUNS]`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median, printTable } from "./lib.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const BIN = join(ROOT, "dist/generator/cli/main.js");
const OPENAPI_TYPESCRIPT = "openapi-typescript@7.13.0";

function time(cmd, args, options) {
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { encoding: "utf8", ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export function benchVersus({ runs = 9 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "crc-versus-"));
  try {
    const install = spawnSync("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir, OPENAPI_TYPESCRIPT], { encoding: "utf8" });
    if (install.status !== 0) throw new Error(`npm install ${OPENAPI_TYPESCRIPT} failed: ${install.stderr}`);
    const ots = join(dir, "node_modules/openapi-typescript/bin/cli.js");
    const doc = join(ROOT, "output/openapi/openapi.legacy.json");
    const out = join(dir, "out");
    // One run first, so that every timed run finds an output folder, as a build step does.
    time(process.execPath, [BIN, "generate", "--out", out], { cwd: ROOT });
    const ours = [];
    const theirs = [];
    for (let i = 0; i < runs; i++) {
      theirs.push(time(process.execPath, [ots, doc, "-o", join(dir, "types.ts")], { cwd: ROOT }));
      ours.push(time(process.execPath, [BIN, "generate", "--out", out], { cwd: ROOT }));
    }
    const rows = [
      { run: "collab-rest-codegen generate (types, client, server, OpenAPI)", runs, "median ms": median(ours).toFixed(0), "min ms": Math.min(...ours).toFixed(0) },
      { run: `${OPENAPI_TYPESCRIPT} (types only, output/openapi/openapi.legacy.json)`, runs, "median ms": median(theirs).toFixed(0), "min ms": Math.min(...theirs).toFixed(0) },
    ];
    printTable(`Side by side, interleaved: ratio ${(median(ours) / median(theirs)).toFixed(2)}x`, rows);
    return { rows, ratio: median(ours) / median(theirs) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
