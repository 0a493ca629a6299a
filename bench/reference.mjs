// `npm run bench -- reference [RUNS]` (issue 28, D21): the whole reference (spec-source/platform-docs) generated with
// every output in a fresh process, against the floor measured in the same run: parsing every page with remark + gfm
// in one process. Reported: medians of wall time and peak memory, and their ratio (the acceptance is at most 1.5x
// the floor, peak under 1.5 GiB).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median, printTable } from "./lib.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DOCS = join(ROOT, "spec-source/platform-docs");

const FLOOR = `
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { remark } from "remark";
import remarkGfm from "remark-gfm";
const files = [];
const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = join(d, e.name); if (e.isDirectory()) walk(p); else if (e.name.endsWith(".md")) files.push(p); } };
walk(${JSON.stringify(DOCS)});
const processor = remark().use(remarkGfm);
let nodes = 0;
for (const f of files) nodes += processor.parse(readFileSync(f, "utf8")).children.length;
if (nodes === 0) process.exit(1);
`;

/** Wall time and peak RSS of one fresh process, from GNU time when present, else the wall time alone. */
function measure(args, cwd) {
  const started = performance.now();
  const r = spawnSync("/usr/bin/time", ["-f", "%M", process.execPath, ...args], { cwd, encoding: "utf8", maxBuffer: 256 << 20 });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`${args.join(" ")} failed: ${r.stderr.slice(-500)}`);
  const kb = Number(r.stderr.trim().split("\n").at(-1));
  return { ms, mib: Number.isFinite(kb) ? kb / 1024 : null };
}

export function benchReference({ runs = 3 } = {}) {
  const floor = [];
  const full = [];
  for (let i = 0; i < runs; i++) {
    // Alternating, so that load on the machine falls on both alike.
    floor.push(measure(["--input-type=module", "-e", FLOOR], ROOT));
    const out = mkdtempSync(join(tmpdir(), "crc-bench-ref-"));
    full.push(measure([join(ROOT, "dist/generator/cli/main.js"), "generate", "--spec", "spec-source/platform-docs", "--out", out, "--format", "json"], ROOT));
    rmSync(out, { recursive: true, force: true });
  }
  const f = { ms: median(floor.map((x) => x.ms)), mib: median(floor.map((x) => x.mib ?? 0)) };
  const g = { ms: median(full.map((x) => x.ms)), mib: median(full.map((x) => x.mib ?? 0)) };
  printTable(`The whole reference, ${runs} runs alternating, fresh processes (medians)`, [
    { what: "remark + gfm parse of every page (the floor)", wall: `${(f.ms / 1000).toFixed(1)} s`, "peak RSS": `${f.mib.toFixed(0)} MiB` },
    { what: "generate --spec spec-source/platform-docs, every output", wall: `${(g.ms / 1000).toFixed(1)} s`, "peak RSS": `${g.mib.toFixed(0)} MiB` },
    { what: "ratio (acceptance: at most 1.5x)", wall: `${(g.ms / f.ms).toFixed(2)}x`, "peak RSS": "" },
  ]);
  return { floor: f, generate: g, ratio: g.ms / f.ms, runs };
}
