// Issue 16's type cost (D14): a consumer that calls ten methods of one area, type-checked with the generated types
// and client of the real spec (31 methods) and of synthetic specs up to 50 times its size (about 1,500 methods).
// tsc --extendedDiagnostics, fresh process, median of runs: check time, total time, instantiations, types; with
// skipLibCheck off (tsc checks the packages' declarations too) and on (the setting of `tsc --init`).
// `npm run bench -- types [RUNS]`.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { syntheticSpec } from "./generator.mjs";
import { median, printTable } from "./lib.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const BIN = join(ROOT, "dist/generator/cli/main.js");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");

const CONSUMER = `import { createClient } from "collab-platform-api-client";
const c = createClient({ baseUrl: "https://portal.example", auth: { accessToken: "t" } });
export async function run() {
  const a = await c.tasks.task.getaccess({ taskId: 1 });
  const b = await c.tasks.task.get({ taskId: 1 });
  const d = await c.tasks.task.stopwatch({ taskId: 1 });
  const e = await c.user.current();
  const f = await c.call("tasks.task.unpin", { id: 1 });
  const g = await c.telephony.externalLine.add({ NUMBER: "1" });
  const h = await c.telephony.externalCall.show({ CALL_ID: "1" });
  const i = await c.mailservice.list();
  const j = await c.v3.tasks.task.get({ taskId: 1 });
  const k = await c.batch({ me: ["user.current"], t: ["tasks.task.get", { taskId: 1 }] });
  return [a.allowedActions, b.task, d, e.ID, f, g, h, i, j, k.outcomes.me];
}
`;

function diagnostics(out) {
  const num = (label) => Number(new RegExp(`^${label}:\\s+([\\d.]+)`, "m").exec(out)?.[1] ?? NaN);
  return { check: num("Check time") * 1000, total: num("Total time") * 1000, instantiations: num("Instantiations"), types: num("Types") };
}

export function benchTypes({ runs = 5 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "crc-types-"));
  try {
    const rows = [];
    const result = {};
    for (const times of [1, 10, 50]) {
      const here = join(dir, `x${times}`);
      mkdirSync(join(here, "node_modules"), { recursive: true });
      writeFileSync(join(here, "spec.md"), syntheticSpec(times));
      const gen = spawnSync(process.execPath, [BIN, "generate", "--spec", "spec.md", "--out", "out"], { cwd: here, encoding: "utf8" });
      if (gen.status !== 0) throw new Error(gen.stderr);
      for (const pkg of ["types", "client"]) symlinkSync(join(here, "out", pkg), join(here, "node_modules", `collab-platform-api-${pkg}`), "dir");
      writeFileSync(join(here, "consumer.ts"), CONSUMER);
      const methods = (syntheticSpec(times).match(/^\*\*[a-z][\w.]*\*\*/gm) ?? []).length;
      for (const skipLibCheck of [false, true]) {
        writeFileSync(
          join(here, "tsconfig.json"),
          JSON.stringify({ compilerOptions: { strict: true, skipLibCheck, noEmit: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", lib: ["ES2023", "DOM"], types: [], preserveSymlinks: true }, files: ["consumer.ts"] }),
        );
        const samples = [];
        for (let i = 0; i < runs; i++) {
          const r = spawnSync(process.execPath, [TSC, "-p", "tsconfig.json", "--extendedDiagnostics"], { cwd: here, encoding: "utf8" });
          if (r.status !== 0) throw new Error(r.stdout);
          samples.push(diagnostics(r.stdout));
        }
        const m = (k) => median(samples.map((s) => s[k]));
        result[`${times}${skipLibCheck ? "-skipLibCheck" : ""}`] = { methods, check: m("check"), total: m("total"), instantiations: m("instantiations"), types: m("types") };
        rows.push({ spec: times === 1 ? "real spec" : `synthetic ${times}x`, methods, skipLibCheck, "check ms": m("check").toFixed(0), "total ms": m("total").toFixed(0), instantiations: m("instantiations"), types: m("types") });
      }
    }
    const ratio = result[50].total / result[1].total;
    const ratioSkip = result["50-skipLibCheck"].total / result["1-skipLibCheck"].total;
    printTable(`Consumer type-check, ten calls of one area (tsc, ${runs} runs each, median): total time 50x / 1x = ${ratio.toFixed(2)}, with skipLibCheck ${ratioSkip.toFixed(2)} (D14 asks 1.5)`, rows);
    return { ...result, ratio, ratioSkip };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
