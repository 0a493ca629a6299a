import type { Method, Model, Resource, TypeRef } from "../model/view.js";
import { ordinal } from "./names.js";
import { areaKey } from "../model/areas.js";
import { reach } from "../util/reach.js";

/**
 * The area split of the types and client packages (D14, issue 16): one subpath entry per area, so that a consumer
 * of one area type-checks the declarations of that area and the shared ones, not those of every method. An area is
 * the first segment of a method's name, the root of the client's namespace tree (`tasks` for `tasks.task.get` and
 * for the 3.0 `tasks.task.add`): a reader of the platform's documentation gives the same key for the same method,
 * so a second input lands in the same entries.
 */

export interface Area {
  /** The subpath and file name: `collab-platform-api-client/tasks`, `types/areas/tasks.d.ts`. */
  key: string;
  /** The key as an identifier part (`sonet_group`, `x_y` for `x-y`). */
  ident: string;
  legacy: Method[];
  v3: Method[];
  /** Resources that only this area's methods use (directly or through other resources). */
  resources: Resource[];
}

export { areaKey };

/** The resources a type names, directly (`ref`, `extends`). */
function refsOf(t: TypeRef, out: Set<string>): void {
  switch (t.kind) {
    case "ref":
      out.add(t.resource);
      return;
    case "object":
      if (t.extends) out.add(t.extends);
      for (const f of t.members) refsOf(f.type, out);
      if (t.additional) refsOf(t.additional, out);
      return;
    case "array":
      refsOf(t.items, out);
      return;
    case "union":
      for (const o of t.options) refsOf(o, out);
      return;
    default:
      return;
  }
}

/** The resources a method's types reach, through the resources they name. */
function reachedResources(m: Method, byName: Map<string, Resource>): Set<string> {
  const direct = new Set<string>();
  for (const p of m.params) refsOf(p.type, direct);
  if (m.result) refsOf(m.result.type, direct);
  return reach(direct, (name) => {
    const next = new Set<string>();
    const r = byName.get(name);
    if (r) refsOf(r.type, next);
    return next;
  });
}

/**
 * The areas of the typed methods (`typed` gives them per version), in key order, and the resources shared by several
 * areas or by none, which the common declarations hold. A resource that one area alone reaches lives in that area,
 * with everything it names: whatever it names is reached by the same area only or by more (then it is common).
 */
export function splitAreas(model: Model, typed: { legacy: Method[]; v3: Method[] }): { areas: Area[]; common: Resource[] } {
  const byName = new Map(model.resources.map((r) => [r.name, r]));
  const areas = new Map<string, Area>();
  const usedBy = new Map<string, Set<string>>();
  for (const version of ["legacy", "v3"] as const) {
    for (const m of typed[version]) {
      const key = areaKey(m.name);
      let area = areas.get(key);
      if (!area) {
        area = { key, ident: "", legacy: [], v3: [], resources: [] };
        areas.set(key, area);
      }
      area[version].push(m);
      for (const r of reachedResources(m, byName)) {
        const set = usedBy.get(r) ?? new Set<string>();
        set.add(key);
        usedBy.set(r, set);
      }
    }
  }
  // A resource shared by several areas, or by none, is common, and so is everything a common resource names: the
  // common declarations never name an area's.
  const isCommon = new Set(model.resources.filter((r) => (usedBy.get(r.name)?.size ?? 0) !== 1).map((r) => r.name));
  const queue = [...isCommon];
  while (queue.length > 0) {
    const r = byName.get(queue.pop() as string);
    if (!r) continue;
    const named = new Set<string>();
    refsOf(r.type, named);
    for (const n of named) if (!isCommon.has(n)) (isCommon.add(n), queue.push(n));
  }
  const common: Resource[] = [];
  for (const r of model.resources) {
    if (isCommon.has(r.name)) common.push(r);
    else areas.get([...(usedBy.get(r.name) ?? [])][0] as string)?.resources.push(r);
  }
  const sorted = [...areas.values()].sort((a, b) => ordinal(a.key, b.key));
  // Identifiers for the main entry's imports (`Legacy_x_y`): keys that differ only by `-` and `_` get a suffix.
  const taken = new Set<string>();
  for (const a of sorted) {
    const base = a.key.replace(/[^A-Za-z0-9_]/g, "_");
    let ident = base;
    for (let i = 2; taken.has(ident); i++) ident = `${base}_${i}`;
    taken.add(ident);
    a.ident = ident;
  }
  return { areas: sorted, common };
}

/** The names a TypeScript text declares with `export interface` / `export type`. */
export function declaredNames(text: string): string[] {
  return [...text.matchAll(/^export (?:interface|type) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1] as string);
}

/**
 * The names of `candidates` that a declarations text uses outside its comments and string literals: what an area's
 * file imports from the common one. Read from the printed text because the declarations are printed by several
 * emitters; a name a comment or a literal mentions is not a use.
 */
export function usedNames(text: string, candidates: ReadonlySet<string>): string[] {
  // One pass, so that a `//` inside a literal is not read as a comment, nor a quote inside a comment as a literal.
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, " ");
  const used = new Set<string>();
  for (const m of code.matchAll(/[A-Za-z_$][\w$]*/g)) if (candidates.has(m[0])) used.add(m[0]);
  return [...used].sort(ordinal);
}
