// Shared helpers of the benchmarks: medians, fresh-process timing, a results table.
import { spawnSync } from "node:child_process";
import { createServer } from "node:http";
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

/** A loopback server that answers every request with a `user.current` envelope: what the client benchmarks call. */
export async function userCurrentServer() {
  const body = JSON.stringify({ result: { ID: "1", NAME: "John" }, time: { start: 1, finish: 1, duration: 0, processing: 0, date_start: "", date_finish: "", operating: 0 } });
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) }).end(body));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}
