// The client's cost: its size in a program that calls one method (esbuild, minified, gzipped), and its call
// rate against raw fetch on the same loopback server (bounded: a fixed number of calls, a few rounds).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { median, printTable, userCurrentServer } from "./lib.mjs";

const ROOT = new URL("..", import.meta.url).pathname;

async function bundleSize() {
  const dir = mkdtempSync(join(tmpdir(), "crc-size-"));
  try {
    const entry = join(dir, "app.mjs");
    writeFileSync(
      entry,
      `import { createClient } from ${JSON.stringify(join(ROOT, "output/client/index.js"))};\n` +
        `const c = createClient({ baseUrl: "https://portal.example", auth: { userId: 1, code: process.env.CODE } });\n` +
        `console.log(await c.user.current());\n`,
    );
    const out = await build({ entryPoints: [entry], bundle: true, minify: true, format: "esm", platform: "neutral", write: false, treeShaking: true });
    const code = out.outputFiles[0].contents;
    return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function callRate({ calls = 3000, concurrency = 16, rounds = 5 } = {}) {
  const { server, base } = await userCurrentServer();
  const { createClient } = await import(join(ROOT, "output/client/index.js"));
  const client = createClient({ baseUrl: base, auth: { userId: 1, code: "c0de" }, allowInsecureHttp: true });
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
  const size = await bundleSize();
  const r = await callRate();
  const rows = [
    { measure: "bundle, one method called (minified)", value: `${size.minified} B` },
    { measure: "bundle, one method called (gzip -9)", value: `${size.gzipped} B` },
    { measure: `raw fetch, calls/s (median of ${r.rounds} rounds × ${r.calls} calls, ${r.concurrency} in flight)`, value: r.raw.toFixed(0) },
    { measure: "client, calls/s (same server, same load)", value: r.client.toFixed(0) },
    { measure: "client / raw fetch", value: `${((r.client / r.raw) * 100).toFixed(1)} %` },
  ];
  printTable("Client: size and call rate against raw fetch (loopback HTTP)", rows);
  return { size, rate: r };
}
