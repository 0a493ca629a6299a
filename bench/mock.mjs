// Issue 15's figures: `collab-rest-codegen mock` as a user starts it. Time from the process's start to its first
// answered request (Prism's is about 1.3 s on a machine like this one), requests a second for a plain call and for
// a list page (autocannon, 10 connections, a few seconds each), and the process's memory with `--records 10000`
// after every list method has made its records. Plain HTTP (`--http`), so that TLS does not weigh on the figures.
// `npm run bench -- mock [RUNS]`.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { median, printTable } from "./lib.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const BIN = join(ROOT, "dist/generator/cli/main.js");
const SPEC = join(ROOT, "spec-source/collaboration-platform-api.md");

function start(args) {
  const started = performance.now();
  const proc = spawn(process.execPath, [BIN, "mock", "--spec", SPEC, "--http", "--port", "0", ...args], { stdio: ["ignore", "pipe", "ignore"] });
  return new Promise((resolve, reject) => {
    let buffer = "";
    proc.stdout.on("data", (c) => {
      buffer += c.toString();
      const url = /^listening on (\S+)$/m.exec(buffer)?.[1];
      if (url) resolve({ proc, url, started });
    });
    proc.on("exit", (code) => reject(new Error(`mock exited ${code}`)));
  });
}

const post = (url, body = {}) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

async function stop(proc) {
  proc.removeAllListeners("exit");
  const done = new Promise((r) => proc.on("exit", r));
  proc.kill("SIGTERM");
  await done;
}

function rate(url, body, duration) {
  return new Promise((resolve, reject) =>
    autocannon({ url, method: "POST", duration, connections: 10, headers: { "content-type": "application/json" }, body: JSON.stringify(body) }, (err, r) => (err ? reject(err) : resolve(r))),
  );
}

/** Resident memory of a process, from /proc (Linux). */
const rssMiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) / 1024;

export async function benchMock({ runs = 5, duration = 4 } = {}) {
  const firstAnswer = [];
  for (let i = 0; i < runs; i++) {
    const { proc, url, started } = await start([]);
    const r = await post(`${url}/rest/1/c0de/user.current`);
    await r.arrayBuffer();
    firstAnswer.push(performance.now() - started);
    await stop(proc);
  }
  const { proc, url } = await start(["--records", "150"]);
  const plain = await rate(`${url}/rest/1/c0de/user.current`, {}, duration);
  const list = await rate(`${url}/rest/1/c0de/sale.paysystem.list`, { start: 50 }, duration);
  const small = rssMiB(proc.pid);
  await stop(proc);
  const big = await start(["--records", "10000"]);
  for (const m of ["sale.paysystem.list", "mailservice.list"]) await (await post(`${big.url}/rest/1/c0de/${m}`, { start: 9950 })).arrayBuffer();
  const large = rssMiB(big.proc.pid);
  const deep = await rate(`${big.url}/rest/1/c0de/sale.paysystem.list`, { start: 9950, FILTER: { ">ID": 5000 }, ORDER: { ID: "DESC" } }, duration);
  await stop(big.proc);
  const rows = [
    { measure: `start to first answered request (median of ${runs}, node start and generation included)`, value: `${median(firstAnswer).toFixed(0)} ms` },
    { measure: "plain call (user.current), requests/s, 10 connections", value: plain.requests.average.toFixed(0) },
    { measure: "list page (sale.paysystem.list, start 50), requests/s", value: list.requests.average.toFixed(0) },
    { measure: "list page over 10,000 records, filtered and ordered, requests/s", value: deep.requests.average.toFixed(0) },
    { measure: "memory (RSS), --records 150, after the load", value: `${small.toFixed(0)} MiB` },
    { measure: "memory (RSS), --records 10000, both list methods made", value: `${large.toFixed(0)} MiB` },
  ];
  printTable("The mock (`collab-rest-codegen mock --http`)", rows);
  return { firstAnswerMs: median(firstAnswer), plain: plain.requests.average, list: list.requests.average, deepList: deep.requests.average, rssMiB: { records150: small, records10000: large } };
}
