import { diagnostic } from "../../diagnostics/catalogue.js";
import { mapType } from "../map-type.js";
import { pascal } from "../naming.js";
import type { Method, Resource, Source, TypeRef } from "../types.js";
import { withoutParenSpan } from "../../util/parens.js";
import { type PassContext, spanAt } from "./context.js";

/**
 * Pass 5: resource names resolved (titles, "see X", "returned by"), and results linked to the resource that says it
 * is returned by the method.
 */
export function resolveNames(ctx: PassContext): void {
  const { methods, resources, diagnostics, find } = ctx;
  // Resolve resource names.
  const resolver = makeResolver(resources);
  const warn = (name: string, what: string, at: Source) =>
    diagnostics.push(diagnostic("unknown-reference", spanAt(at, name.length), { name, what }));
  for (const r of resources) {
    if (r.type.kind === "unresolved" && r.type.by === "see") {
      const target = find(r.type.text);
      const param = target?.params.find((p) => p.type.kind === "object");
      if (target && param) {
        r.type = param.type;
        param.type = { kind: "ref", resource: r.name };
      } else {
        warn(r.type.text, "method", r.source);
        r.type = { kind: "unknown" };
      }
    }
    if (r.fieldsAreParams && r.type.kind === "object") {
      const names = r.type.members.map((x) => x.name);
      const target = methods.find((m) => names.length > 0 && names.every((n) => m.params.some((p) => p.name === n)));
      const rest = r.type;
      r.type = {
        ...rest,
        members: rest.members.map((x) => {
          const p = target?.params.find((q) => q.name === x.name);
          return p ? { ...x, type: p.type, nullable: p.nullable, description: p.description || x.description } : x;
        }),
      };
    }
    delete r.fieldsAreParams;
    const verb = r.returnedByVerb;
    if (verb !== undefined) {
      const stem = pascal(r.title).replace(/^./, (c) => c.toLowerCase());
      const m = methods.find((x) => x.name.endsWith(`.${verb}`) && x.name.includes(stem));
      if (m) r.returnedBy.push(m.name);
      delete r.returnedByVerb;
    }
  }
  const resolveRefs = (m: Method, t: TypeRef): TypeRef =>
    mapType(t, (x) => {
      if (x.kind !== "unresolved") return x;
      // "`result.task` holds the task; includes `archiveLink` (…)": the titled resource and the members beside it.
      if (x.by === "title" && x.with) {
        const r = resolver.byTitle(x.text);
        if (r) return { kind: "object", members: x.with, extends: r.name, open: true };
        warn(x.text, "resource", m.result?.source ?? m.source);
        return { kind: "object", members: x.with, open: true };
      }
      if (x.by === "title") {
        const r = resolver.byTitle(x.text) ?? resolver.returnedBy(m.name);
        if (r) return { kind: "ref", resource: r.name };
        warn(x.text, "resource", m.result?.source ?? m.source);
        return { kind: "unknown", note: x.text };
      }
      if (x.by === "returned-by") {
        const r = resolver.returnedBy(m.name);
        // "Response `result`: user object." then "includes `archiveLink` (…)": the resource and the members beside it.
        if (x.with) {
          if (r) return { kind: "object", members: x.with, extends: r.name, open: true };
          warn(m.name, "resource returned by", m.result?.source ?? m.source);
          return { kind: "object", members: x.with, open: true };
        }
        if (r) return { kind: "ref", resource: r.name };
        const member = x.member;
        if (member) {
          return { kind: "object", members: [{ name: member, type: { kind: "unknown" }, required: true, nullable: false, description: "", source: m.result?.source ?? m.source }] };
        }
        warn(m.name, "resource returned by", m.result?.source ?? m.source);
        return { kind: "unknown" };
      }
      return x;
    });
  /** The link a resource gives for this method's result under `key`: one for the method's version first. */
  const linkFor = (m: Method, key: string | null): { resource: Resource; many: boolean } | null => {
    let loose: { resource: Resource; many: boolean } | null = null;
    for (const r of resources) {
      for (const l of r.links) {
        if (l.method !== m.name || l.key !== key) continue;
        if (l.version === m.version) return { resource: r, many: l.many };
        if (l.version === null) loose ??= { resource: r, many: l.many };
      }
    }
    return loose;
  };
  for (const m of methods) {
    if (m.result) m.result = { ...m.result, type: resolveRefs(m, m.result.type) };
    // "Response `result.task`." names no resource; the resource's "Returned by ... (key `task` inside `result`)" does.
    if (m.result && m.result.type.kind === "unknown" && m.result.type.note === undefined) {
      const link = linkFor(m, m.result.key);
      if (link) {
        const ref: TypeRef = { kind: "ref", resource: link.resource.name };
        m.result = { ...m.result, type: link.many ? { kind: "array", items: ref } : ref };
      }
    }
    // A resource that names this method as the one returning its items ("`placement.get` item") gives the result.
    if (!m.result) {
      const r = resolver.returnedBy(m.name);
      if (r) {
        // "`placement.get` item" in its title, or "**Item of:** `m`." in its text: the result is a list of them.
        const item = /\bitem\b/.test(r.title) || r.links.some((l) => l.method === m.name && l.key === null && l.many);
        m.result = {
          type: item ? { kind: "array", items: { kind: "ref", resource: r.name } } : { kind: "ref", resource: r.name },
          key: null,
          description: `See ${r.title}.`,
          empty: [],
          source: r.source,
        };
      }
    }
  }
  // Array items named by a noun that is a shape of the same area ("each an array of reminders").
  for (const m of methods) {
    for (const p of m.params) {
      p.type = mapType(p.type, (x) => {
        if (x.kind === "unknown" && x.note) {
          const r = resolver.byTitle(x.note.replace(/s$/, ""));
          if (r) return { kind: "ref", resource: r.name };
        }
        return x;
      });
    }
  }
  for (const r of resources) {
    r.type = mapType(r.type, (x) => {
      if (x.kind === "unknown" && x.note) {
        const target = resolver.byTitle(x.note.replace(/s$/, ""));
        if (target && target !== r) return { kind: "ref", resource: target.name };
      }
      return x;
    });
  }
}

/** Normalized resource title for matching "see Allowed actions", "array of pay system items", "the task". */
function titleKey(title: string): string {
  return title
    .toLowerCase()
    .split("\n")
    .map(withoutParenSpan)
    .join("\n")
    .replace(/^(the|a|an)\s+/, "")
    // From a run of spaces' start only: tried from each space of a long run, it took time in its square (review).
    .replace(/(?<!\s)\s+(items?|record|object)$/, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

interface Resolver {
  byTitle(title: string): Resource | undefined;
  returnedBy(method: string): Resource | undefined;
}

function makeResolver(resources: Resource[]): Resolver {
  return {
    byTitle(title) {
      const key = titleKey(title);
      if (!key) return undefined;
      return (
        resources.find((r) => titleKey(r.title) === key) ??
        resources.find((r) => titleKey(r.title).startsWith(`${key} `)) ??
        resources.find((r) => r.name.toLowerCase() === key.replace(/ /g, ""))
      );
    },
    returnedBy(method) {
      return resources.find((r) => r.returnedBy.includes(method));
    },
  };
}

