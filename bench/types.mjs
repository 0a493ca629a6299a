// Issue 16's type cost (D14): a consumer that calls ten methods of one area through its entry, and one that calls
// methods of four areas through the main entry, type-checked with the generated types
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

// Ten calls of the tasks area through its entry (D14): what "a consumer of one area" type-checks.
export const AREA_CONSUMER = `import { createClient } from "collab-platform-api-client/tasks";
const c = createClient({ baseUrl: "https://portal.example", auth: { accessToken: "t" } });
export async function run() {
  const a = await c.tasks.task.getaccess({ taskId: 1 });
  const b = await c.tasks.task.get({ taskId: 1 });
  const d = await c.tasks.task.stopwatch({ taskId: 1 });
  const e = await c.tasks.task.get.withResponse({ taskId: 1 });
  const f = await c.call("tasks.task.unpin", { id: 1 });
  const g = await c.request("tasks.task.getaccess", { taskId: 1 });
  const h = await c.v3.tasks.task.add({ fields: { title: "t" } });
  const i = await c.v3.tasks.task.get({ taskId: 1 });
  const j = await c.v3.call("tasks.task.get", { taskId: 1 });
  const k = await c.batch({ a: ["tasks.task.getaccess", { taskId: 1 }], t: ["tasks.task.get", { taskId: 1 }] });
  return [a.allowedActions, b.task, d, e.time, f, g.result, h, i, j, k.outcomes.t];
}
`;

// The same kind of program through the main entry, calling four areas: it checks every method's declarations.
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
      writeFileSync(join(here, "main.ts"), CONSUMER);
      writeFileSync(join(here, "area.ts"), AREA_CONSUMER);
      const methods = (syntheticSpec(times).match(/^\*\*[a-z][\w.]*\*\*/gm) ?? []).length;
      for (const entry of ["area", "main"]) {
        for (const skipLibCheck of [false, true]) {
          writeFileSync(
            join(here, "tsconfig.json"),
            JSON.stringify({ compilerOptions: { strict: true, skipLibCheck, noEmit: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", lib: ["ES2023", "DOM"], types: [], preserveSymlinks: true }, files: [`${entry}.ts`] }),
          );
          const samples = [];
          for (let i = 0; i < runs; i++) {
            const r = spawnSync(process.execPath, [TSC, "-p", "tsconfig.json", "--extendedDiagnostics"], { cwd: here, encoding: "utf8" });
            if (r.status !== 0) throw new Error(r.stdout);
            samples.push(diagnostics(r.stdout));
          }
          const m = (k) => median(samples.map((s) => s[k]));
          result[`${entry}-${times}${skipLibCheck ? "-skipLibCheck" : ""}`] = { methods, check: m("check"), total: m("total"), instantiations: m("instantiations"), types: m("types") };
          rows.push({ entry: entry === "area" ? "client/tasks" : "client (main)", spec: times === 1 ? "real spec" : `synthetic ${times}x`, methods, skipLibCheck, "check ms": m("check").toFixed(0), "total ms": m("total").toFixed(0), instantiations: m("instantiations"), types: m("types") });
        }
      }
    }
    const ratio = (entry, skip) => result[`${entry}-50${skip}`].total / result[`${entry}-1${skip}`].total;
    const ratios = { area: ratio("area", ""), areaSkip: ratio("area", "-skipLibCheck"), main: ratio("main", ""), mainSkip: ratio("main", "-skipLibCheck") };
    printTable(
      `Consumer type-check, ten calls (tsc, ${runs} runs each, median): total time 50x / 1x through the tasks entry ${ratios.area.toFixed(2)} (skipLibCheck ${ratios.areaSkip.toFixed(2)}; D14 asks at most 1.5), through the main entry ${ratios.main.toFixed(2)} (skipLibCheck ${ratios.mainSkip.toFixed(2)})`,
      rows,
    );
    return { ...result, ratios };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
