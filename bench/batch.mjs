// A batch of 50 commands against 50 single calls (issue 14): the generated router behind node:http on 127.0.0.1,
// called with fetch from the same process; wall time and CPU (user + system, client and server together) of each
// round, interleaved, medians. `npm run bench -- batch [ROUNDS]`.
import { createServer } from "node:http";
import { join } from "node:path";
import { median, printTable } from "./lib.mjs";

const ROOT = new URL("..", import.meta.url).pathname;

export async function benchBatch({ rounds = 30 } = {}) {
  const { createHandler, toNodeListener } = await import(join(ROOT, "output/server/index.js"));
  const handle = createHandler(
    { legacy: { "tasks.task.getaccess": async (p) => ({ allowedActions: { [String(p.taskId)]: { ACCEPT: true } } }) }, v3: {} },
    // No request-rate limit here: the bench measures the router, not the limiter's answers.
    { authenticate: () => ({ userId: 1, scopes: ["task"] }), trustProxy: true, limiter: { admit: () => ({ allowed: true }), account: () => ({ operating: 0, resetAt: 0 }), usage: () => ({ operating: 0, resetAt: 0 }) } },
  );
  const server = createServer(toNodeListener(handle));
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}/rest/1/c0de`;
  const post = async (path, body) => {
    const res = await fetch(`${base}/${path}`, { method: "POST", headers: { "Content-Type": "application/json", "X-Forwarded-Proto": "https" }, body: JSON.stringify(body) });
    const json = await res.json();
    if (!res.ok || json.error) throw new Error(`${path}: ${JSON.stringify(json).slice(0, 200)}`);
    return json;
  };
  const singles = async () => {
    for (let i = 1; i <= 50; i++) await post("tasks.task.getaccess", { taskId: i });
  };
  const batch = async () => {
    const cmd = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`t${i + 1}`, `tasks.task.getaccess?taskId=${i + 1}`]));
    const r = await post("batch", { halt: 0, cmd });
    if (Object.keys(r.result.result).length !== 50) throw new Error("a batch command failed");
  };
  const measure = async (fn) => {
    const cpu = process.cpuUsage();
    const t = performance.now();
    await fn();
    const used = process.cpuUsage(cpu);
    return { ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000 };
  };
  try {
    for (let i = 0; i < 3; i++) await Promise.all([singles(), batch()]);
    const r = { singles: [], batch: [] };
    for (let i = 0; i < rounds; i++) {
      for (const k of i % 2 ? ["batch", "singles"] : ["singles", "batch"]) r[k].push(await measure(k === "batch" ? batch : singles));
    }
    const row = (name, xs) => ({ run: name, rounds, "median ms": median(xs.map((x) => x.ms)).toFixed(2), "median CPU ms": median(xs.map((x) => x.cpuMs)).toFixed(2) });
    const rows = [row("50 single calls, one after another", r.singles), row("1 batch of 50 commands", r.batch)];
    printTable(`Batch against single calls: ${(median(r.singles.map((x) => x.ms)) / median(r.batch.map((x) => x.ms))).toFixed(1)}x faster`, rows);
    return rows;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
