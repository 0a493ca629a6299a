import type { TypeRef } from "./types.js";

/** `type` with `fn` applied to it and to every type inside it (members, items, options), top down. */
export function mapType(type: TypeRef, fn: (t: TypeRef) => TypeRef): TypeRef {
  const t = fn(type);
  switch (t.kind) {
    case "object":
      return {
        ...t,
        members: t.members.map((m) => ({ ...m, type: mapType(m.type, fn) })),
        ...(t.additional ? { additional: mapType(t.additional, fn) } : {}),
      };
    case "array":
      return { ...t, items: mapType(t.items, fn) };
    case "union":
      return { ...t, options: t.options.map((o) => mapType(o, fn)) };
    default:
      return t;
  }
}

/**
 * A reference the model stage left unresolved, where a model is read: `check/` rejects a model that has one
 * (rules/resolved-refs.ts), so meeting one here is a bug of the model stage, not of the input.
 */
export function unresolvedLeft(t: { kind: "unresolved"; by: string; text: unknown }): never {
  throw new Error(`unresolved reference (${t.by}: '${t.text}') past the model stage`);
}
