// `npm run bench`: every benchmark of the project, with the machine's core count; medians throughout.
import { mkdirSync, writeFileSync } from "node:fs";
import { benchAB } from "./ab.mjs";
import { benchBatch } from "./batch.mjs";
import { benchClient } from "./client.mjs";
import { benchGenerator } from "./generator.mjs";
import { benchFuzz } from "./fuzz.mjs";
import { benchMock } from "./mock.mjs";
import { benchServer } from "./server.mjs";
import { benchReference, benchReferenceRerun, benchReferenceTypes } from "./reference.mjs";
import { benchUpdates } from "./updates.mjs";
import { benchScale } from "./scale.mjs";
import { benchTypes } from "./types.mjs";
import { benchVersus } from "./versus.mjs";
import { machine } from "./lib.mjs";

const only = process.argv[2];
const m = machine();
console.log(`# collab-rest-codegen benchmarks\n\n${m.cores} cores, ${m.cpu}, Node ${m.node}`);
const results = { machine: m };
if (!only || only === "generator") results.generator = benchGenerator();
if (!only || only === "client") results.client = await benchClient();
if (!only || only === "server") results.server = await benchServer();
if (!only || only === "batch") results.batch = await benchBatch({ rounds: Number(process.argv[3] ?? 30) });
// `npm run bench -- scale [RUNS]`: all() against the official SDK's list helpers over 10,000 records.
if (!only || only === "scale") results.scale = await benchScale({ runs: Number((only && process.argv[3]) ?? 5) });
// `npm run bench -- types [RUNS]`: a consumer's type-check time at 31 and about 1,500 methods (D14).
if (!only || only === "types") results.types = benchTypes({ runs: Number((only && process.argv[3]) ?? 5) });
// `npm run bench -- mock [RUNS]`: the mock's start to first answer, request rates and memory (issue 15).
if (!only || only === "mock") results.mock = await benchMock({ runs: Number((only && process.argv[3]) ?? 5) });
// `npm run bench -- updates [RUNS] [REV]`: diff, generate unchanged and with the skeleton merge; with REV, the A/B.
if (!only || only === "updates") results.updates = benchUpdates({ runs: Number((only && process.argv[3]) ?? 9), rev: (only && process.argv[4]) || null });
// `npm run bench -- fuzz [N]`: N mutated specs (default 10,000) and the heavy kinds; no throw, linear time and memory.
if (only === "fuzz") results.fuzz = await benchFuzz({ count: Number(process.argv[3] ?? 10_000) });
// `npm run bench -- reference [RUNS]`: the whole platform's reference against the remark + gfm floor (issue 28, D21).
if (only === "reference") results.reference = { generate: benchReference({ runs: Number(process.argv[3] ?? 3) }), rerun: benchReferenceRerun({ runs: Number(process.argv[3] ?? 3) }), types: benchReferenceTypes({ runs: Number(process.argv[3] ?? 3) }) };
// The A/B against the parent commit runs by itself: `npm run bench -- ab [REV] [RUNS]`.
// Against openapi-typescript (installs it into a temporary folder): `npm run bench -- versus [RUNS]`.
if (only === "versus") results.versus = benchVersus({ runs: Number(process.argv[3] ?? 9) });
if (only === "ab") results.ab = await benchAB(process.argv[3] ?? "HEAD~1", Number(process.argv[4] ?? 15));
mkdirSync(new URL("./results/", import.meta.url), { recursive: true });
writeFileSync(new URL("./results/latest.json", import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
