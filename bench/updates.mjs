// Issue 7's measurements, fresh processes, medians: `diff` of the real spec against an update; `generate` on an
// unchanged spec (existing output: the cheap model check, no diff, no ts-morph) and `generate` after the update
// with the skeleton merge (ts-morph loads); whether each run loaded ts-morph; and, when REV is given, the unchanged
// generate of this tree against REV's, interleaved (decisions.md D16). `npm run bench -- updates [RUNS] [REV]`.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median, printTable } from "./lib.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const BIN = join(ROOT, "dist/generator/cli/main.js");
const TRACE = join(ROOT, "bench/trace-imports.mjs");
const SPEC = readFileSync(join(ROOT, "spec-source/collaboration-platform-api.md"), "utf8");

/** An update that touches each audience: a new method, a parameter made required, a reworded description. */
function update(s) {
  return s
    .replace("**tasks.task.getaccess**.", "**tasks.task.pin**. Scope `task`. Any user. Pins a task. `id`* integer. Result: boolean.\n\n**tasks.task.getaccess**.")
    .replace("`NAME` string; `CRM_AUTO_CREATE`", "`NAME`* string; `CRM_AUTO_CREATE`")
    .replace("Shows the call card to a user or users.", "Shows the call card to one or more users.");
}

function run(args, cwd, { trace = false } = {}) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [...(trace ? ["--import", TRACE] : []), ...args], { cwd, encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return { ms, tsMorph: r.stderr.includes("[trace] ts-morph loaded") };
}

export function benchUpdates({ runs = 9, rev = null } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "crc-updates-"));
  try {
    writeFileSync(join(dir, "old.md"), SPEC);
    writeFileSync(join(dir, "new.md"), update(SPEC));
    const gen = (spec, out) => [BIN, "generate", "--spec", spec, "--out", out];
    // The base output: the old spec generated once, its skeleton as the user left it.
    run(gen("old.md", "base"), dir);
    const diffTimes = [];
    const sameDiff = [];
    const unchanged = [];
    const merge = [];
    const loads = { unchanged: false, merge: true };
    cpSync(join(dir, "base"), join(dir, "same"), { recursive: true });
    for (let i = 0; i < runs; i++) {
      diffTimes.push(run([BIN, "diff", "--from", "old.md", "--spec", "new.md"], dir).ms);
      sameDiff.push(run([BIN, "diff", "--from", "old.md", "--spec", "old.md"], dir).ms);
      const u = run(gen("old.md", "same"), dir, { trace: true });
      unchanged.push(u.ms);
      loads.unchanged ||= u.tsMorph;
      rmSync(join(dir, "upd"), { recursive: true, force: true });
      cpSync(join(dir, "base"), join(dir, "upd"), { recursive: true });
      const m = run(gen("new.md", "upd"), dir, { trace: true });
      merge.push(m.ms);
      loads.merge &&= m.tsMorph;
    }
    const stubs = (readFileSync(join(dir, "upd/server/skeleton/handlers.ts"), "utf8").match(/"tasks\.task\.pin": async/g) ?? []).length;
    const rows = [
      { run: "diff, real spec against the update (3 changes)", runs, "median ms": median(diffTimes).toFixed(0), "loads ts-morph": "no" },
      { run: "diff, real spec against itself", runs, "median ms": median(sameDiff).toFixed(0), "loads ts-morph": "no" },
      { run: "generate, unchanged spec, existing output", runs, "median ms": median(unchanged).toFixed(0), "loads ts-morph": loads.unchanged ? "yes" : "no" },
      { run: `generate after the update, skeleton merge (${stubs} stub${stubs === 1 ? "" : "s"} added)`, runs, "median ms": median(merge).toFixed(0), "loads ts-morph": loads.merge ? "yes" : "no" },
    ];
    printTable("Spec updates (issue 7)", rows);
    const result = { rows };
    if (rev) result.ab = abUnchanged(dir, rev, Math.max(runs, 15));
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `generate` on an unchanged spec: this tree against REV built in a worktree, interleaved, alternating order. */
function abUnchanged(dir, rev, runs) {
  const tree = join(dir, "rev");
  execFileSync("git", ["worktree", "add", "--detach", tree, rev], { cwd: ROOT, stdio: "pipe" });
  try {
    symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"));
    execFileSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], { cwd: tree, stdio: "pipe" });
    // The runtime's sources moved from templates/runtime to runtime (decisions.md D27); an older revision has them there.
    const runtimeConfig = existsSync(join(tree, "runtime/tsconfig.json")) ? "runtime/tsconfig.json" : "templates/runtime/tsconfig.json";
    execFileSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", runtimeConfig], { cwd: tree, stdio: "pipe" });
    const bins = [BIN, join(tree, "dist/generator/cli/main.js")];
    const outs = ["ab-this", "ab-rev"];
    bins.forEach((b, k) => run([b, "generate", "--spec", "old.md", "--out", outs[k]], dir));
    const times = [[], []];
    for (let i = 0; i < runs; i++) {
      for (const k of i % 2 ? [1, 0] : [0, 1]) times[k].push(run([bins[k], "generate", "--spec", "old.md", "--out", outs[k]], dir).ms);
    }
    const [a, b] = times.map(median);
    printTable(`generate on an unchanged spec, this tree against ${rev}: ${(((a - b) / b) * 100).toFixed(1)}%`, [
      { tree: "this", runs, "median ms": a.toFixed(0) },
      { tree: rev, runs, "median ms": b.toFixed(0) },
    ]);
    return { this: a, rev: b, change: (a - b) / b };
  } finally {
    execFileSync("git", ["worktree", "remove", "--force", tree], { cwd: ROOT, stdio: "pipe" });
  }
}
