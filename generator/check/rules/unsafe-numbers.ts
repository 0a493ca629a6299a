import { type Diagnostic, diagnostic } from "../../diagnostics/catalogue.js";
import type { Field, Model, TypeRef } from "../../model/types.js";
import type { Source } from "../../util/position.js";

/**
 * A number the input writes that JSON and JavaScript cannot carry as written: an integer past 2^53 − 1 is read as the
 * nearest double (`12345678901234567890` as `12345678901234567000`), 309 digits or more as Infinity, which JSON writes
 * as `null`. The model holds what JavaScript made of it, so the reading says so at the field, never silently: an enum
 * value, a bound, or a default.
 */
export function unsafeNumbers(model: Model): Diagnostic[] {
  const out: Diagnostic[] = [];
  const unsafe = (v: unknown): v is number => typeof v === "number" && (!Number.isFinite(v) || (Number.isInteger(v) && !Number.isSafeInteger(v)));
  const say = (at: Source, name: string, value: number) =>
    out.push(diagnostic("unsafe-number", { file: at.file, line: at.line, column: at.column, endLine: at.line, endColumn: at.column + 1 }, { name, value: String(value) }));
  const visitType = (t: TypeRef, name: string, at: Source): void => {
    switch (t.kind) {
      case "primitive":
        for (const v of [...(t.enum ?? []), t.minimum, t.maximum]) if (unsafe(v)) say(at, name, v);
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
    if (unsafe(f.default?.value)) say(f.source, f.name, f.default.value);
  };
  for (const r of model.resources) visitType(r.type, r.name, r.source);
  for (const m of model.methods) {
    for (const p of m.params) visitField(p);
    if (m.result) visitType(m.result.type, `${m.name} result`, m.result.source);
  }
  for (const e of model.eventPayloads ?? []) for (const f of e.fields) visitField(f);
  return out;
}
