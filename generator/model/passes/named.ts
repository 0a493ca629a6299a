import { emptyMethod, everyStatement } from "../fragments.js";
import type { Field, Method, Resource, Source, Statement, Version } from "../types.js";
import type { PassContext } from "./context.js";

/**
 * Pass 3: the methods the input only names (a named-methods list, the file retrieval table, method names in its
 * words), each a method of the model that is not described.
 */
export function addNamedMethods(ctx: PassContext): void {
  const { f, methods, resources, find, specFile } = ctx;
  // Methods the spec only names: the named-methods list, the file retrieval table, and method names in text.
  // Every proper prefix of a method's name (`sign.b2e` of `sign.b2e.personal.tail`), kept as methods are added: a
  // name that prefixes a method is not a method of its own. A set, not a scan of the methods for every name.
  const prefixes = new Set<string>();
  const addPrefixes = (name: string) => {
    for (let i = name.indexOf("."); i >= 0; i = name.indexOf(".", i + 1)) prefixes.add(name.slice(0, i));
  };
  for (const m of methods) addPrefixes(m.name);
  const namedOnly = (name: string, version: Version, area: string, source: Source) => {
    if (find(name)) {
      const m = find(name);
      if (m && !m.described) m.mentions.push(source);
      return;
    }
    methods.push(undescribed(name, version, area, source));
    addPrefixes(name);
  };
  for (const n of f.facts.named) namedOnly(n.name, n.version ?? "legacy", n.area, n.source);
  for (const row of f.facts.fileRetrieval) for (const name of row.methods) namedOnly(name, "legacy", "Retrieving file content", row.source);
  const resultMembers = new Set<string>();
  for (const m of methods) {
    const t = m.result?.type;
    if (t?.kind === "object") for (const x of t.members) resultMembers.add(x.name);
  }
  const envelopeRoots = new Set(["result", "time", ...(f.facts.envelope?.members.map((x) => x.name) ?? [])]);
  const v3Mentions = new Set(f.facts.v3Mentions ?? []);
  for (const s of everyStatement(f, methods, resources)) {
    for (const ref of s.refs) {
      if (!METHOD_NAME.test(ref)) continue;
      const root = ref.split(".")[0] ?? "";
      if (envelopeRoots.has(root) || resultMembers.has(root)) continue;
      if (prefixes.has(ref)) continue;
      namedOnly(ref, v3Mentions.has(`${s.source.line}:${s.source.column}:${ref}`) ? "v3" : "legacy", "", s.source);
    }
  }
  for (const r of resources) for (const name of r.returnedBy) if (METHOD_NAME.test(name)) namedOnly(name, "legacy", "", r.source);
  // A method named in a parameter's or a field's words ("currency code from `crm.currency.list`") or in an error's
  // cause is named too (issue 26: named in passing is named).
  // In the platform's reference every method has a page of its own, so a dotted name in a field's words whose first
  // part no page's method starts with is a path or a type word (`pagination.limit`, `filter.participantId`,
  // `crm_currency.CURRENCY`), not a method: named so, it became a method of the client.
  const roots = f.facts.publicPages ? new Set(methods.filter((m) => m.described).map((m) => m.name.split(".")[0] ?? "")) : null;
  const inWords = (text: string | null, at: Source) => {
    for (const ref of (text ?? "").matchAll(/`([a-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+)`/g)) {
      const name = ref[1] ?? "";
      const root = name.split(".")[0] ?? "";
      if (envelopeRoots.has(root) || resultMembers.has(root) || prefixes.has(name)) continue;
      if (roots && !roots.has(root)) continue;
      namedOnly(name, "legacy", "", at);
    }
  };
  const fieldWords = (fields: Field[]) => {
    for (const x of fields) {
      inWords(x.description, x.source ?? at0);
      const t = x.type.kind === "array" ? x.type.items : x.type;
      if (t.kind === "object") fieldWords(t.members);
    }
  };
  const at0 = f.title.source ?? { file: specFile, line: 1, column: 1 };
  for (const m of [...methods]) {
    if (!m.described) continue;
    fieldWords(m.params);
    inWords(m.description, m.source);
    for (const e of m.errors) inWords(e.cause, e.source);
  }
  for (const r of resources) if (r.type.kind === "object") fieldWords(r.type.members);
  for (const row of f.facts.fileRetrieval) inWords(row.field, row.source);
  for (const l of f.facts.limits) {
    for (const ref of l.appliesTo.matchAll(/`([^`]+)`/g)) if (METHOD_NAME.test(ref[1] ?? "")) namedOnly(ref[1] ?? "", "legacy", "", l.source);
  }
}

const METHOD_NAME = /^[a-z][A-Za-z0-9_]*(?:\.(?:[A-Za-z0-9_]+|\*))+$/;

function undescribed(name: string, version: Version, area: string, source: Source): Method {
  return { ...emptyMethod(name, version, area, source), described: false, mentions: [source] };
}

