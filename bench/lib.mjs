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

/**
 * The client in a program that calls one method, bundled as an application's bundler does it (esbuild, minified,
 * code splitting: dynamic imports become chunks of their own). `initial` is what the program loads before its first
 * call: the entry chunk and the chunks it imports statically; `lazy` lists the chunks loaded on first use (failure
 * handling, paging and batches). D17 holds `initial` to 5 KB gzipped.
 */
export async function oneCallBundle(clientIndex) {
  const { build } = await import("esbuild");
  const { mkdtempSync, rmSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join, basename } = await import("node:path");
  const { gzipSync } = await import("node:zlib");
  const dir = mkdtempSync(join(tmpdir(), "crc-size-"));
  try {
    const entry = join(dir, "app.mjs");
    writeFileSync(
      entry,
      `import { createClient } from ${JSON.stringify(clientIndex)};\n` +
        `const c = createClient({ baseUrl: "https://portal.example", auth: { userId: 1, code: process.env.CODE } });\n` +
        `console.log(await c.user.current());\n`,
    );
    const out = await build({ entryPoints: [entry], bundle: true, minify: true, format: "esm", platform: "neutral", write: false, treeShaking: true, splitting: true, outdir: join(dir, "out") });
    const files = new Map(out.outputFiles.map((f) => [basename(f.path), f]));
    const size = (f) => ({ minified: f.contents.length, gzipped: gzipSync(f.contents, { level: 9 }).length });
    const initial = new Set(["app.js"]);
    for (const name of initial) {
      for (const m of (files.get(name)?.text ?? "").matchAll(/from"\.\/([^"]+)"/g)) initial.add(m[1]);
    }
    const sum = (names) => names.map((n) => size(files.get(n))).reduce((a, b) => ({ minified: a.minified + b.minified, gzipped: a.gzipped + b.gzipped }), { minified: 0, gzipped: 0 });
    const lazy = [...files.keys()].filter((n) => !initial.has(n)).map((n) => ({ chunk: n.replace(/-[A-Z0-9]+\.js$/, ""), ...size(files.get(n)) }));
    return { ...sum([...initial]), lazy };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
