import type { MethodInfo, RuntimeType } from "../shared/data.js";

/**
 * Parameter validation against the generated method data: types, required members, enums, "at least one of" and
 * call forms. Returns the first problem, named by its path (`fields.title`, `users[2]`), or null.
 */

export interface Problem {
  /** The parameter's path (`fields.title`), or the names of an "at least one of" set joined by ", ". */
  argument: string;
  /**
   * `type`: a value of another type (for a URL, no URL at all); `value`: a value outside the allowed ones (for a URL,
   * a scheme not among its schemes); `none-of`: none of an "at least one of" set given.
   */
  reason: "missing" | "type" | "value" | "none-of";
}

const given = (v: unknown) => v !== undefined && v !== "";

/**
 * What each type answered for a value already, within one check (typeOk's unions), by the depth it was asked at: the
 * depth limit makes an answer depend on it, and an answer taken near the limit held elsewhere (review).
 */
type Answers = Kept<boolean>;

/** What was found for a list or an object, by the depth it was asked at and the type asked of it. */
type Kept<T> = WeakMap<object, Map<number, Map<RuntimeType, T>>>;

/** The answers kept for `v` at `depth`, made when there are none yet. */
function keptAt<T>(kept: Kept<T>, v: object, depth: number): Map<RuntimeType, T> {
  let byDepth = kept.get(v);
  if (!byDepth) kept.set(v, (byDepth = new Map()));
  let answers = byDepth.get(depth);
  if (!answers) byDepth.set(depth, (answers = new Map()));
  return answers;
}

/** The first value that does not fit `t`, by its path, or null. */
export function typeOk(t: RuntimeType | undefined, v: unknown, path: string, shapes: Record<string, RuntimeType>, depth = 0): Problem | null {
  return check(t, v, path, shapes, depth);
}

/** typeOk, with what each union's options answered for a value so far in this check. */
function check(t: RuntimeType | undefined, v: unknown, path: string, shapes: Record<string, RuntimeType>, depth: number, memo?: Answers): Problem | null {
  if (!t || depth > 64) return null;
  const bad: Problem = { argument: path, reason: "type" };
  if (v === null) return t.nullable || t.kind === "unknown" ? null : bad;
  switch (t.kind) {
    case "unknown":
      return null;
    case "integer":
      if (typeof v !== "number" || !Number.isInteger(v)) return bad;
      break;
    case "number":
      if (typeof v !== "number" || !Number.isFinite(v)) return bad;
      break;
    case "string":
      if (typeof v !== "string") return bad;
      break;
    case "boolean":
      if (typeof v !== "boolean") return bad;
      break;
    case "array": {
      if (!Array.isArray(v)) return bad;
      for (let i = 0; i < v.length; i++) {
        const inner = check(t.items, v[i], `${path}[${i}]`, shapes, depth + 1, memo);
        if (inner) return inner;
      }
      return null;
    }
    case "object": {
      if (typeof v !== "object" || Array.isArray(v)) return bad;
      const record = v as Record<string, unknown>;
      for (const m of t.members) {
        if (!Object.hasOwn(record, m.name) || record[m.name] === undefined) {
          if (m.required) return { argument: `${path}.${m.name}`, reason: "missing" };
          continue;
        }
        const inner = check(m.type, record[m.name], `${path}.${m.name}`, shapes, depth + 1, memo);
        if (inner) return inner;
      }
      if (t.additional) {
        const known = new Set(t.members.map((m) => m.name));
        for (const [k, x] of Object.entries(record)) {
          if (known.has(k)) continue;
          const inner = check(t.additional, x, `${path}.${k}`, shapes, depth + 1, memo);
          if (inner) return inner;
        }
      }
      return null;
    }
    case "union": {
      if (typeof v !== "object") return t.options.some((o) => check(o, v, path, shapes, depth + 1, memo) === null) ? null : bad;
      // Each option's answer for a list or an object, kept for this check: two options that look into the same value
      // (a recursive `T = T[] | U[]`) asked the same questions again at every level, in time exponential in its depth.
      const kept = (memo ??= new WeakMap());
      const answers = keptAt(kept, v as object, depth + 1);
      for (const o of t.options) {
        let fits = answers.get(o);
        if (fits === undefined) answers.set(o, (fits = check(o, v, path, shapes, depth + 1, kept) === null));
        if (fits) return null;
      }
      return bad;
    }
    case "ref":
      return Object.hasOwn(shapes, t.name) ? check(shapes[t.name], v, path, shapes, depth + 1, memo) : null;
  }
  if (t.enum && !t.enum.includes(v as string | number | boolean)) return { argument: path, reason: "value" };
  return null;
}

/** The first problem of a request's parameters, or null. */
export function validate(info: MethodInfo, params: Record<string, unknown>, shapes: Record<string, RuntimeType>): Problem | null {
  for (const p of info.params) {
    const v = Object.hasOwn(params, p.name) ? params[p.name] : undefined;
    if (!given(v)) {
      if (p.required) return { argument: p.name, reason: "missing" };
      continue;
    }
    const bad = typeOk(p.type, v, p.name, shapes);
    if (bad) return bad;
    // A URL: no URL at all is the wrong type, one of a scheme the spec does not allow a value not allowed; not where
    // the parameter is ignored ("ignored for `event_type=offline`").
    if (p.schemes && typeof v === "string" && !ignored(info, p.name, params)) {
      let scheme: string;
      try {
        scheme = new URL(v).protocol.slice(0, -1);
      } catch {
        return { argument: p.name, reason: "type" };
      }
      if (!p.schemes.includes(scheme)) return { argument: p.name, reason: "value" };
    }
  }
  const has = (n: string) => Object.hasOwn(params, n) && given(params[n]);
  for (const group of info.atLeastOne) {
    if (!group.some(has)) return { argument: group.join(", "), reason: "none-of" };
  }
  // The spec does not make its call forms exclude each other: a request that completes one form is taken.
  if (info.callForms.length > 0 && !info.callForms.some((form) => form.every(has))) {
    return { argument: info.callForms.map((f) => f.join("+")).join(" | "), reason: "missing" };
  }
  for (const r of info.requiredUnless ?? []) {
    if (!has(r.param) && !unlessHolds(r, params)) return { argument: r.param, reason: "missing" };
  }
  return null;
}

type RequiredUnless = NonNullable<MethodInfo["requiredUnless"]>[number];

/** Whether the request gives the other parameter the value that makes `r.param` not required (and ignored). */
function unlessHolds(r: RequiredUnless, params: Record<string, unknown>): boolean {
  // Only a text, a number or a boolean can hold the value; `String()` of an object may throw (`{"toString": 1}`).
  const value = params[r.unless.param];
  return (typeof value === "string" || typeof value === "number" || typeof value === "boolean") && String(value) === r.unless.value;
}

/** Whether the parameter is ignored by this request: required unless another parameter has a value, which it has. */
function ignored(info: MethodInfo, name: string, params: Record<string, unknown>): boolean {
  return (info.requiredUnless ?? []).some((r) => r.param === name && unlessHolds(r, params));
}

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** A member name that would reach an object's prototype if a handler merged the parameters; null when none. */
export function forbiddenKey(value: unknown, depth = 0): string | null {
  if (depth > 64) return "(nesting)";
  if (Array.isArray(value)) {
    for (const v of value) {
      const k = forbiddenKey(v, depth + 1);
      if (k) return k;
    }
  } else if (value && typeof value === "object") {
    for (const k of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(k)) return k;
      const inner = forbiddenKey((value as Record<string, unknown>)[k], depth + 1);
      if (inner) return inner;
    }
  }
  return null;
}

/**
 * Parameters from a query string (a legacy batch command) are strings: each is turned into its declared type where
 * it reads as one (`5` → 5, `1`/`true` → true), as the platform reads form parameters; anything else stays as given,
 * and validation then names it.
 */
export function coerceFromQuery(info: MethodInfo, params: Record<string, unknown>, shapes: Record<string, RuntimeType>): Record<string, unknown> {
  let out = params;
  for (const p of info.params) {
    if (!Object.hasOwn(params, p.name)) continue;
    const value = coerce(p.type, params[p.name], shapes, 0);
    if (value === params[p.name]) continue;
    // Copied on the first change only: a call whose values are already typed allocates nothing here.
    if (out === params) out = { ...params };
    out[p.name] = value;
  }
  return out;
}

/** The list parameters whose case the platform's documentation and SDKs write differently from the spec. */
const EITHER_CASE = new Set(["select", "filter", "order"]);

/**
 * A legacy request's parameters as the platform reads them: `select`, `filter` and `order` in either case, under the
 * name the method declares (the documentation writes them in lower case where the spec writes `SELECT`, `FILTER`,
 * `ORDER`), and strings turned into their declared type where they read as one, since a form body carries only
 * strings and JSON callers send them too (`{"taskId": "5"}`).
 */
export function legacyParams(info: MethodInfo, params: Record<string, unknown>, shapes: Record<string, RuntimeType>): Record<string, unknown> {
  // Most calls have nothing to rename or read: the parameters go on as they came, without a copy.
  if (info.params.length === 0) return params;
  let named = params;
  for (const p of info.params) {
    const lower = p.name.toLowerCase();
    if (!EITHER_CASE.has(lower) || Object.hasOwn(params, p.name)) continue;
    const other = p.name === lower ? p.name.toUpperCase() : lower;
    if (!Object.hasOwn(params, other)) continue;
    if (named === params) named = { ...params };
    named[p.name] = named[other];
    delete named[other];
  }
  return coerceFromQuery(info, named, shapes);
}

/** What each union read a list or an object as, within one reading (coerce's unions), by the depth it was read at. */
type Readings = Kept<unknown>;

function coerce(t: RuntimeType | undefined, v: unknown, shapes: Record<string, RuntimeType>, depth: number, memo?: Readings): unknown {
  if (!t || depth > 64) return v;
  // A union: a value one option takes as it is stays so (`"Y"` of `"Y" | "N" | boolean`); else the first option that
  // takes it once read as that option reads it (`"5"`, a form's only kind of value, as `integer | integer[]`'s
  // integer; an action whose `type` tells which of the layout's cases it is). What a union read a list or an object
  // as is kept for the reading: options that recurse into the same value (`T = T[] | map<T>`) read it again at every
  // level, in time exponential in its depth (review).
  if (t.kind === "union") {
    if (typeOk(t, v, "", shapes, depth) === null) return v;
    const container = v !== null && typeof v === "object";
    const kept = container ? (memo ??= new WeakMap()) : undefined;
    const readings = kept ? keptAt(kept, v as object, depth) : undefined;
    if (readings?.has(t)) return readings.get(t);
    let out = v;
    for (const o of t.options) {
      const read = coerce(o, v, shapes, depth + 1, kept);
      if (read !== v && typeOk(o, read, "", shapes, depth + 1) === null) {
        out = read;
        break;
      }
    }
    readings?.set(t, out);
    return out;
  }
  if (typeof v === "string") {
    if ((t.kind === "integer" && /^-?\d+$/.test(v)) || (t.kind === "number" && v.trim() !== "" && Number.isFinite(Number(v)))) return Number(v);
    if (t.kind === "boolean" && /^(1|0|true|false|Y|N)$/.test(v)) return v === "1" || v === "true" || v === "Y";
    return v;
  }
  // A PHP array with numeric keys (`users[0]=1`, `{"0": 1}`) is the list it stands for; other keys stay an object.
  if (t.kind === "array" && Array.isArray(v)) return v.map((x) => coerce(t.items, x, shapes, depth + 1, memo));
  if (t.kind === "array" && v && typeof v === "object" && Object.keys(v).every((k) => /^\d+$/.test(k))) {
    return Object.values(v).map((x) => coerce(t.items, x, shapes, depth + 1, memo));
  }
  // A map (an object of no named members, its values of one type) given as a list is the same PHP array keyed by
  // position: `tags[0][title]=…` of a form, or `[…]` in JSON, where `tags[t0][title]=…` was taken.
  if (t.kind === "object" && t.additional && t.members.length === 0 && Array.isArray(v)) {
    const additional = t.additional;
    return Object.fromEntries(v.map((x, i) => [String(i), coerce(additional, x, shapes, depth + 1, memo)]));
  }
  if (t.kind === "object" && v && typeof v === "object" && !Array.isArray(v)) {
    const record = { ...(v as Record<string, unknown>) };
    for (const m of t.members) if (Object.hasOwn(record, m.name)) record[m.name] = coerce(m.type, record[m.name], shapes, depth + 1, memo);
    if (t.additional) {
      // The map's own values (`layout[header][tags][t1][hideIfReadonly]=1`), as a member's are read.
      const known = new Set(t.members.map((m) => m.name));
      for (const k of Object.keys(record)) if (!known.has(k)) record[k] = coerce(t.additional, record[k], shapes, depth + 1, memo);
    }
    return record;
  }
  if (t.kind === "ref" && Object.hasOwn(shapes, t.name)) return coerce(shapes[t.name], v, shapes, depth + 1, memo);
  return v;
}
