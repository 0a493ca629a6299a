import { type Diagnostic, diagnostic } from "../../diagnostics/catalogue.js";
import type { Fragments } from "../fragments.js";
import type { Method, Resource, Version } from "../types.js";
import { spanAt } from "./context.js";

/** Pass 1: one method per name and version; a second definition is an error that points at the first. */
export function uniqueMethods(f: Fragments, diagnostics: Diagnostic[]): Method[] {
  const methods: Method[] = [];
  const key = (name: string, v: Version) => `${v}:${name}`;
  const seen = new Map<string, Method>();
  for (const m of f.methods) {
    const k = key(m.name, m.version);
    const first = seen.get(k);
    if (first) {
      diagnostics.push({
        ...diagnostic("duplicate-method", spanAt(m.source, m.name.length + 4), { name: m.name, version: m.version }, {
          line: first.source.line,
          column: first.source.column,
          message: "first defined",
        }),
        subject: { method: m.name },
      });
      continue;
    }
    seen.set(k, m);
    methods.push(m);
  }
  return methods;
}

/** Pass 2: resources of unique names; a second definition is an error that points at the first. */
export function uniqueResources(f: Fragments, diagnostics: Diagnostic[]): Resource[] {
  const resources: Resource[] = [];
  for (const r of f.resources) {
    const first = resources.find((x) => x.name === r.name);
    if (first) {
      diagnostics.push({
        ...diagnostic("duplicate-resource", spanAt(r.source, r.title.length), { name: r.name }, {
          line: first.source.line,
          column: first.source.column,
          message: "first defined",
        }),
        subject: { resource: r.name },
      });
      continue;
    }
    resources.push(r);
  }

  return resources;
}
