// `npm run bench -- fuzz [N]`: the readers stay linear on hostile specs (issue 24). N mutated specs (default 10,000)
// and the heavy kinds: every input is read (`lint`'s path: parse, read, model, check), and none may throw. Each
// heavy input runs in a fresh process, and so does its floor, the remark + gfm parse of the same text, so that both
// peak memories are the process's own: the bound is 3x the floor's time plus 1 s, and 3x its peak plus 200 MB.
// The mutated ones run in this process against an in-process floor for time (memory per input needs a process).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { heavySpecs, mutatedSpecs } from "./fuzz-inputs.mjs";
import { median } from "./lib.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SPEC = readFileSync(join(ROOT, "spec-source/collaboration-platform-api.md"), "utf8");

const READ = `
import { readFileSync } from "node:fs";
const { buildFromText } = await import(${JSON.stringify(join(ROOT, "dist/generator/generate.js"))});
const text = readFileSync(process.argv[1], "utf8");
const t0 = performance.now();
let threw = null;
try { buildFromText(text, "spec.md"); } catch (err) { threw = String(err && err.stack || err).split("\\n").slice(0, 3).join(" | "); }
console.log(JSON.stringify({ ms: performance.now() - t0, rss: process.resourceUsage().maxRSS * 1024, threw }));`;

const FLOOR = `
import { readFileSync } from "node:fs";
const { remark } = await import("remark");
const { default: remarkGfm } = await import("remark-gfm");
const text = readFileSync(process.argv[1], "utf8");
const t0 = performance.now();
remark().use(remarkGfm).parse(text);
console.log(JSON.stringify({ ms: performance.now() - t0, rss: process.resourceUsage().maxRSS * 1024 }));`;

function inChild(script, file) {
  const r = spawnSync(process.execPath, ["--input-type=module", "--max-old-space-size=8192", "-e", script, file], { cwd: ROOT, encoding: "utf8", timeout: 600_000 });
  if (r.status !== 0) return { ms: Number.NaN, rss: Number.NaN, threw: `exit ${r.status} ${r.signal ?? ""}: ${(r.stderr ?? "").split("\n").slice(-4).join(" | ")}` };
  return JSON.parse(r.stdout.trim().split("\n").at(-1));
}

export async function benchFuzz({ count = 10_000 } = {}) {
  const { buildFromText } = await import(join(ROOT, "dist/generator/generate.js"));
  const { remark } = await import("remark");
  const { default: remarkGfm } = await import("remark-gfm");
  const parser = remark().use(remarkGfm);
  const MB = 1024 * 1024;

  // The mutated specs, in this process.
  let throws = 0;
  const failures = [];
  let slowest = { ratio: 0, ms: 0, floor: 0, text: "" };
  const times = [];
  // The floor of a mutated spec (40 KB) is tens of ms, so the bound is about 1 s: the floor is measured only for an
  // input that takes longer than 1 s, where it can decide.
  const floorOf = (text) => {
    const f0 = performance.now();
    parser.parse(text);
    return performance.now() - f0;
  };
  for (const input of mutatedSpecs(SPEC, count)) {
    const t0 = performance.now();
    try {
      buildFromText(input.text, "spec.md");
    } catch (err) {
      throws++;
      if (failures.length < 5) failures.push(String(err?.stack ?? err).split("\n").slice(0, 3).join(" | "));
    }
    const ms = performance.now() - t0;
    const floor = ms > 1000 ? floorOf(input.text) : 0;
    times.push(ms);
    if (ms > 3 * floor + 1000) failures.push(`over the bound: ${ms.toFixed(0)} ms against a floor of ${floor.toFixed(0)} ms`);
    if (ms > slowest.ms) slowest = { ratio: 0, ms, floor, text: input.text };
  }
  // The slowest input against its own floor, measured now.
  if (slowest.text) {
    slowest.floor = floorOf(slowest.text);
    slowest.ratio = slowest.ms / Math.max(slowest.floor, 1);
    delete slowest.text;
  }

  console.error(`fuzz: ${count} mutated specs read, ${throws} throws`);
  // The heavy kinds, each in fresh processes.
  const dir = mkdtempSync(join(tmpdir(), "crc-fuzz-"));
  const heavy = [];
  try {
    for (const input of heavySpecs(SPEC)) {
      const file = join(dir, "spec.md");
      writeFileSync(file, input.text);
      const read = inChild(READ, file);
      const floor = inChild(FLOOR, file);
      if (read.threw) throws++;
      // remark itself fails on some inputs (10,000 nested block quotes: its stack): then there is no floor, and the
      // reading only has to end without a throw; the table says so.
      const noFloor = Boolean(floor.threw);
      const timeOk = noFloor || read.ms <= 3 * floor.ms + 1000;
      const memoryOk = noFloor || read.rss <= 3 * floor.rss + 200 * MB;
      if (read.threw || !timeOk || !memoryOk) failures.push(`${input.kind}: ${read.threw ?? ""}${timeOk ? "" : " time over the bound"}${memoryOk ? "" : " memory over the bound"}`);
      heavy.push({ kind: input.kind, bytes: input.text.length, ms: Math.round(read.ms), floorMs: noFloor ? "remark failed" : Math.round(floor.ms), peakMB: Math.round(read.rss / MB), floorPeakMB: noFloor ? "remark failed" : Math.round(floor.rss / MB), within: timeOk && memoryOk && !read.threw });
      // Each as it ends: a long run shows its progress.
      console.error(`fuzz: ${JSON.stringify(heavy.at(-1))}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  console.log(`\n## Fuzz: ${count} mutated specs and ${heavy.length} heavy ones\n`);
  console.log(`- throws: ${throws}`);
  console.log(`- mutated: median ${median(times).toFixed(1)} ms a spec; slowest ${slowest.ms.toFixed(0)} ms (${slowest.ratio.toFixed(1)}x its remark floor of ${slowest.floor.toFixed(0)} ms)`);
  console.log("\n| heavy input | bytes | read ms | remark ms | read peak MB | remark peak MB | within 3x + 1 s, 3x + 200 MB |\n|---|---|---|---|---|---|---|");
  for (const h of heavy) console.log(`| ${h.kind} | ${h.bytes.toLocaleString("en")} | ${h.ms} | ${h.floorMs} | ${h.peakMB} | ${h.floorPeakMB} | ${h.within ? "yes" : "**no**"} |`);
  if (failures.length > 0) console.log(`\nFailures:\n${failures.slice(0, 20).map((f) => `- ${f}`).join("\n")}`);
  return { count, throws, medianMs: median(times), slowest, heavy, failures };
}
