import type { Field, Model, TypeRef } from "../../generator/model/types.js";

/**
 * The facts of a model as atoms, one string each, with no positions and no prose: what an independent rewrite of
 * the spec (test/fixtures/other-hands/, decisions.md D25) must give again. Names the model makes from headings
 * (resource names) are left out, so that a rewrite may title its sections as it likes; words that are the author's
 * (descriptions, causes, notes) are left out, since a rewrite changes them on purpose. What stays: methods, scopes,
 * access, flags, parameters with their types, requirements, allowed values and defaults, constraints, results,
 * errors with codes, statuses, quoted texts and the parameter failures they answer, URL schemes, resource fields, the error catalogue, limits' numbers, the states'
 * transitions (by their identifiers) and which model nodes a known gap applies to.
 */
export function factAtoms(model: Model): string[] {
  const out: string[] = [];
  const add = (s: string) => out.push(s);
  for (const m of model.methods) {
    const id = `${m.version} ${m.name}`;
    add(`method ${id}${m.described ? "" : " (named)"}`);
    if (!m.described) continue;
    for (const s of m.scopes ?? []) add(`scope ${id} ${s}`);
    if (m.access) add(`access ${id} ${m.access.who}`);
    if (m.applicationContextOnly) add(`application-only ${id}`);
    if (m.deprecated) add(`deprecated ${id} -> ${m.deprecated.replacement ?? "?"}`);
    if (m.idempotencyKey) add(`idempotency-key ${id}`);
    for (const a of m.aliases) add(`alias ${id} ${a}`);
    for (const p of m.params) fieldAtoms(`param ${id}`, p, model, add);
    for (const c of m.constraints) {
      const what = c.kind === "call-forms" ? c.forms.map((f) => [...f].sort().join("+")).sort().join(" | ") : c.kind === "required-unless" ? `${[...c.params].sort().join(",")} unless ${c.unless.param}=${c.unless.value}` : [...c.params].sort().join(",");
      add(`constraint ${id} ${c.kind} ${what}`);
    }
    if (m.result) add(`result ${id} ${m.result.key ?? "-"} ${shape(m.result.type, model)}`);
    for (const e of m.errors) {
      add(`error ${id} ${e.code ?? "-"} ${e.statuses.length > 0 ? [...e.statuses].sort().join("/") : (e.status ?? "-")}`);
      if (e.text !== null) add(`error-text ${id} ${e.code ?? "-"} ${norm(e.text)}`);
      // What the server answers with it (read/triggers.ts): the parameter's failure it names.
      if (e.trigger) add(`error-trigger ${id} ${e.code ?? "-"} ${e.trigger.parameter} ${e.trigger.failure}`);
    }
  }
  for (const r of model.resources) {
    const t = r.type.kind === "ref" ? (model.resources.find((x) => x.name === (r.type as { resource: string }).resource)?.type ?? r.type) : r.type;
    if (t.kind === "object") for (const f of t.members) fieldAtoms("field", f, model, add);
    else add(`resource-type ${shape(t, model)}`);
  }
  if (model.envelope) {
    for (const f of model.envelope.members) fieldAtoms("envelope", f, model, add);
    for (const f of model.envelope.time) fieldAtoms("time", f, model, add);
    for (const f of model.envelope.legacyErrorBody) fieldAtoms("legacy-error-body", f, model, add);
  }
  for (const e of model.errors.catalogue) {
    add(`catalogue ${e.kind} ${e.code} ${e.status ?? "-"}${e.altStatus !== null ? `/${e.altStatus}` : ""}`);
    if (e.text !== null) add(`catalogue-text ${e.code} ${norm(e.text)}`);
  }
  // A limit's numbers (its bounds and default as the reader read them, and every number its words give, "one" as 1)
  // and the names its value gives (`start`): the value's other words are the author's ("1 to 255 printable ASCII
  // characters" and "1–255 printable ASCII chars" state one fact; "one user" and "1 user" too, "9 users" another).
  // Until 2026-11-27 this atom held the value's whole text, against this function's own rule above.
  for (const l of model.limits.table) add(`limit ${[l.min, l.max, l.defaultValue].map((x) => x ?? "-").join(" ")} ${idents(digits(l.value))}`);
  for (const s of model.states.transitions) add(`transition ${idents(`${s.subject} ${s.trigger} ${s.condition} ${s.next} ${s.also}`)}`);
  // The platform's facts the emitters act on (issue 27), each as read or as the platform's default: a rewrite that
  // says the page size or the retried codes in other words must still give them (the key length by its bounds).
  const p = model.platform;
  const fact = (name: string, f: { value: unknown; source: unknown }, value: unknown = f.value) => add(`platform ${name} ${JSON.stringify(Array.isArray(value) ? [...value].sort() : value)}${f.source ? "" : " (default)"}`);
  for (const [k, f] of Object.entries(p.codes)) fact(`codes.${k}`, f);
  fact("paging.pageSize", p.paging.pageSize);
  fact("paging.listMethods", p.paging.listMethods);
  fact("idempotency.keyLength", p.idempotency.keyLength, [p.idempotency.keyLength.value.min, p.idempotency.keyLength.value.max]);
  fact("idempotency.printableAscii", p.idempotency.printableAscii);
  fact("idempotency.retentionHours", p.idempotency.retentionHours);
  fact("builtIns.documentation", p.builtIns.documentation);
  fact("builtIns.scopeList", p.builtIns.scopeList);
  fact("answers.notAdministrator", p.answers.notAdministrator);
  fact("answers.insufficientScope", p.answers.insufficientScope);
  // Each link member by itself: a rewrite whose words make one more member a link ("publicUrl: the link") keeps these.
  for (const n of p.links.value) add(`platform link ${n}`);
  // What each States row does, as the mock acts on it (model version 3), and the gaps an emitter acts on.
  for (const s of model.states.transitions) add(`effect ${JSON.stringify(s.effect)}`);
  for (const g of model.knownGaps) if (g.topic) add(`gap topic ${g.topic}`);
  // A gap of a method or a parameter names it; a gap of a resource, an area or a section names what the model made
  // of a heading, so only its kind counts.
  for (const g of model.knownGaps) for (const a of g.appliesTo.length > 0 ? g.appliesTo : ["document"]) add(`gap ${g.kind} ${/^(?:method|param):/.test(a) ? a : (a.split(":")[0] ?? a)}`);
  // A multiset: the same atom twice (two resources with a field `ID`) counts twice.
  const seen = new Map<string, number>();
  return out.map((a) => {
    const n = (seen.get(a) ?? 0) + 1;
    seen.set(a, n);
    return n === 1 ? a : `${a} #${n}`;
  });
}

function fieldAtoms(prefix: string, f: Field, model: Model, add: (s: string) => void, path = f.name): void {
  add(`${prefix} ${path}: ${shape(f.type, model)}${f.required ? " required" : ""}${f.nullable ? " nullable" : ""}`);
  if (f.default) add(`${prefix} ${path} default ${JSON.stringify(f.default.value ?? null)}`);
  if (f.deprecated) add(`${prefix} ${path} deprecated`);
  if (f.schemes) add(`${prefix} ${path} schemes ${[...f.schemes].sort().join(",")}`);
  const t = f.type.kind === "array" ? f.type.items : f.type;
  if (t.kind === "object") for (const m of t.members) fieldAtoms(prefix, m, model, add, `${path}.${m.name}`);
}

/** A type without its prose: members are atoms of their own, so an object is `object`. */
function shape(t: TypeRef, model: Model, depth = 0): string {
  switch (t.kind) {
    case "primitive":
      return t.enum ? t.enum.map((v) => JSON.stringify(v)).sort().join("|") : t.format ? `${t.type}<${t.format}>` : t.type;
    case "array":
      return `${shape(t.items, model, depth + 1)}[]`;
    case "union":
      return t.options.map((o) => shape(o, model, depth + 1)).sort().join(" or ");
    case "object":
      return t.additional ? `map of ${shape(t.additional, model, depth + 1)}` : "object";
    case "ref": {
      const r = model.resources.find((x) => x.name === t.resource);
      return r && depth < 4 ? shape(r.type, model, depth + 1) : "ref";
    }
    default:
      return t.kind;
  }
}

function norm(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** Number words as digits ("one user" → "1 user"), so that a number is one fact however it is written. */
function digits(s: string): string {
  const words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
  return s.replace(/\b(zero|one|two|three|four|five|six|seven|eight|nine|ten)\b/gi, (w) => String(words.indexOf(w.toLowerCase())));
}

/** The identifiers of a sentence (backticked names, upper-case words, numbers), in order. */
function idents(s: string): string {
  return (s.match(/`[^`]+`|\b[A-Z][A-Z0-9_]{1,}\b|\b\d+\b/g) ?? []).join(" ");
}
