import { pascal } from "../naming.js";
import type { Resource, Source, TypeRef } from "../types.js";

/** Lifts named or nested object shapes of resource fields into resources of their own. */
export function liftShapes(resources: Resource[]): Resource[] {
  const out: Resource[] = [];
  const taken = new Set(resources.map((r) => r.name));
  const lift = (owner: Resource, path: string, type: TypeRef, source: Source): TypeRef => {
    if (type.kind === "array") return { ...type, items: lift(owner, `${path}Item`, type.items, source) };
    if (type.kind === "union") return { ...type, options: type.options.map((o, i) => lift(owner, `${path}${i + 1}`, o, source)) };
    if (type.kind !== "object") return type;
    // A reader's hint names the shape; "Item" asks for `<path>Item` ("item fields" of a keyed object).
    const name = type.name === "Item" ? `${path.replace(/Value$/, "")}Item` : (type.name ?? path);
    const inner: TypeRef = {
      ...type,
      members: type.members.map((m) => ({ ...m, type: lift(owner, `${name}${pascal(m.name)}`, m.type, m.source) })),
      ...(type.additional ? { additional: lift(owner, `${name}Value`, type.additional, source) } : {}),
    };
    if (inner.kind !== "object" || inner.members.length === 0) {
      if (inner.kind === "object") {
        const { name: _hint, ...rest } = inner;
        return rest;
      }
      return inner;
    }
    if (!taken.has(name)) {
      taken.add(name);
      const { name: _hint, ...shape } = inner;
      out.push({
        name,
        title: `${owner.title}: ${name}`,
        description: `Nested shape of ${owner.name}.`,
        returnedBy: [],
        links: [],
        type: shape,
        typingRules: [],
        notes: [],
        source,
      });
    }
    return { kind: "ref", resource: name };
  };
  for (const r of resources) {
    if (r.type.kind === "object") {
      const t = r.type;
      const members = t.members.map((m) => ({ ...m, type: lift(r, `${r.name}${pascal(m.name)}`, m.type, m.source) }));
      const additional = t.additional ? lift(r, `${r.name}Value`, t.additional, r.source) : undefined;
      const { name: _hint, ...rest } = t;
      out.push({ ...r, type: { ...rest, members, ...(additional ? { additional } : {}) } });
    } else out.push(r);
  }
  return out;
}

