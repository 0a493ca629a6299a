// A/B against another commit in one run (decisions.md D16): the generated client's call rate and the generated
// server's request rate of this tree and of REV's committed output/, interleaved, median of at least 15 runs each;
// and the one-call client bundle of both. `npm run bench -- ab [REV]` (default: the parent commit, HEAD~1).
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { build } from "esbuild";
import { median, oneCallBundle, printTable, userCurrentServer } from "./lib.mjs";

const ROOT = new URL("..", import.meta.url).pathname;

const bundle = async (root) => (await oneCallBundle(join(root, "output/client/index.js"))).gzipped;

async function clientRates(roots, { runs, calls = 2000, concurrency = 16, extra = {} }) {
  const { server, base } = await userCurrentServer();
  const clients = [];
  for (const [i, root] of roots.entries()) {
    const { createClient } = await import(join(root, "output/client/index.js"));
    // The throttle (issue 16) is off: this measures the client's own cost; older clients ignore the option.
    clients.push(createClient({ baseUrl: base, auth: { userId: 1, code: "c0de" }, allowInsecureHttp: true, throttle: false, ...(i === 0 ? extra : {}) }));
  }
  const rate = async (client) => {
    let next = 0;
    const start = process.hrtime.bigint();
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next++ < calls) await client.user.current();
    }));
    return calls / (Number(process.hrtime.bigint() - start) / 1e9);
  };
  for (const c of clients) await rate(c);
  const rates = clients.map(() => []);
  for (let i = 0; i < runs; i++) {
    // Interleaved, and the order alternates, so that drift of the machine hits both alike.
    const order = i % 2 ? [1, 0] : [0, 1];
    for (const k of order) rates[k].push(await rate(clients[k]));
  }
  server.closeAllConnections();
  server.close();
  return rates.map(median);
}

const SERVER = (root) => `
import { createServer } from "node:http";
const { createHandler, toNodeListener } = await import(${JSON.stringify(join(root, "output/server/index.js"))});
const handle = createHandler(
  { legacy: { "user.current": async () => ({ ID: "1", NAME: "John" }) }, v3: {} },
  { authenticate: () => ({ userId: 1, scopes: ["user"] }), trustProxy: true },
);
const s = createServer(toNodeListener(handle));
s.listen(0, "127.0.0.1", () => console.log(s.address().port));
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
`;

function load(port, duration) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url: `http://127.0.0.1:${port}/rest/1/c0de/user.current`, method: "POST", duration, connections: 10, headers: { "Content-Type": "application/json", "X-Forwarded-Proto": "https" }, body: "{}" },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

async function serverRates(roots, { runs, duration = 1 }) {
  const children = roots.map((root) => spawn(process.execPath, ["--input-type=module", "-e", SERVER(root)], { stdio: ["pipe", "pipe", "inherit"] }));
  try {
    const ports = await Promise.all(children.map((c) => new Promise((resolve) => c.stdout.once("data", (d) => resolve(Number(String(d).trim()))))));
    for (const p of ports) await load(p, 1);
    const rates = ports.map(() => []);
    let errors = 0;
    for (let i = 0; i < runs; i++) {
      const order = i % 2 ? [1, 0] : [0, 1];
      for (const k of order) {
        const r = await load(ports[k], duration);
        rates[k].push(r.requests.average);
        errors += r.errors + r.non2xx;
      }
    }
    return { rates: rates.map(median), errors };
  } finally {
    for (const c of children) {
      c.stdin.end();
      c.kill();
    }
  }
}

/**
 * CPU per call with no network in the way: the router through its node adapter on fake req/res objects, and the
 * client on a fetch that answers at once. Loopback rates move by ±10% from run to run on a 2-core VM; these move
 * by a few percent, so a regression of the runtimes' own code shows here first.
 */
const PER_CALL = {
  server: (root) => `
import { EventEmitter } from "node:events";
const { createHandler, toNodeListener } = await import(${JSON.stringify(join(root, "output/server/index.js"))});
const listener = toNodeListener(createHandler({ legacy: { "user.current": async () => ({ ID: "1", NAME: "John" }) }, v3: {} }, { authenticate: () => ({ userId: 1, scopes: ["user"] }), trustProxy: true }));
const once = () => new Promise((resolve) => {
  const req = Object.assign(new EventEmitter(), { method: "POST", url: "/rest/1/c0de/user.current", headers: { host: "x", "content-type": "application/json", "x-forwarded-proto": "https", "content-length": "2" }, socket: {}, destroy() {} });
  listener(req, { headersSent: false, writeHead: () => ({ end: (b, cb) => { resolve(b); cb?.(); } }), destroy() {} });
  queueMicrotask(() => { req.emit("data", Buffer.from("{}")); req.emit("end"); });
});
`,
  client: (root, extra) => `
const { createClient } = await import(${JSON.stringify(join(root, "output/client/index.js"))});
const body = JSON.stringify({ result: { ID: "1", NAME: "John" }, time: {} });
const c = createClient({ baseUrl: "https://p.example", auth: { userId: 1, code: "c0de1234" }, fetch: async () => new Response(body, { status: 200, headers: { "Content-Type": "application/json", "Content-Length": String(body.length) } }), throttle: false, ...${JSON.stringify(extra)} });
const once = () => c.user.current();
`,
};
const TIMED = `
for (let i = 0; i < 20000; i++) await once();
const times = [];
for (let r = 0; r < 5; r++) { const s = performance.now(); for (let i = 0; i < 20000; i++) await once(); times.push(performance.now() - s); }
times.sort((a, b) => a - b);
console.log(times[2] / 20000 * 1000);
`;

function perCall(script) {
  return Number(execFileSync(process.execPath, ["--input-type=module", "-e", script + TIMED], { encoding: "utf8" }).trim());
}

export async function benchAB(rev = "HEAD~1", runs = 15) {
  const dir = mkdtempSync(join(tmpdir(), "crc-ab-"));
  const other = join(dir, "tree");
  execFileSync("git", ["worktree", "add", "--detach", other, rev], { cwd: ROOT, stdio: "pipe" });
  try {
    const sha = execFileSync("git", ["rev-parse", "--short", rev], { cwd: ROOT, encoding: "utf8" }).trim();
    const roots = [ROOT, other];
    const sizes = [await bundle(ROOT), await bundle(other)];
    const client = await clientRates(roots, { runs });
    // The same with the per-attempt time-out off (`timeoutMs: 0`): what the default time-out costs.
    const noTimeout = await clientRates(roots, { runs, extra: { timeoutMs: 0 } });
    const server = await serverRates(roots, { runs });
    const cpu = { server: [[], []], client: [[], []], clientNoTimeout: [[], []] };
    for (let i = 0; i < 5; i++) {
      for (const k of i % 2 ? [1, 0] : [0, 1]) {
        cpu.server[k].push(perCall(PER_CALL.server(roots[k])));
        cpu.client[k].push(perCall(PER_CALL.client(roots[k], {})));
        cpu.clientNoTimeout[k].push(perCall(PER_CALL.client(roots[k], k === 0 ? { timeoutMs: 0 } : {})));
      }
    }
    const us = (xs) => median(xs);
    const pct = (a, b) => `${(((a - b) / b) * 100).toFixed(1)} %`;
    printTable(`A/B against ${rev} (${sha}): interleaved, median of ${runs} runs each (D16)`, [
      { measure: "client bundle, one method called (gzip -9)", this: `${sizes[0]} B`, [sha]: `${sizes[1]} B`, change: pct(sizes[0], sizes[1]) },
      { measure: "client calls/s (loopback HTTP, 2,000 calls, 16 in flight)", this: client[0].toFixed(0), [sha]: client[1].toFixed(0), change: pct(client[0], client[1]) },
      { measure: "client calls/s with timeoutMs: 0 (no per-attempt time-out)", this: noTimeout[0].toFixed(0), [sha]: noTimeout[1].toFixed(0), change: pct(noTimeout[0], noTimeout[1]) },
      { measure: "server req/s, user.current (autocannon, 10 connections, 1 s)", this: server.rates[0].toFixed(0), [sha]: server.rates[1].toFixed(0), change: pct(server.rates[0], server.rates[1]) },
      { measure: "errors and non-2xx answers", this: String(server.errors), [sha]: "", change: "" },
      { measure: "router CPU per call, µs (node adapter, fake req/res; median of 5 processes)", this: us(cpu.server[0]).toFixed(2), [sha]: us(cpu.server[1]).toFixed(2), change: pct(us(cpu.server[0]), us(cpu.server[1])) },
      { measure: "client CPU per call, µs (fetch answering at once)", this: us(cpu.client[0]).toFixed(2), [sha]: us(cpu.client[1]).toFixed(2), change: pct(us(cpu.client[0]), us(cpu.client[1])) },
      { measure: "client CPU per call, µs, this with timeoutMs: 0", this: us(cpu.clientNoTimeout[0]).toFixed(2), [sha]: us(cpu.clientNoTimeout[1]).toFixed(2), change: pct(us(cpu.clientNoTimeout[0]), us(cpu.clientNoTimeout[1])) },
    ]);
    return { rev, sha, runs, bundleGzip: sizes, clientCallsPerSecond: client, clientCallsPerSecondNoTimeout: noTimeout, serverRequestsPerSecond: server.rates, serverErrors: server.errors, cpuMicroseconds: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, v.map(us)])) };
  } finally {
    execFileSync("git", ["worktree", "remove", "--force", other], { cwd: ROOT, stdio: "pipe" });
    rmSync(dir, { recursive: true, force: true });
  }
}
