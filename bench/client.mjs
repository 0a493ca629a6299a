// The client's cost: its size in a program that calls one method (esbuild, minified, gzipped), and its call
// rate against raw fetch on the same loopback server (bounded: a fixed number of calls, a few rounds).
import { join } from "node:path";
import { median, oneCallBundle, printTable, userCurrentServer } from "./lib.mjs";

const ROOT = new URL("..", import.meta.url).pathname;

async function callRate({ calls = 3000, concurrency = 16, rounds = 5 } = {}) {
  const { server, base } = await userCurrentServer();
  const { createClient } = await import(join(ROOT, "output/client/index.js"));
  // The call rate is the client's own cost: the request-rate throttle (2 a second by default) is off here.
  const client = createClient({ baseUrl: base, auth: { userId: 1, code: "c0de" }, allowInsecureHttp: true, throttle: false });
  const raw = async () => {
    const r = await fetch(`${base}/rest/1/c0de/user.current`, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: "{}" });
    return (await r.json()).result;
  };
  const viaClient = () => client.user.current();
  async function rate(fn) {
    let next = 0;
    const start = process.hrtime.bigint();
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next++ < calls) await fn();
    }));
    return calls / (Number(process.hrtime.bigint() - start) / 1e9);
  }
  await rate(raw);
  await rate(viaClient);
  const rawRates = [];
  const clientRates = [];
  for (let i = 0; i < rounds; i++) {
    rawRates.push(await rate(raw));
    clientRates.push(await rate(viaClient));
  }
  server.close();
  return { raw: median(rawRates), client: median(clientRates), calls, concurrency, rounds };
}

export async function benchClient() {
  const size = await oneCallBundle(join(ROOT, "output/client/index.js"));
  // The same program through the area entry of the method it calls (`client/user`, D14).
  const areaSize = await oneCallBundle(join(ROOT, "output/client/areas/user/index.js"));
  const r = await callRate();
  const rows = [
    { measure: "one-call program, loaded before the call (minified)", value: `${size.minified} B` },
    { measure: "one-call program, loaded before the call (gzip -9)", value: `${size.gzipped} B` },
    { measure: "the same through the area entry `client/user` (gzip -9)", value: `${areaSize.gzipped} B` },
    ...size.lazy.map((c) => ({ measure: `chunk loaded on first use: ${c.chunk} (gzip -9)`, value: `${c.gzipped} B` })),
    { measure: `raw fetch, calls/s (median of ${r.rounds} rounds × ${r.calls} calls, ${r.concurrency} in flight)`, value: r.raw.toFixed(0) },
    { measure: "client, calls/s (same server, same load)", value: r.client.toFixed(0) },
    { measure: "client / raw fetch", value: `${((r.client / r.raw) * 100).toFixed(1)} %` },
  ];
  printTable("Client: size and call rate against raw fetch (loopback HTTP)", rows);
  return { size, areaSize, rate: r };
}
