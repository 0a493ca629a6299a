import { type Diagnostic, diagnostic } from "../../diagnostics/catalogue.js";
import type { Field, Model, TypeRef } from "../../model/types.js";
import type { Source } from "../../util/position.js";

/**
 * A number the input writes that JSON and JavaScript do not carry as written: an integer past ±(2^53 − 1) is read as
 * the nearest double (`12345678901234567890` as `12345678901234567000`), and one above about 1.8e308 as Infinity,
 * which JSON writes as `null`. The model holds what JavaScript made of it, so the reading says so at the place it
 * was written, never silently: an enum value, a bound or a default of a field (of a method, a resource, the envelope
 * and its error bodies, an event's payload), a limit of the Limits table, a value a States row sets.
 */
export function unsafeNumbers(model: Model): Diagnostic[] {
  const out: Diagnostic[] = [];
  // One warning for one number at one place: a field an include puts in every event's payload is one text.
  const said = new Set<string>();
  const check = (v: unknown, name: string, at: Source) => {
    if (typeof v !== "number" || (Number.isFinite(v) && (!Number.isInteger(v) || Number.isSafeInteger(v)))) return;
    const key = `${at.file}:${at.line}:${at.column}:${v}`;
    if (said.has(key)) return;
    said.add(key);
    const span = { file: at.file, line: at.line, column: at.column, endLine: at.line, endColumn: at.column + 1 };
    out.push(diagnostic("unsafe-number", span, { name, value: String(v), why: Number.isFinite(v) ? "an integer past ±(2^53 - 1), where not every integer is exact" : "above the largest number, about 1.8e308; JSON writes it as null" }));
  };
  const visitType = (t: TypeRef, name: string, at: Source): void => {
    switch (t.kind) {
      case "primitive":
        for (const v of [...(t.enum ?? []), t.minimum, t.maximum]) check(v, name, at);
        return;
      case "object":
        for (const f of t.members) visitField(f);
        if (t.additional) visitType(t.additional, name, at);
        return;
      case "array":
        visitType(t.items, name, at);
        return;
      case "union":
        for (const o of t.options) visitType(o, name, at);
        return;
      default:
        return;
    }
  };
  const visitField = (f: Field): void => {
    visitType(f.type, f.name, f.source);
    check(f.default?.value, f.name, f.source);
  };
  for (const r of model.resources) visitType(r.type, r.name, r.source);
  for (const m of model.methods) {
    for (const p of m.params) visitField(p);
    if (m.result) visitType(m.result.type, `${m.name} result`, m.result.source);
  }
  if (model.envelope) for (const f of [...model.envelope.members, ...model.envelope.time, ...model.envelope.legacyErrorBody, ...(model.envelope.v3ErrorBody ?? [])]) visitField(f);
  for (const e of model.eventPayloads ?? []) for (const f of e.fields) visitField(f);
  // The platform's facts (page size, key length, retention) are read from these rows and carry their numbers.
  for (const l of model.limits.table) for (const v of [l.min, l.max, l.defaultValue]) check(v, l.name, l.source);
  for (const t of model.states.transitions) {
    const e = t.effect;
    if (e.kind === "link" || e.kind === "set" || e.kind === "offline-reserve") check(e.value, t.subject, t.source);
  }
  return out;
}
