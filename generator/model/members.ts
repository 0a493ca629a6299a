/** A type as far as `topMembers` looks into it: an object's members, a union's options. */
interface ObjectLike<F> {
  kind: string;
  members?: readonly F[];
  options?: ReadonlyArray<{ kind: string; members?: readonly F[] }>;
}

/**
 * The top-level members of the resources and of the methods' results (an object result, or each object option of a
 * union): where the link members are looked for, by each front end in its own words (read/phrases.ts,
 * reference/phrases.ts) and by the model question that keeps the string ones (questions.ts `linkFields`).
 */
export function topMembers<F>(resources: ReadonlyArray<{ type: ObjectLike<F> }>, methods: ReadonlyArray<{ result: { type: ObjectLike<F> } | null }>): F[] {
  const out: F[] = [];
  // One push a member, not `push(...members)`: a table of 130,000 rows would pass as many arguments (a stack overflow).
  const add = (members: readonly F[] | undefined) => {
    for (const m of members ?? []) out.push(m);
  };
  const take = (t: ObjectLike<F>) => {
    if (t.kind === "object") add(t.members);
    if (t.kind === "union") for (const o of t.options ?? []) if (o.kind === "object") add(o.members);
  };
  for (const r of resources) if (r.type.kind === "object") take(r.type);
  for (const m of methods) if (m.result) take(m.result.type);
  return out;
}
