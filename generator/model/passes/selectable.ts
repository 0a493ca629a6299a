import type { PassContext } from "./context.js";

/** Pass 6: a resource returned by a method with a `select` parameter has no field that is always present. */
export function relaxSelectable(ctx: PassContext): void {
  const { methods, resources } = ctx;
  // A resource returned by a method with a `select` parameter has no field that is always present.
  for (const r of resources) {
    if (r.type.kind !== "object") continue;
    const selectable = r.returnedBy.some((n) =>
      methods.some((m) => m.name === n && m.params.some((p) => p.name.toLowerCase() === "select")),
    );
    if (selectable) r.type = { ...r.type, members: r.type.members.map((x) => ({ ...x, required: false })) };
  }
}
