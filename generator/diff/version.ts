import semver from "semver";
import type { Model } from "../model/types.js";
import { type Change, type DiffReport, diffModels } from "./index.js";
import { type Bump, bumpOf } from "./rules.js";
import { type RuntimeApi, readRuntimeApi } from "./runtime-api.js";
import { migrateModel } from "../model/platform.js";

/**
 * The generated packages' version (docs/decisions.md D3): the greater of the config's `version` and the previous
 * generation's, bumped by the diff of the previous model and the new one. The first generation takes the config's
 * version as it is. The previous generation is what `model.json` records in its `generation` member.
 */

export const DEFAULT_VERSION = "0.1.0";

/** What `model.json` records of the generation besides the model: read back by the next run. */
export interface Generation {
  /** The packages' version. */
  version: string;
  /**
   * Handlers of methods the spec dropped since the last major version, by API version: the server's handler types
   * keep them as optional `@deprecated` members so that the user's skeleton compiles until the next major.
   */
  removedHandlers: { legacy: string[]; v3: string[] };
  /**
   * What the client and server packages export from their runtime (diff/runtime-api.ts, decisions.md D9): the next
   * generation compares its own with it. Absent in a generation written before it was kept.
   */
  runtimeApi?: RuntimeApi;
}

export type { Previous } from "../options.js";

/** Parses the previous `model.json`; null when it is not one this generator wrote (the run then counts as the first). */
export function readPrevious(text: string): { generation: Generation; model: Model } | null {
  try {
    const raw = JSON.parse(text) as Partial<Model> & { generation?: Partial<Generation> };
    const g = raw.generation;
    if (!g || typeof g.version !== "string" || !semver.valid(g.version) || !Array.isArray(raw.methods) || !Array.isArray(raw.resources)) return null;
    const names = (x: unknown) => (Array.isArray(x) ? x.filter((n): n is string => typeof n === "string") : []);
    const removed = g.removedHandlers as { legacy?: unknown; v3?: unknown } | undefined;
    const runtimeApi = readRuntimeApi(g.runtimeApi);
    return { generation: { version: g.version, removedHandlers: { legacy: names(removed?.legacy), v3: names(removed?.v3) }, ...(runtimeApi ? { runtimeApi } : {}) }, model: migrateModel(raw as Model) };
  } catch {
    return null;
  }
}

export function bumpVersion(version: string, bump: Bump): string {
  if (bump === "none") return version;
  const next = semver.inc(version, bump);
  if (!next) throw new Error(`cannot bump version ${version}`);
  return next;
}

export interface VersionDecision {
  version: string;
  /** The diff from the previous model; null on a first generation. */
  diff: DiffReport | null;
  previousVersion: string | null;
  generation: Generation;
}

/**
 * Decides the version of this generation. `sameModel` says the new model's JSON equals the previous one (the cheap
 * check: no parse, no diff on an unchanged spec).
 */
export function decideVersion(
  model: Model,
  configured: string | undefined,
  previous: ReturnType<typeof readPrevious>,
  sameModel: boolean,
  specPath: string,
  breakingWhileZero: "minor" | "major" = "minor",
  /** Changes besides the model's: the runtime's exports (diff/runtime-api.ts), with the record they were judged by. */
  runtime: { changes: Change[]; api: RuntimeApi } | null = null,
): VersionDecision {
  const base = configured ?? DEFAULT_VERSION;
  if (!previous) return { version: base, diff: null, previousVersion: null, generation: { version: base, removedHandlers: { legacy: [], v3: [] } } };
  const prev = previous.generation;
  const modelDiff = sameModel ? { bump: "none" as const, changes: [] } : diffModels(previous.model, model, { from: `${specPath} (previous)`, to: specPath });
  const extra = runtime?.changes ?? [];
  const diff: DiffReport = extra.length === 0 ? modelDiff : { changes: [...modelDiff.changes, ...extra], bump: bumpOf([...modelDiff.changes, ...extra].map((c) => c.severity)) };
  const start = semver.gt(base, prev.version) ? base : prev.version;
  // While the major is 0 a breaking change bumps the minor (D22): 0.1.0 → 0.2.0, which `^0.1.0` does not take.
  const bump = diff.bump === "major" && semver.major(start) === 0 && breakingWhileZero === "minor" ? "minor" : diff.bump;
  const version = bumpVersion(start, bump);
  const present = new Set(model.methods.map((m) => `${m.version}:${m.name}`));
  const removedNow = (v: "legacy" | "v3") => diff.changes.filter((c) => c.code === "method-removed" && c.version === v && c.method).map((c) => c.method as string);
  const kept = (v: "legacy" | "v3") => prev.removedHandlers[v].filter((n) => !present.has(`${v}:${n}`));
  // A major version drops what the previous major kept; anything else keeps the list (minus methods that came back).
  const removedHandlers = diff.bump === "major" ? { legacy: removedNow("legacy"), v3: removedNow("v3") } : { legacy: kept("legacy"), v3: kept("v3") };
  // The runtime's exports as last recorded, until this generation's are read (generate.ts).
  const runtimeApi = runtime?.api ?? prev.runtimeApi;
  return { version, diff, previousVersion: prev.version, generation: { version, removedHandlers, ...(runtimeApi ? { runtimeApi } : {}) } };
}
