// Shared helpers of the benchmarks: medians, fresh-process timing, a results table.
import { spawnSync } from "node:child_process";
import { cpus } from "node:os";

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Runs a command `runs` times as a fresh process; returns the wall times in ms. */
export function timeProcess(cmd, args, runs, options = {}) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { encoding: "utf8", ...options });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
    times.push(ms);
  }
  return times;
}

export function machine() {
  return { cores: cpus().length, cpu: cpus()[0]?.model ?? "unknown", node: process.version };
}

export function printTable(title, rows) {
  console.log(`\n## ${title}\n`);
  const keys = Object.keys(rows[0] ?? {});
  console.log(`| ${keys.join(" | ")} |`);
  console.log(`| ${keys.map(() => "---").join(" | ")} |`);
  for (const r of rows) console.log(`| ${keys.map((k) => r[k]).join(" | ")} |`);
}
