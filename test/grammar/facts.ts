import type { Field, Method, Model, TypeRef } from "../../generator/model/types.js";

/**
 * The facts of the grammar, without positions and without the names the model stage gives to shapes: what the
 * metamorphic and property tests compare. A `ref` is replaced by the resource's type, so that an object written
 * inline and the same object lifted into a resource compare equal.
 */
export function typeFacts(t: TypeRef, model: Model | null, seen: string[] = []): unknown {
  switch (t.kind) {
    case "ref": {
      const r = model?.resources.find((x) => x.name === t.resource);
      if (!r || seen.includes(r.name)) return { ref: t.resource };
      return typeFacts(r.type, model, [...seen, r.name]);
    }
    case "object":
      return {
        kind: "object",
        members: t.members.map((m) => fieldFacts(m, model, seen)),
        ...(t.additional ? { additional: typeFacts(t.additional, model, seen) } : {}),
        ...(t.keyDescription ? { keyDescription: t.keyDescription } : {}),
        ...(t.open ? { open: true } : {}),
      };
    case "array":
      return { kind: "array", items: typeFacts(t.items, model, seen) };
    case "union":
      return { kind: "union", options: t.options.map((o) => typeFacts(o, model, seen)) };
    default:
      return t;
  }
}

export function fieldFacts(f: Field, model: Model | null, seen: string[] = []): Record<string, unknown> {
  return {
    name: f.name,
    required: f.required,
    nullable: f.nullable,
    type: typeFacts(f.type, model, seen),
    description: f.description.replace(/\s+/g, " ").trim(),
    ...(f.default ? { default: f.default } : {}),
    ...(f.deprecated ? { deprecated: true } : {}),
  };
}

export function methodFacts(m: Method, model: Model | null): Record<string, unknown> {
  return {
    name: m.name,
    version: m.version,
    scopes: m.scopes,
    scopeNote: m.scopeNote,
    params: m.params.map((p) => fieldFacts(p, model)),
    constraints: m.constraints.map((c) =>
      c.kind === "call-forms" ? { kind: c.kind, forms: c.forms } : c.kind === "required-unless" ? { kind: c.kind, params: c.params, unless: c.unless } : { kind: c.kind, params: c.params },
    ),
  };
}
