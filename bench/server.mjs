// The server's cost: requests per second of the generated router for `user.current` against a bare node:http
// handler returning the same JSON (same run, bounded autocannon load on loopback), and memory after a bounded soak
// of many distinct idempotency keys.
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import autocannon from "autocannon";
import { median, printTable } from "./lib.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const SERVER = join(ROOT, "output/server/index.js");

function load(url, { duration, connections }) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, method: "POST", duration, connections, headers: { "Content-Type": "application/json", "X-Forwarded-Proto": "https" }, body: "{}" },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

/** The two servers run in a child process of their own, so that the load generator does not share their core. */
const SERVERS = `
import { createServer } from "node:http";
const { createHandler, toNodeListener } = await import(${JSON.stringify(SERVER)});
const handle = createHandler(
  { legacy: { "user.current": async () => ({ ID: "1", NAME: "John" }) }, v3: {} },
  { authenticate: () => ({ userId: 1, scopes: ["user"] }), trustProxy: true },
);
const listen = (h) => new Promise((r) => { const s = createServer(h); s.listen(0, "127.0.0.1", () => r(s)); });
const generated = await listen(toNodeListener(handle));
const now = Date.now() / 1000;
const bare = await listen((req, res) => {
  req.resume();
  req.on("end", () => {
    const body = JSON.stringify({ result: { ID: "1", NAME: "John" }, time: { start: now, finish: now, duration: 0, processing: 0, date_start: "", date_finish: "", operating: 0, operating_reset_at: 0 } });
    res.writeHead(200, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body) }).end(body);
  });
});
console.log(JSON.stringify({ generated: generated.address().port, bare: bare.address().port }));
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
`;

async function rate({ rounds = 3, duration = 3, connections = 10 } = {}) {
  const child = spawn(process.execPath, ["--input-type=module", "-e", SERVERS], { stdio: ["pipe", "pipe", "inherit"] });
  const ports = await new Promise((resolve, reject) => {
    child.stdout.once("data", (d) => resolve(JSON.parse(String(d))));
    child.once("exit", (code) => reject(new Error(`servers exited ${code}`)));
  });
  const url = (port) => `http://127.0.0.1:${port}/rest/1/c0de/user.current`;
  try {
    await load(url(ports.bare), { duration: 1, connections });
    await load(url(ports.generated), { duration: 1, connections });
    const r = { bare: [], generated: [], errors: 0 };
    for (let i = 0; i < rounds; i++) {
      const b = await load(url(ports.bare), { duration, connections });
      const g = await load(url(ports.generated), { duration, connections });
      r.bare.push(b.requests.average);
      r.generated.push(g.requests.average);
      r.errors += b.errors + g.errors + b.non2xx + g.non2xx;
    }
    return { bare: median(r.bare), generated: median(r.generated), errors: r.errors, rounds, duration, connections };
  } finally {
    child.stdin.end();
    child.kill();
  }
}

/** In a child with --expose-gc: N calls with distinct keys through the handler (no network), store bounded at M. */
const SOAK = `
const { createHandler, createMemoryIdempotencyStore } = await import(${JSON.stringify(SERVER)});
const store = createMemoryIdempotencyStore({ maxEntries: 5000 });
const handle = createHandler({ legacy: {}, v3: { "tasks.task.add": async (p) => ({ item: { title: p.fields.title, pad: "x".repeat(512) } }) } },
  { authenticate: () => ({ userId: 1, scopes: [] }), idempotencyStore: store });
const send = (i) => handle(new Request("https://h.example/rest/api/1/c0de/tasks.task.add", { method: "POST", headers: { "Content-Type": "application/json", "Idempotency-Key": "key-" + i }, body: JSON.stringify({ fields: { title: "t" + i } }) }));
for (let i = 0; i < 2000; i++) await send(i);
gc(); gc();
const after2k = process.memoryUsage().heapUsed;
for (let i = 2000; i < 40000; i++) { const r = await send(i); if (r.status !== 200) throw new Error("status " + r.status); }
gc(); gc();
const after40k = process.memoryUsage().heapUsed;
console.log(JSON.stringify({ calls: 40000, storeBound: 5000, storeSize: store.size, heapAfter2kMiB: after2k / 2 ** 20, heapAfter40kMiB: after40k / 2 ** 20 }));
`;

function soak() {
  const r = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", SOAK], { encoding: "utf8", timeout: 120_000 });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

export async function benchServer() {
  const r = await rate();
  const s = soak();
  printTable("Server: requests per second against a bare node:http handler (loopback HTTP, autocannon)", [
    { measure: `bare node:http, req/s (median of ${r.rounds} rounds × ${r.duration} s, ${r.connections} connections; servers in a child process)`, value: r.bare.toFixed(0) },
    { measure: "generated server, user.current, req/s", value: r.generated.toFixed(0) },
    { measure: "generated / bare", value: `${((r.generated / r.bare) * 100).toFixed(1)} %` },
    { measure: "errors and non-2xx answers", value: String(r.errors) },
  ]);
  printTable("Server: soak of distinct idempotency keys (in-process)", [
    { measure: "calls with distinct keys", value: String(s.calls) },
    { measure: "store entries after the soak (bound)", value: `${s.storeSize} (${s.storeBound})` },
    { measure: "heap after 2 000 calls", value: `${s.heapAfter2kMiB.toFixed(1)} MiB` },
    { measure: "heap after 40 000 calls", value: `${s.heapAfter40kMiB.toFixed(1)} MiB` },
  ]);
  return { rate: r, soak: s };
}
