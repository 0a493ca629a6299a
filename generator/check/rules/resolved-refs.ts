import type { Diagnostic } from "../../diagnostics/catalogue.js";
import type { Model, TypeRef } from "../../model/types.js";

/**
 * Every reference to a resource names one the model has, and none is left as a front end's unresolved reference
 * (`{ kind: "unresolved" }`). One that is is a bug of the model stage, not of the input: it throws, naming where.
 */
export function resolvedRefs(model: Model): Diagnostic[] {
  const names = new Set(model.resources.map((r) => r.name));
  const visit = (t: TypeRef, where: string): void => {
    switch (t.kind) {
      case "ref":
        if (!names.has(t.resource)) throw new Error(`unresolved resource '${t.resource}' in ${where}`);
        return;
      // A reference a front end could not resolve alone, which the model stage did not resolve either.
      case "unresolved":
        throw new Error(`unresolved reference (${t.by}: '${t.text}') in ${where}`);
      case "object":
        if (t.extends && !names.has(t.extends)) throw new Error(`unresolved resource '${t.extends}' in ${where}`);
        for (const m of t.members) visit(m.type, `${where}.${m.name}`);
        if (t.additional) visit(t.additional, `${where}[*]`);
        return;
      case "array":
        visit(t.items, `${where}[]`);
        return;
      case "union":
        for (const o of t.options) visit(o, where);
        return;
      default:
        return;
    }
  };
  for (const r of model.resources) visit(r.type, r.name);
  for (const m of model.methods) {
    for (const p of m.params) visit(p.type, `${m.name}(${p.name})`);
    if (m.result) visit(m.result.type, `${m.name} result`);
  }
  return [];
}
