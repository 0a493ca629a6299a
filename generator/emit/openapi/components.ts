/**
 * Which resource schemas each OpenAPI document keeps. Both documents are built with every resource of the model;
 * a resource that only the other version's document reaches (from its paths, responses, parameters or `x-events`,
 * directly or through other schemas) is dropped from this one, where nothing names it (redocly's
 * no-unused-components). A resource that neither document reaches stays in both: the input describes it, and no
 * method of either version happens to return or take it (the spec's `MessageProvider`), so dropping it would drop a
 * described fact from the documents.
 */

import { reach } from "../../util/reach.js";

const PREFIX = "#/components/schemas/";

/** The schema names `node` names by `$ref`, anywhere in it. A walk with a stack: documents nest deep. */
function refsIn(node: unknown, out: Set<string>): void {
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const n = stack.pop();
    if (Array.isArray(n)) {
      for (const v of n) if (v !== null && typeof v === "object") stack.push(v);
    } else if (n !== null && typeof n === "object") {
      for (const [k, v] of Object.entries(n as Record<string, unknown>)) {
        if (k === "$ref" && typeof v === "string" && v.startsWith(PREFIX)) out.add(v.slice(PREFIX.length));
        else if (v !== null && typeof v === "object") stack.push(v);
      }
    }
  }
}

/** What a schema of `schemas` names, for `reach`. */
const namedIn = (schemas: Record<string, unknown>) => (name: string): Set<string> => {
  const named = new Set<string>();
  refsIn(schemas[name], named);
  return named;
};

/** The schemas a document reaches: named outside its schemas, and what those name in turn. */
export function reachedSchemas(doc: Record<string, unknown>): Set<string> {
  const schemas = ((doc.components as Record<string, unknown> | undefined)?.schemas ?? {}) as Record<string, unknown>;
  const direct = new Set<string>();
  for (const [k, v] of Object.entries(doc)) {
    if (k !== "components") refsIn(v, direct);
  }
  for (const [k, v] of Object.entries((doc.components as Record<string, unknown> | undefined) ?? {})) {
    if (k !== "schemas") refsIn(v, direct);
  }
  return reach(direct, namedIn(schemas));
}

/**
 * Drops from each document the schemas only the other reaches (see above). What a kept schema names is kept too: a
 * schema neither document reaches may name one only the other reaches, and no `$ref` is left pointing at nothing.
 * The documents are changed in place.
 */
export function pruneSchemas(a: Record<string, unknown>, b: Record<string, unknown>): void {
  const reached = [reachedSchemas(a), reachedSchemas(b)] as const;
  for (const [i, doc] of [a, b].entries()) {
    const mine = reached[i] as Set<string>;
    const other = reached[1 - i] as Set<string>;
    const schemas = (doc.components as Record<string, unknown> | undefined)?.schemas as Record<string, unknown> | undefined;
    if (!schemas) continue;
    const kept = reach(
      Object.keys(schemas).filter((name) => mine.has(name) || !other.has(name)),
      namedIn(schemas),
    );
    for (const name of Object.keys(schemas)) if (!kept.has(name)) delete schemas[name];
  }
}
