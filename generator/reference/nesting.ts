import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";
import type { Field, TypeRef } from "../model/types.js";

/**
 * A table's dotted rows nested under the rows they name (`data`, `data.FIELDS`; `result.events[].eventId`), for the
 * returned data and the events' payloads (reference/returned.ts, reference/events.ts).
 */

/**
 * `data` and `data.FIELDS` as one field `data` whose member is `FIELDS` (an event's payload, a result's rows
 * `result.events[].eventId`); a dotted row with no parent row is a warning.
 */
/**
 * Whether a row's name is a path (`data.FIELDS`): the dots of a trailing "and so on" (`UF_...`, a form of keys,
 * reference/keys.ts) are no separator.
 */
export function isDotted(name: string): boolean {
  return name.replace(/\.\.\.$/, "").includes(".");
}

/** The index of the dot that ends a row's parent path, or -1 (the dots of a trailing `...` are the name's). */
function lastDot(path: string): number {
  return path.replace(/\.\.\.$/, "").lastIndexOf(".");
}

/**
 * The most names a row's path joins (`a.b.c` joins three). The reference's deepest rows join three; a path of
 * thousands (`a.a.a…`, 16 KB) recursed once a name and overflowed the stack, and each level sliced the path again.
 */
const MAX_PATH_NAMES = 32;

export function nest(rows: Field[], diagnostics: Diagnostic[]): Field[] {
  const top: Field[] = [];
  const byPath = new Map<string, Field>();
  // A row's parent: a row of the table, or a member a row's linked table gave (`data.FIELDS` when `data` links to
  // it): the longest leading path a row names, then down the members by the names after it.
  const lookup = (path: string): Field | undefined => {
    const direct = byPath.get(path);
    if (direct) return direct;
    const names: string[] = [];
    let rest = path;
    let found: Field | undefined;
    for (let dot = lastDot(rest); dot >= 0 && !found; dot = lastDot(rest)) {
      names.push(rest.slice(dot + 1));
      rest = rest.slice(0, dot);
      found = byPath.get(rest);
    }
    for (let i = names.length - 1; i >= 0 && found; i--) found = objectIn(found)?.members.find((m) => m.name === names[i]);
    return found;
  };
  for (const f of rows) {
    const path = f.name.replace(/\[\]/g, "");
    if (path.replace(/\.\.\.$/, "").split(".", MAX_PATH_NAMES + 1).length > MAX_PATH_NAMES) {
      diagnostics.push(diagnostic("unplaced", { ...f.source, endLine: f.source.line, endColumn: f.source.column + 1 }, { what: `the row '${f.name.slice(0, 80)}…': its path joins more than ${MAX_PATH_NAMES} names` }));
      continue;
    }
    const dot = lastDot(path);
    if (dot < 0) {
      top.push(f);
      byPath.set(path, f);
      continue;
    }
    const parent = lookup(path.slice(0, dot));
    const member = { ...f, name: path.slice(dot + 1) };
    const object = parent ? objectIn(parent) : null;
    if (!object) {
      diagnostics.push(diagnostic("unplaced", { ...f.source, endLine: f.source.line, endColumn: f.source.column + 1 }, { what: `the row '${f.name}': no row of the table is the object it extends` }));
      continue;
    }
    // A member the parent has already (from its linked table) is the one deeper rows extend.
    const existing = object.members.find((m) => m.name === member.name);
    if (!existing) object.members.push(member);
    byPath.set(path, existing ?? member);
  }
  return top;
}

/** The object a field holds (or holds items of), made an object when the page typed it as a bare one. */
function objectIn(f: Field): Extract<TypeRef, { kind: "object" }> | null {
  if (f.type.kind === "object") return f.type;
  if (f.type.kind === "array" && f.type.items.kind === "object") return f.type.items;
  if (f.type.kind === "array" && f.type.items.kind === "unknown") {
    f.type = { kind: "array", items: { kind: "object", members: [] } };
    return f.type.items as Extract<TypeRef, { kind: "object" }>;
  }
  return null;
}
