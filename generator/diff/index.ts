import type { Field, Method, Model, Resource, Source, Statement, TypeRef } from "../model/types.js";
import { redactSecrets } from "../util/redact.js";
import { type Audience, type Bump, CHANGE_RULES, type ChangeCode, type Severity, bumpOf, maxSeverity } from "./rules.js";
import { unresolvedLeft } from "../model/map-type.js";

/**
 * The diff stage: two models in, every change between them out, each with a stable code, a severity per audience
 * (diff/rules.ts) and its position in both specs. It compares models, never texts: moving a section or reflowing a
 * paragraph changes positions only, and positions are not compared. Pure, like the rest of the core.
 *
 * Every member of `Method` is compared by one entry of `METHOD_MEMBERS` below (the table is typed over `keyof
 * Method`, so a member added to the model does not compile until the diff says what its change means).
 */

export interface Position {
  file: string;
  line: number;
  column: number;
}

export interface Change {
  code: ChangeCode;
  /** The highest of `audiences`. */
  severity: Severity;
  audiences: Partial<Record<Audience, Severity>>;
  /** The method's name, null for a change outside methods. */
  method: string | null;
  /** `legacy` or `v3` for a method's change, else null. */
  version: "legacy" | "v3" | null;
  resource: string | null;
  message: string;
  /** Where the thing is in the old spec; null for an addition. */
  from: Position | null;
  /** Where the thing is in the new spec; null for a removal. */
  to: Position | null;
  /**
   * Where the change shows in the new spec: `to`, or for a removal the place that held it (the method of a removed
   * parameter, the section of a removed method). The github format annotates this line.
   */
  at: Position;
}

export interface DiffReport {
  bump: Bump;
  changes: Change[];
}

export interface DiffFiles {
  /** The old spec as positions name it (`spec.md`, `HEAD~1:spec.md`). */
  from: string;
  to: string;
}

interface Where {
  method?: Method;
  resource?: string;
  from: Source | null;
  to: Source | null;
  /** The new spec's position to annotate when `to` is null. */
  near?: Source | null;
}

class Collector {
  readonly changes: Change[] = [];
  /** What was said, to say it once: a code a side lists with several texts, each paired with nothing, said one line each. */
  private readonly said = new Set<string>();
  constructor(
    private readonly files: DiffFiles,
    private readonly fallback: Source,
    /** Each side's input as its model names it: a position in another file (a page of a folder) keeps its own. */
    private readonly inputs: { from: string; to: string } = { from: "", to: "" },
  ) {}

  add(code: ChangeCode, message: string, where: Where): void {
    const rule = CHANGE_RULES[code];
    const audiences: Partial<Record<Audience, Severity>> = {};
    if (rule.client) audiences.client = rule.client;
    if (rule.server) audiences.server = rule.server;
    const severity = maxSeverity(rule.client, rule.server) ?? "patch";
    const pos = (s: Source | null, file: string, input: string): Position | null => (s ? { file: s.file === input || !input ? file : s.file, line: s.line, column: s.column } : null);
    const to = pos(where.to, this.files.to, this.inputs.to);
    const from = pos(where.from, this.files.from, this.inputs.from);
    const key = JSON.stringify([code, message, from, to]);
    if (this.said.has(key)) return;
    this.said.add(key);
    this.changes.push({
      code,
      severity,
      audiences,
      method: where.method?.name ?? null,
      version: where.method?.version ?? null,
      resource: where.resource ?? null,
      message,
      from,
      to,
      at: to ?? pos(where.near ?? this.fallback, this.files.to, this.inputs.to) ?? { file: this.files.to, line: 1, column: 1 },
    });
  }
}

/** A method as messages name it: `tasks.task.get`, or `tasks.task.get (3.0)`. */
export function methodLabel(m: { name: string; version: string }): string {
  return `\`${m.name}\`${m.version === "v3" ? " (3.0)" : ""}`;
}

const methodKey = (m: Method) => `${m.version}:${m.name}`;

/** The members that are positions only (`source`, and where a fact of the node was read: model/types.ts). */
const POSITIONS = new Set(["source", "typeSource", "scopesSource"]);

/** JSON of a value without positions and prose: what two readings of a type or rule agree on. */
function canon(value: unknown): string {
  return JSON.stringify(value, (key, v) => (POSITIONS.has(key) || key === "description" || key === "text" || key === "note" || key === "keyDescription" ? undefined : v));
}

export function diffModels(old: Model, next: Model, files: DiffFiles): DiffReport {
  const top = next.sections[0]?.source ?? { file: next.specFile, line: 1, column: 1 };
  const out = new Collector(files, top, { from: old.specFile, to: next.specFile });
  if (old.title !== next.title) out.add("title-changed", `the title is now "${next.title}" (was "${old.title}")`, { from: old.sections[0]?.source ?? null, to: top });
  diffGlobal(old, next, out);
  diffResources(old, next, out);
  diffMethods(old, next, out);
  diffStatements(out, statementsOf(old), statementsOf(next), {});
  diffGaps(old, next, out);
  diffEvents(old, next, out);
  diffPlacements(old, next, out);
  diffScopeList(old, next, out);
  return { bump: bumpOf(out.changes.map((c) => c.severity)), changes: out.changes };
}

/**
 * The events a model types (the reference's event pages, `eventPayloads`): an event added or gone, and what its
 * handler receives, member by member at any depth (`data.FIELDS.ID`): a member added, gone or of another type.
 * A handler implements them, so they concern the server's audience (diff/rules.ts).
 */
function diffEvents(old: Model, next: Model, out: Collector): void {
  const byCode = (m: Model) => new Map((m.eventPayloads ?? []).map((e) => [e.code, { label: e.name === e.code ? `\`${e.code}\`` : `\`${e.name}\` (\`${e.code}\`)`, fields: e.fields, source: e.source }]));
  diffPayloads(EVENT_PAYLOADS, byCode(old), byCode(next), out);
}

/** The widgets' placements (`placements`): a code described or gone, and what its `PLACEMENT_OPTIONS` holds. */
function diffPlacements(old: Model, next: Model, out: Collector): void {
  const byCode = (m: Model) => new Map((m.placements ?? []).flatMap((p) => p.codes.map((c) => [c, { label: `\`${c}\``, fields: p.options, source: p.source }] as const)));
  diffPayloads(PLACEMENT_OPTIONS, byCode(old), byCode(next), out);
}

/** What a payload diff says of one kind of payload keyed by a code (an event's, a placement's options). */
interface PayloadKind {
  added: ChangeCode;
  removed: ChangeCode;
  memberAdded: ChangeCode;
  changed: ChangeCode;
  /** `event \`X\``, `placement \`X\``. */
  noun: string;
  /** "what a handler of event `X` receives", "what `PLACEMENT_OPTIONS` of placement `X` holds". */
  holder: (label: string) => string;
}
const EVENT_PAYLOADS: PayloadKind = { added: "event-added", removed: "event-removed", memberAdded: "event-payload-member-added", changed: "event-payload-changed", noun: "event", holder: (l) => `what a handler of event ${l} receives` };
const PLACEMENT_OPTIONS: PayloadKind = { added: "placement-added", removed: "placement-removed", memberAdded: "placement-option-added", changed: "placement-options-changed", noun: "placement", holder: (l) => `what \`PLACEMENT_OPTIONS\` of placement ${l} holds` };

type Payload = { label: string; fields: readonly Field[]; source: Source };

/** Payloads keyed by code, compared member by member at any depth (payloadMembers). */
function diffPayloads(kind: PayloadKind, before: ReadonlyMap<string, Payload>, after: ReadonlyMap<string, Payload>, out: Collector): void {
  for (const [code, e] of after) {
    const was = before.get(code);
    if (!was) {
      out.add(kind.added, `${kind.noun} ${e.label} is new`, { from: null, to: e.source });
      continue;
    }
    const holder = kind.holder(e.label);
    const a = payloadMembers(was.fields);
    const b = payloadMembers(e.fields);
    for (const [path, m] of b) {
      const o = a.get(path);
      if (!o) out.add(kind.memberAdded, `${holder} has a new member \`${path}\``, { from: null, to: m.source });
      else if (o.shape === m.shape) continue;
      else if (o.type.kind === m.type.kind && o.shape === `${m.shape.replace(/\|null$/, "")}${o.nullable ? "|null" : ""}`) {
        // Only whether it may be null: a handler must now handle null (breaking), or need no longer (wording).
        const what = `the member \`${path}\` of ${holder} ${m.nullable ? "may now be null" : "may no longer be null"}`;
        out.add(m.nullable ? kind.changed : "description-changed", what, { from: o.source, to: m.source });
      } else out.add(kind.changed, `the member \`${path}\` of ${holder} ${nowWas(o.type, m.type)}${o.nullable !== m.nullable ? (m.nullable ? ", and may be null" : ", and is no longer null") : ""}`, { from: o.source, to: m.source });
    }
    for (const [path, o] of a) if (!b.has(path)) out.add(kind.changed, `${holder} no longer has \`${path}\``, { from: o.source, to: null, near: e.source });
  }
  for (const [code, e] of before) if (!after.has(code)) out.add(kind.removed, `${kind.noun} ${e.label} is no longer described`, { from: e.source, to: null });
}

/** The platform's list of scopes (`scopeList`): a scope listed, unlisted, or marked deprecated. */
function diffScopeList(old: Model, next: Model, out: Collector): void {
  const before = new Map((old.scopeList ?? []).map((s) => [s.code, s]));
  const after = new Map((next.scopeList ?? []).map((s) => [s.code, s]));
  for (const [code, s] of after) {
    const was = before.get(code);
    if (!was) out.add("scope-listed", `the list of scopes has \`${code}\``, { from: null, to: s.source });
    else if (Boolean(was.deprecated) !== Boolean(s.deprecated)) out.add("description-changed", `scope \`${code}\` is ${s.deprecated ? "now" : "no longer"} deprecated in the list of scopes`, { from: was.source, to: s.source });
    else if (was.description !== s.description || was.tool !== s.tool) out.add("description-changed", `the list's words for scope \`${code}\` changed`, { from: was.source, to: s.source });
  }
  for (const [code, s] of before) if (!after.has(code)) out.add("scope-unlisted", `the list of scopes no longer has \`${code}\``, { from: s.source, to: null });
}

/**
 * A payload's members by path (`data`, `data.FIELDS`, `data.FIELDS.ID`; `items[].id` inside a list), each with its
 * shape: its type without the members of an object it holds (compared at their own paths) and whether it may be null.
 */
function payloadMembers(fields: readonly Field[], prefix = "", into = new Map<string, { type: TypeRef; nullable: boolean; shape: string; source: Source }>()): Map<string, { type: TypeRef; nullable: boolean; shape: string; source: Source }> {
  for (const f of fields) {
    const path = prefix ? `${prefix}.${f.name}` : f.name;
    const held = f.type.kind === "object" ? f.type : f.type.kind === "array" && f.type.items.kind === "object" ? f.type.items : null;
    const outline: TypeRef = held ? (f.type.kind === "array" ? { kind: "array", items: { ...held, members: [] } } : { ...held, members: [] }) : f.type;
    into.set(path, { type: f.type, nullable: f.nullable, shape: `${canon(outline)}${f.nullable ? "|null" : ""}`, source: f.source });
    if (held) payloadMembers(held.members, f.type.kind === "array" ? `${path}[]` : path, into);
  }
  return into;
}

/**
 * `compare` (decisions.md D15): the diff engine in divergence mode, the spec against the platform's reference. Every
 * method both describe is compared member by member with `diff`'s change codes (`from` the spec, `to` the
 * reference); a method the spec describes that the reference does not is `method-removed`. The reference's other
 * methods are no divergence (the spec is a summary of it): they are counted, not listed. Wording and headings are
 * not compared (PROSE_ONLY). No bump: two inputs that disagree are not versions of one another.
 */
export interface CompareReport {
  changes: Change[];
  /** Methods both describe, the spec's alone, and the reference's alone (by version and name). */
  methods: { both: number; specOnly: number; referenceOnly: number };
}

export function compareModels(spec: Model, reference: Model, files: DiffFiles): CompareReport {
  const described = (m: Model) => new Map(m.methods.filter((x) => x.described).map((x) => [methodKey(x), x] as [string, Method]));
  const s = described(spec);
  const r = described(reference);
  const top = reference.sections[0]?.source ?? { file: reference.specFile, line: 1, column: 1 };
  const out = new Collector(files, top, { from: spec.specFile, to: reference.specFile });
  let both = 0;
  for (const [k, m] of s) {
    const other = r.get(k);
    if (!other) {
      out.add("method-removed", `${methodLabel(m)} is described in the spec, not in the reference`, { method: m, from: m.source, to: null });
      continue;
    }
    both++;
    diffMethod(m, other, out);
  }
  // A scope the spec names that the reference's list of scopes lacks (`sonet` where the list has `sonet_group`).
  const list = reference.scopeList ?? [];
  const listed = new Set(list.map((e) => e.code));
  if (list.length > 0) {
    for (const m of s.values()) {
      for (const x of m.scopes ?? []) {
        if (!listed.has(x)) out.add("scope-changed", `${methodLabel(m)} needs scope \`${x}\` in the spec, which the reference's list of scopes does not have`, { method: m, from: m.source, to: list[0]?.source ?? null });
      }
    }
  }
  // Two authors word a method differently and file it under their own headings: prose and sections are no
  // divergence of the API (the issue's list: methods, parameters, required flags, types, scopes, errors, results).
  const changes = out.changes.filter((c) => !PROSE_ONLY.has(c.code));
  return { changes, methods: { both, specOnly: s.size - both, referenceOnly: r.size - both } };
}

const PROSE_ONLY: ReadonlySet<ChangeCode> = new Set(["description-changed", "note-changed", "described-in-other-area"]);

/**
 * Items keyed for pairing: the key, and for a key that comes again (a field listed twice, a method described twice)
 * the key with its occurrence (`name#2`). The nth of a name pairs with the nth of the same name on the other side;
 * keyed by name alone, a repeat paired with the other side's last of that name, so that a spec compared with itself
 * showed changes.
 */
function byOccurrence<T>(items: readonly T[], key: (item: T) => string): Map<string, T> {
  const seen = new Map<string, number>();
  const out = new Map<string, T>();
  for (const item of items) {
    const k = key(item);
    const n = (seen.get(k) ?? 0) + 1;
    seen.set(k, n);
    out.set(n === 1 ? k : `${k}#${n}`, item);
  }
  return out;
}

/**
 * Two sides keyed for pairing, where a key may come several times (a code listed with several texts): an entry that
 * is unchanged on the other side pairs with it first, whatever its place; the rest pair by occurrence. Reordering
 * the texts of one code, or adding one in front, then changes nothing or adds one.
 */
function paired<T>(before: readonly T[], after: readonly T[], key: (item: T) => string, same: (item: T) => string): [Map<string, T>, Map<string, T>] {
  const left = new Map<string, T>();
  const right = new Map<string, T>();
  const groups = new Map<string, { a: T[]; b: T[] }>();
  for (const x of before) {
    const g = groups.get(key(x)) ?? { a: [], b: [] };
    g.a.push(x);
    groups.set(key(x), g);
  }
  for (const x of after) {
    const g = groups.get(key(x)) ?? { a: [], b: [] };
    g.b.push(x);
    groups.set(key(x), g);
  }
  for (const [k, { a, b }] of groups) {
    let n = 0;
    const name = () => (n++ === 0 ? k : `${k}#${n}`);
    const restA = [...a];
    const restB: T[] = [];
    for (const y of b) {
      const i = restA.findIndex((x) => same(x) === same(y));
      if (i < 0) restB.push(y);
      else {
        const id = name();
        left.set(id, restA.splice(i, 1)[0] as T);
        right.set(id, y);
      }
    }
    for (let i = 0; i < Math.max(restA.length, restB.length); i++) {
      const id = name();
      if (restA[i] !== undefined) left.set(id, restA[i] as T);
      if (restB[i] !== undefined) right.set(id, restB[i] as T);
    }
  }
  return [left, right];
}

// ---------------------------------------------------------------------------------------------------------------
// Methods

function diffMethods(old: Model, next: Model, out: Collector): void {
  const before = byOccurrence(old.methods, methodKey);
  const after = byOccurrence(next.methods, methodKey);
  for (const [k, m] of after) {
    const o = before.get(k);
    if (!o) {
      if (m.described) out.add("method-added", `${methodLabel(m)} is new`, { method: m, from: null, to: m.source });
      else out.add("method-named-added", `${methodLabel(m)} is newly named (not described)`, { method: m, from: null, to: m.source });
      continue;
    }
    // The usual pair of an update: the same method, at most moved. No member differ reads a position (METHOD_MEMBERS),
    // so it could report nothing; skipping it is a tenth of the diff of the whole platform after one page changed.
    if (!samePositionsAside(o, m)) diffMethod(o, m, out);
  }
  for (const [k, o] of before) {
    if (after.has(k)) continue;
    const near = next.sections.find((s) => s.title === o.area)?.source ?? null;
    if (o.described) out.add("method-removed", `${methodLabel(o)} is no longer in the spec`, { method: o, from: o.source, to: null, near });
    else out.add("method-named-removed", `${methodLabel(o)} is no longer named in the spec`, { method: o, from: o.source, to: null, near });
  }
}

/**
 * Whether two values are equal, their positions (`POSITIONS`) aside, at any depth: an early-out structural walk where a
 * JSON text of each (`canon`) would build two texts of every method to compare.
 */
export function samePositionsAside(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!samePositionsAside(a[i], b[i])) return false;
    return true;
  }
  // Loops, not lists of keys: this walks every method of both models after any change (a third of a second over the
  // whole platform when it built two filtered key lists per object).
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let counted = 0;
  for (const k of Object.keys(x)) {
    if (x[k] === undefined || POSITIONS.has(k)) continue;
    counted++;
    if (!Object.hasOwn(y, k) || !samePositionsAside(x[k], y[k])) return false;
  }
  for (const k of Object.keys(y)) if (y[k] !== undefined && !POSITIONS.has(k)) counted--;
  return counted === 0;
}

type MemberDiff = (o: Method, m: Method, out: Collector, at: Where) => void;

/** What a change of each member of `Method` means; `null` for members that are identity or position only. */
const METHOD_MEMBERS: Record<keyof Method, MemberDiff | null> = {
  name: null,
  version: null,
  source: null,
  scopesSource: null,
  mentions: null,
  // Follows from the name.
  wildcard: null,
  // Compared first (diffMethod): the rest of the members only mean something for a described method.
  described: null,
  area: (o, m, out, at) => {
    if (o.area !== m.area) out.add("described-in-other-area", `${methodLabel(m)} moved from section "${o.area}" to "${m.area}"`, at);
  },
  description: (o, m, out, at) => {
    if (o.description !== m.description) out.add("description-changed", `the description of ${methodLabel(m)} changed`, at);
  },
  aliases: (o, m, out, at) => {
    for (const a of m.aliases) if (!o.aliases.includes(a)) out.add("alias-added", `${methodLabel(m)} also answers \`${a}\``, at);
    for (const a of o.aliases) if (!m.aliases.includes(a)) out.add("alias-removed", `${methodLabel(m)} no longer answers \`${a}\``, at);
  },
  scopes: (o, m, out, at) => {
    const show = (s: string[] | null) => (s ? s.map((x) => `\`${x}\``).join(", ") || "none" : "not named");
    if (canon([...(o.scopes ?? [])].sort()) !== canon([...(m.scopes ?? [])].sort()) || (o.scopes === null) !== (m.scopes === null)) {
      out.add("scope-changed", `${methodLabel(m)} needs scope ${show(m.scopes)} (was ${show(o.scopes)})`, at);
    }
  },
  scopeNote: (o, m, out, at) => {
    if (o.scopeNote !== m.scopeNote) out.add("note-changed", `the scope note of ${methodLabel(m)} changed`, at);
  },
  access: (o, m, out, at) => {
    if ((o.access?.who ?? null) !== (m.access?.who ?? null)) out.add("access-changed", `who may call ${methodLabel(m)}: ${m.access?.who ?? "not stated"} (was ${o.access?.who ?? "not stated"})`, at);
    else if ((o.access?.text ?? null) !== (m.access?.text ?? null)) out.add("description-changed", `the access sentence of ${methodLabel(m)} changed`, at);
  },
  applicationContextOnly: (o, m, out, at) => {
    if (o.applicationContextOnly !== m.applicationContextOnly) {
      out.add("app-context-changed", `${methodLabel(m)} ${m.applicationContextOnly ? "is now callable only in an application context" : "is no longer limited to an application context"}`, at);
    }
  },
  deprecated: (o, m, out, at) => {
    if (!o.deprecated && m.deprecated) {
      out.add("method-deprecated", `${methodLabel(m)} is deprecated${m.deprecated.replacement ? `; use \`${m.deprecated.replacement}\`` : ""}`, at);
    } else if (o.deprecated && (!m.deprecated || o.deprecated.replacement !== m.deprecated.replacement)) {
      out.add("method-undeprecated", m.deprecated ? `the replacement of ${methodLabel(m)} is now \`${m.deprecated.replacement ?? "not named"}\`` : `${methodLabel(m)} is no longer deprecated`, at);
    } else if (o.deprecated && m.deprecated && o.deprecated.text !== m.deprecated.text) {
      out.add("description-changed", `the deprecation note of ${methodLabel(m)} changed`, at);
    }
  },
  httpMethods: (o, m, out, at) => {
    for (const h of m.httpMethods) if (!o.httpMethods.includes(h)) out.add("http-method-added", `${methodLabel(m)} accepts ${h}`, at);
    for (const h of o.httpMethods) if (!m.httpMethods.includes(h)) out.add("http-method-removed", `${methodLabel(m)} no longer accepts ${h}`, at);
  },
  resultSubject: (o, m, out, at) => {
    // What the mock answers (the caller), not a type: a description's weight.
    if (o.resultSubject !== m.resultSubject) out.add("description-changed", `${methodLabel(m)} ${m.resultSubject ? "now returns" : "no longer returns"} the calling user`, at);
  },
  idempotencyKey: (o, m, out, at) => {
    if (o.idempotencyKey !== m.idempotencyKey) out.add("idempotency-changed", `${methodLabel(m)} ${m.idempotencyKey ? "now honours" : "no longer honours"} Idempotency-Key`, at);
  },
  params: (o, m, out) => diffFields("param", o.params, m.params, out, { method: m, parent: "", oldSource: o.source, newSource: m.source }),
  constraints: (o, m, out, at) => {
    const key = (c: Method["constraints"][number]) => canon(c);
    const before = byOccurrence(o.constraints, key);
    const after = byOccurrence(m.constraints, key);
    for (const [k, c] of after) if (!before.has(k)) out.add("constraint-added", `${methodLabel(m)} has a new rule: ${c.text}`, { ...at, from: null, to: c.source });
    for (const [k, c] of before) if (!after.has(k)) out.add("constraint-removed", `${methodLabel(m)} no longer has the rule: ${c.text}`, { ...at, from: c.source, to: null, near: m.source });
  },
  result: (o, m, out, at) => {
    const a = o.result;
    const b = m.result;
    if (!a && !b) return;
    if (!a && b) return out.add("result-added", `${methodLabel(m)} has a described result`, { ...at, from: null, to: b.source });
    if (a && !b) return out.add("result-removed", `${methodLabel(m)} no longer describes its result`, { ...at, from: a.source, to: null, near: m.source });
    if (!a || !b) return;
    const here: Where = { method: m, from: a.source, to: b.source };
    if (a.key !== b.key) out.add("result-key-changed", `the data of ${methodLabel(m)} is now at ${b.key ? `\`result.${b.key}\`` : "`result`"} (was ${a.key ? `\`result.${a.key}\`` : "`result`"})`, here);
    diffType("result", a.type, b.type, out, { ...here, path: b.key ? `result.${b.key}` : "result" });
    if (Boolean(a.mayBeEmptyArray) !== Boolean(b.mayBeEmptyArray)) {
      out.add(b.mayBeEmptyArray ? "result-field-became-optional" : "result-field-became-required", `the result of ${methodLabel(m)} ${b.mayBeEmptyArray ? "may now come as an empty array" : "no longer comes as an empty array"}`, here);
    }
    if (a.description !== b.description || canon(a.empty) !== canon(b.empty)) out.add("description-changed", `the result description of ${methodLabel(m)} changed`, here);
  },
  errors: (o, m, out, at) => {
    const key = (e: Method["errors"][number]) => e.code ?? `${e.status ?? ""}:${e.text ?? ""}`;
    const [before, after] = paired(o.errors, m.errors, key, (e) => JSON.stringify([e.code, e.status, e.statuses, e.text, e.cause, e.trigger ?? null]));
    const show = (e: Method["errors"][number]) => (e.code ? `\`${e.code}\`` : `status ${e.status ?? "unknown"}`);
    for (const [k, e] of after) {
      const was = before.get(k);
      if (!was) {
        out.add("error-added", `${methodLabel(m)} lists error ${show(e)}${e.status ? ` (${e.status})` : ""}`, { ...at, from: null, to: e.source });
        continue;
      }
      const here: Where = { method: m, from: was.source, to: e.source };
      if (was.status !== e.status || canon(was.statuses) !== canon(e.statuses)) {
        out.add("error-status-changed", `error ${show(e)} of ${methodLabel(m)} comes with status ${e.statuses.join(" or ") || e.status || "unknown"} (was ${was.statuses.join(" or ") || was.status || "unknown"})`, here);
      }
      if (was.text !== e.text) out.add("error-text-changed", `the text of error ${show(e)} of ${methodLabel(m)} changed`, here);
      else if (was.cause !== e.cause || canon(was.trigger) !== canon(e.trigger)) out.add("description-changed", `the cause of error ${show(e)} of ${methodLabel(m)} changed`, here);
    }
    for (const [k, e] of before) {
      if (!after.has(k)) out.add("error-removed", `${methodLabel(m)} no longer lists error ${show(e)}`, { ...at, from: e.source, to: null, near: m.source });
    }
  },
  errorsOpen: (o, m, out, at) => {
    if (!o.errorsOpen && m.errorsOpen) out.add("errors-opened", `the spec now leaves the errors of ${methodLabel(m)} open: ${m.errorsOpen.reason}`, { ...at, from: o.source, to: m.errorsOpen.source });
    else if (o.errorsOpen && !m.errorsOpen) out.add("errors-closed", `the errors of ${methodLabel(m)} are no longer left open`, { ...at, from: o.errorsOpen.source, to: m.source });
  },
  notes: (o, m, out, at) => diffStatements(out, o.notes, m.notes, { method: m, near: at.to }),
};

function diffMethod(o: Method, m: Method, out: Collector): void {
  const at: Where = { method: m, from: o.source, to: m.source };
  if (o.described && !m.described) {
    out.add("described-to-named", `${methodLabel(m)} is only named now: its parameters and result are no longer described`, at);
    return;
  }
  if (!o.described && m.described) {
    out.add("named-to-described", `${methodLabel(m)} is now described`, at);
    return;
  }
  for (const [member, compare] of Object.entries(METHOD_MEMBERS) as Array<[keyof Method, MemberDiff | null]>) {
    if (compare) compare(o, m, out, at);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Fields and types

type Side = "param" | "result";

interface FieldContext {
  method?: Method;
  resource?: string;
  /** The dotted path of the enclosing object (`fields`), "" at the top. */
  parent: string;
  oldSource: Source;
  newSource: Source;
}

/** A result field a reader can rely on: always there, never null, never an empty stand-in. */
function dependable(f: Field): boolean {
  return f.required && !f.optional && !f.nullable && !f.mayBeEmptyObject && !f.mayBeEmptyArray;
}

function subject(ctx: { method?: Method; resource?: string }): string {
  return ctx.method ? methodLabel(ctx.method) : `resource \`${ctx.resource ?? ""}\``;
}

function diffFields(side: Side, before: Field[], after: Field[], out: Collector, ctx: FieldContext): void {
  const old = byOccurrence(before, (f) => f.name);
  const next = byOccurrence(after, (f) => f.name);
  const name = (f: Field) => `\`${ctx.parent ? `${ctx.parent}.` : ""}${f.name}\``;
  const where = (from: Source | null, to: Source | null): Where => ({
    ...(ctx.method ? { method: ctx.method } : {}),
    ...(ctx.resource ? { resource: ctx.resource } : {}),
    from,
    to,
    near: ctx.newSource,
  });
  for (const [k, f] of next) {
    const o = old.get(k);
    if (!o) {
      if (side === "param") out.add(f.required ? "param-added-required" : "param-added", `${subject(ctx)} has a new ${f.required ? "required " : ""}parameter ${name(f)}`, where(null, f.source));
      else out.add(dependable(f) ? "result-field-added" : "result-field-added-optional", `${subject(ctx)} has a new ${dependable(f) ? "" : "optional "}field ${name(f)}`, where(null, f.source));
      continue;
    }
    diffField(side, o, f, out, { ...ctx, oldSource: o.source, newSource: f.source }, name(f));
  }
  for (const [k, o] of old) {
    if (next.has(k)) continue;
    out.add(side === "param" ? "param-removed" : "result-field-removed", `${subject(ctx)} no longer has ${side === "param" ? "parameter" : "field"} ${name(o)}`, where(o.source, null));
  }
}

function diffField(side: Side, o: Field, f: Field, out: Collector, ctx: FieldContext, label: string): void {
  const here: Where = { ...(ctx.method ? { method: ctx.method } : {}), ...(ctx.resource ? { resource: ctx.resource } : {}), from: o.source, to: f.source };
  if (side === "param") {
    if (!o.required && f.required) out.add("param-became-required", `parameter ${label} of ${subject(ctx)} is now required`, here);
    if (o.required && !f.required) out.add("param-became-optional", `parameter ${label} of ${subject(ctx)} is now optional`, here);
    if (o.nullable !== f.nullable) out.add(f.nullable ? "param-type-widened" : "param-type-narrowed", `parameter ${label} of ${subject(ctx)} ${f.nullable ? "may now be null" : "may no longer be null"}`, here);
    if (canon(o.default) !== canon(f.default) || (o.default?.text ?? null) !== (f.default?.text ?? null)) {
      out.add("param-default-changed", `the default of parameter ${label} of ${subject(ctx)} is now ${f.default ? `\`${f.default.value ?? f.default.text}\`` : "not stated"} (was ${o.default ? `\`${o.default.value ?? o.default.text}\`` : "not stated"})`, here);
    }
    if (!o.deprecated && f.deprecated) out.add("param-deprecated", `parameter ${label} of ${subject(ctx)} is deprecated`, here);
  } else {
    if (dependable(o) && !dependable(f)) out.add("result-field-became-optional", `field ${label} of ${subject(ctx)} may now be absent, null or empty`, here);
    if (!dependable(o) && dependable(f)) out.add("result-field-became-required", `field ${label} of ${subject(ctx)} is now always present`, here);
    if (!o.deprecated && f.deprecated) out.add("field-deprecated", `field ${label} of ${subject(ctx)} is deprecated`, here);
  }
  if (o.description !== f.description || canon(o.fileExtensions) !== canon(f.fileExtensions) || o.group !== f.group) {
    out.add("description-changed", `the description of ${side === "param" ? "parameter" : "field"} ${label} of ${subject(ctx)} changed`, here);
  }
  diffType(side, o.type, f.type, out, { ...here, path: label.slice(1, -1) });
}

interface TypeContext extends Where {
  /** The dotted path of the value (`fields.title`, `result.task`); "" for a resource itself. */
  path: string;
}

function diffType(side: Side, a: TypeRef, b: TypeRef, out: Collector, ctx: TypeContext): void {
  const what = ctx.path ? `${side === "param" ? "parameter" : "the type of"} \`${ctx.path}\` of ${subject(ctx)}` : `the type of ${subject(ctx)}`;
  const code = (suffix: "changed" | "widened" | "narrowed"): ChangeCode => `${side}-type-${suffix}` as ChangeCode;
  if (a.kind === "unknown" && b.kind === "unknown") return;
  if (a.kind === "unknown") return out.add(code("narrowed"), `${what} is now ${describe(b)} (was not given)`, ctx);
  if (b.kind === "unknown") return out.add(code("widened"), `${what} is no longer given (was ${describe(a)})`, ctx);
  if (a.kind !== b.kind) return out.add(code("changed"), `${what} ${nowWas(a, b)}`, ctx);
  switch (a.kind) {
    case "primitive": {
      const bb = b as typeof a;
      // An open set's values are the known ones, not the only ones (`"A" | … | (string & {})`): it takes any value,
      // as a plain string does, and its known values changing is wording, said once.
      const closed = (t: typeof a) => Boolean(t.enum) && !t.openEnum;
      const shape = (t: typeof a) => canon({ ...t, enum: closed(t) ? true : undefined, openEnum: undefined });
      if (shape(a) !== shape(bb)) return out.add(code("changed"), `${what} ${nowWas(a, bb)}`, ctx);
      if (!closed(a) && !closed(bb)) {
        const before = new Set(a.enum ?? []);
        const after = new Set(bb.enum ?? []);
        const added = [...after].filter((v) => !before.has(v)).length;
        const removed = [...before].filter((v) => !after.has(v)).length;
        if (added > 0 || removed > 0) out.add("description-changed", `${what} lists ${[added > 0 ? `${added} more known value${added === 1 ? "" : "s"}` : "", removed > 0 ? `${removed} known value${removed === 1 ? "" : "s"} fewer` : ""].filter(Boolean).join(" and ")} (any value is still taken)`, ctx);
        return;
      }
      if (a.enum && bb.enum) {
        const enumCode = (added: boolean): ChangeCode => (side === "param" ? (added ? "enum-value-added" : "enum-value-removed") : added ? "result-enum-value-added" : "result-enum-value-removed");
        for (const v of bb.enum) if (!a.enum.includes(v)) out.add(enumCode(true), `${what} has the new value \`${String(v)}\``, ctx);
        for (const v of a.enum) if (!bb.enum.includes(v)) out.add(enumCode(false), `${what} no longer has the value \`${String(v)}\``, ctx);
      }
      return;
    }
    case "object": {
      const bb = b as typeof a;
      if ((a.extends ?? null) !== (bb.extends ?? null)) out.add(code("changed"), `${what} now extends ${bb.extends ?? "nothing"} (was ${a.extends ?? "nothing"})`, ctx);
      // An open object takes members the spec does not list: gaining that is an addition for both sides (a reader may
      // find more, a caller may send more); losing it removes what code may have used.
      if (Boolean(a.open) !== Boolean(bb.open)) {
        const opened: ChangeCode = side === "param" ? "param-added" : "result-field-added-optional";
        const closed: ChangeCode = side === "param" ? "param-removed" : "result-field-removed";
        out.add(bb.open ? opened : closed, `${what} ${bb.open ? "may now hold members its table or list does not name" : "now holds only the members its table or list names"}`, ctx);
      }
      if (a.additional || bb.additional) {
        if (!a.additional || !bb.additional) out.add(code("changed"), `${what} ${bb.additional ? "is now a map" : "is no longer a map"}`, ctx);
        else diffType(side, a.additional, bb.additional, out, { ...ctx, path: `${ctx.path || "value"}[key]` });
      }
      // Both sides exist here, so both positions do.
      const oldSource = ctx.from ?? ctx.to;
      const newSource = ctx.to ?? ctx.from;
      if (!oldSource || !newSource) return;
      diffFields(side, a.members, bb.members, out, { ...(ctx.method ? { method: ctx.method } : {}), ...(ctx.resource ? { resource: ctx.resource } : {}), parent: ctx.path, oldSource, newSource });
      return;
    }
    case "array":
      return diffType(side, a.items, (b as typeof a).items, out, { ...ctx, path: `${ctx.path || "item"}[]` });
    case "ref":
      if (a.resource !== (b as typeof a).resource) out.add(code("changed"), `${what} ${nowWas(a, b)}`, ctx);
      return;
    case "union":
      if (canon(a) !== canon(b)) out.add(code("changed"), `${what} ${nowWas(a, b)}`, ctx);
      return;
    case "null":
      return;
  }
}

/** "is now X (was Y)"; when the few words of `describe` are the same for both, that the change is inside them. */
function nowWas(a: TypeRef, b: TypeRef): string {
  const was = describe(a);
  const now = describe(b);
  return was === now ? `changed inside ${now} (a member's or an option's type)` : `is now ${now} (was ${was})`;
}

/** A type in a few words, for messages. */
export function describe(t: TypeRef): string {
  switch (t.kind) {
    case "primitive": {
      // Every part a change may be in, so that "now X (was Y)" never reads "now integer (was integer)".
      const bounds = t.minimum !== undefined && t.maximum !== undefined ? ` from ${t.minimum} to ${t.maximum}` : t.minimum !== undefined ? ` of at least ${t.minimum}` : t.maximum !== undefined ? ` of at most ${t.maximum}` : "";
      const values = t.enum ? ` of ${t.enum.map((v) => JSON.stringify(v)).join(", ")}${t.openEnum ? " and others" : ""}` : "";
      return `${t.type}${t.format ? ` (${t.format})` : ""}${values}${bounds}${t.pattern !== undefined ? ` matching /${t.pattern}/` : ""}`;
    }
    case "object": {
      if (t.additional) return `a map of ${describe(t.additional)}`;
      if (t.name) return `object ${t.name}`;
      // Its members' names, so that two objects of a union that changed read apart.
      const names = t.members.slice(0, 3).map((f) => `\`${f.name}\``).join(", ");
      return t.members.length === 0 ? (t.open ? "an object of any members" : "an empty object") : `an object of ${names}${t.members.length > 3 ? ", …" : ""}${t.open ? " and others" : ""}`;
    }
    case "array":
      return `an array of ${describe(t.items)}`;
    case "union":
      return t.options.map(describe).join(" or ");
    case "ref":
      return t.resource;
    case "null":
      return "null";
    case "unknown":
      return "not given";
    case "unresolved":
      return unresolvedLeft(t);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Resources and the rest of the model

function diffResources(old: Model, next: Model, out: Collector): void {
  const before = byOccurrence(old.resources, (r) => r.name);
  const after = byOccurrence(next.resources, (r) => r.name);
  for (const [k, r] of after) {
    const o = before.get(k);
    if (!o) {
      out.add("resource-added", `resource \`${r.name}\` is new`, { resource: r.name, from: null, to: r.source });
      continue;
    }
    diffResource(o, r, out);
  }
  for (const [k, o] of before) {
    if (!after.has(k)) out.add("resource-removed", `resource \`${o.name}\` is no longer in the spec`, { resource: o.name, from: o.source, to: null });
  }
}

function diffResource(o: Resource, r: Resource, out: Collector): void {
  const here: Where = { resource: r.name, from: o.source, to: r.source };
  if (o.title !== r.title || o.description !== r.description) out.add("description-changed", `the description of resource \`${r.name}\` changed`, here);
  diffType("result", o.type, r.type, out, { ...here, path: "" });
  diffStatements(out, [...o.typingRules, ...o.notes], [...r.typingRules, ...r.notes], { resource: r.name, near: r.source });
}

function diffGlobal(old: Model, next: Model, out: Collector): void {
  const env = (m: Model) => (m.envelope ? canon({ members: m.envelope.members, time: m.envelope.time, legacyErrorBody: m.envelope.legacyErrorBody, v3ErrorBody: m.envelope.v3ErrorBody ?? null }) : "null");
  if (env(old) !== env(next)) out.add("envelope-changed", "the response envelope, `time` or an error body changed", { from: old.envelope?.source ?? null, to: next.envelope?.source ?? null });
  const forms = (m: Model) => new Map(m.addressing.forms.map((f) => [canon({ ...f, notes: undefined }), f]));
  const fa = forms(old);
  const fb = forms(next);
  for (const [k, f] of fb) if (!fa.has(k)) out.add("addressing-changed", `URL form ${f.httpMethod ?? ""} ${f.path} (${f.version}, ${f.auth}) is new or changed`.replace("  ", " "), { from: null, to: f.source });
  for (const [k, f] of fa) if (!fb.has(k)) out.add("addressing-changed", `URL form ${f.httpMethod ?? ""} ${f.path} (${f.version}, ${f.auth}) is gone or changed`.replace("  ", " "), { from: f.source, to: null });
  const cat = (m: Model) => new Map(m.errors.catalogue.map((e) => [`${e.kind}:${e.code}`, e]));
  const ca = cat(old);
  const cb = cat(next);
  for (const [k, e] of cb) {
    const was = ca.get(k);
    if (!was) out.add("catalogue-error-added", `the ${e.kind} errors table has \`${e.code}\``, { from: null, to: e.source });
    else if (was.status !== e.status || was.altStatus !== e.altStatus) out.add("catalogue-error-changed", `\`${e.code}\` comes with status ${e.status ?? "unknown"} (was ${was.status ?? "unknown"})`, { from: was.source, to: e.source });
    else if (was.text !== e.text) out.add("error-text-changed", `the text of \`${e.code}\` in the ${e.kind} errors table changed`, { from: was.source, to: e.source });
    else if (was.cause !== e.cause) out.add("description-changed", `the cause of \`${e.code}\` in the ${e.kind} errors table changed`, { from: was.source, to: e.source });
  }
  for (const [k, e] of ca) if (!cb.has(k)) out.add("catalogue-error-removed", `the ${e.kind} errors table no longer has \`${e.code}\``, { from: e.source, to: null });
  const lim = (m: Model) => new Map(m.limits.table.map((l) => [l.name, l]));
  const la = lim(old);
  const lb = lim(next);
  for (const [k, l] of lb) {
    const was = la.get(k);
    if (!was) out.add("limit-changed", `the limits table has a new row "${l.name}": ${l.value}`, { from: null, to: l.source });
    else if (canon(was) !== canon(l)) out.add("limit-changed", `the limit "${l.name}" is now ${l.value} for ${l.appliesTo} (was ${was.value} for ${was.appliesTo})`, { from: was.source, to: l.source });
  }
  for (const [k, l] of la) if (!lb.has(k)) out.add("limit-changed", `the limits table no longer has "${l.name}"`, { from: l.source, to: null });
  // The request-rate limits per plan (the reference's limits page): the client's throttle presets follow them.
  const rates = (m: Model) => new Map((m.requestRates ?? []).map((r) => [r.plan, r]));
  const ra = rates(old);
  const rb = rates(next);
  for (const [plan, r] of rb) {
    const was = ra.get(plan);
    if (!was) out.add("limit-changed", `the request rate of plan "${plan}" is stated: ${r.perSecond} a second, ${r.burst} before blocking`, { from: null, to: r.source });
    else if (was.perSecond !== r.perSecond || was.burst !== r.burst) out.add("limit-changed", `the request rate of plan "${plan}" is now ${r.perSecond} a second, ${r.burst} before blocking (was ${was.perSecond} and ${was.burst})`, { from: was.source, to: r.source });
  }
  for (const [plan, r] of ra) if (!rb.has(plan)) out.add("limit-changed", `the request rate of plan "${plan}" is no longer stated`, { from: r.source, to: null });
}

/** Every sentence-level statement outside methods and resources, with the section it belongs to. */
function statementsOf(m: Model): Statement[] {
  const rows = (xs: Array<{ source: Source }>, text: (x: never) => string) => xs.map((x) => ({ text: text(x as never), refs: [], source: x.source }));
  return [
    ...m.intro,
    ...m.overview,
    ...(m.envelope?.notes ?? []),
    ...m.states.notes,
    ...rows(m.states.transitions, (t: { subject: string; trigger: string; condition: string; next: string; also: string }) => `${t.subject} | ${t.trigger} | ${t.condition} | ${t.next} | ${t.also}`),
    ...m.addressing.rules,
    ...m.fileRetrieval.rules,
    ...rows(m.fileRetrieval.rows, (r: { where: string; methods: string[]; field: string }) => `${r.where} | ${r.methods.join(", ")} | ${r.field}`),
    ...m.authentication.rules,
    ...m.events,
    ...m.errors.notes,
    ...m.limits.rules,
    ...m.versioning,
  ];
}

/**
 * Statements compared as multisets of their texts. A text only in the old list and one only in the new list, taken
 * in order, are one rewording; the rest are additions and removals.
 */
function diffStatements(out: Collector, before: Statement[], after: Statement[], ctx: { method?: Method; resource?: string; near?: Source | null }): void {
  const count = new Map<string, number>();
  for (const s of before) count.set(s.text, (count.get(s.text) ?? 0) + 1);
  const added: Statement[] = [];
  for (const s of after) {
    const n = count.get(s.text) ?? 0;
    if (n > 0) count.set(s.text, n - 1);
    else added.push(s);
  }
  const removed: Statement[] = [];
  for (const s of [...before].reverse()) {
    const n = count.get(s.text) ?? 0;
    if (n > 0) {
      removed.unshift(s);
      count.set(s.text, n - 1);
    }
  }
  const base = { ...(ctx.method ? { method: ctx.method } : {}), ...(ctx.resource ? { resource: ctx.resource } : {}), near: ctx.near ?? null };
  const where = ctx.method ? ` of ${methodLabel(ctx.method)}` : ctx.resource ? ` of resource \`${ctx.resource}\`` : "";
  const pairs = Math.min(added.length, removed.length);
  for (let i = 0; i < pairs; i++) out.add("note-changed", `a note${where} was reworded: ${excerpt(added[i]?.text ?? "")}`, { ...base, from: removed[i]?.source ?? null, to: added[i]?.source ?? null });
  for (const s of added.slice(pairs)) out.add("note-changed", `a note${where} was added: ${excerpt(s.text)}`, { ...base, from: null, to: s.source });
  for (const s of removed.slice(pairs)) out.add("note-changed", `a note${where} was removed: ${excerpt(s.text)}`, { ...base, from: s.source, to: null });
}

function excerpt(text: string): string {
  // Redacted before it is cut: a credential cut in half would no longer match the patterns that find it.
  const one = redactSecrets(text).replace(/\s+/g, " ").trim();
  return one.length > 80 ? `"${one.slice(0, 77)}..."` : `"${one}"`;
}

function diffGaps(old: Model, next: Model, out: Collector): void {
  const key = (g: Model["knownGaps"][number]) => canon({ s: g.subject, a: g.appliesTo, k: g.kind });
  const before = byOccurrence(old.knownGaps, key);
  const after = byOccurrence(next.knownGaps, key);
  for (const [k, g] of after) if (!before.has(k)) out.add("gap-changed", `the spec now leaves open: ${excerpt(g.subject)}`, { from: null, to: g.source });
  for (const [k, g] of before) if (!after.has(k)) out.add("gap-changed", `the spec no longer leaves open: ${excerpt(g.subject)}`, { from: g.source, to: null });
}

/** Whether a type refers to a resource, directly or inside arrays, unions, objects and maps. */
function refersTo(t: TypeRef, resource: string): boolean {
  switch (t.kind) {
    case "ref":
      return t.resource === resource;
    case "array":
      return refersTo(t.items, resource);
    case "union":
      return t.options.some((o) => refersTo(o, resource));
    case "object":
      return t.extends === resource || t.members.some((m) => refersTo(m.type, resource)) || (t.additional ? refersTo(t.additional, resource) : false);
    default:
      return false;
  }
}

/**
 * The handlers whose types a diff changed for their implementers: methods with a change of their own, and methods
 * whose result holds a changed resource. `generate` names them, since `tsc` is where the user sees what to change.
 */
export function affectedHandlers(report: DiffReport, model: Model): string[] {
  const names = new Set<string>();
  const resources = new Set<string>();
  for (const c of report.changes) {
    if (!c.audiences.server || c.audiences.server === "patch") continue;
    // A verb is the router's, not the handler's: its types stay.
    if (c.code === "http-method-added" || c.code === "http-method-removed") continue;
    if (c.method && c.code !== "method-added" && c.code !== "method-removed" && c.code !== "method-named-added" && c.code !== "method-named-removed") names.add(methodLabel({ name: c.method, version: c.version ?? "legacy" }));
    else if (c.resource && !c.method) resources.add(c.resource);
  }
  for (const m of model.methods) {
    if (m.described && m.result && [...resources].some((r) => refersTo(m.result?.type ?? { kind: "null" }, r))) names.add(methodLabel(m));
  }
  return [...names];
}
