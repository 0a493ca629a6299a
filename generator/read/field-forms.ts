import type { CatalogueError, Field, Method, Resource, TypeRef } from "../model/types.js";

/**
 * The sentence forms of a field's own words, of a resource's title and notes, and of an error catalogue's cause
 * (decisions.md D30: a row each, `{ id, match, read, doc }`). Each turns words that name something in backticks into
 * a typed fact of the field, the resource or the error, so that the no-drop ledger (read/ledger.ts) finds the name
 * placed. They run once over the fragments, after every reader, whatever surface the field was written in. `doc` is
 * the row of spec-source/README.md's table of field forms.
 */
export interface FieldForm<T> {
  id: string;
  match: RegExp;
  read: (target: T, m: RegExpExecArray) => void;
  doc: { example: string; fact: string };
}

/** The backticked names of a list ("`a`, `b` or `c`"). */
function ticked(list: string): string[] {
  return [...list.matchAll(/`([^`]+)`/g)].map((x) => x[1] ?? "");
}

/** A list of backticked names joined by commas, "or" and "and". */
const LIST = String.raw`((?:\x60[^\x60]+\x60(?:\s*,\s*|\s+or\s+|\s+and\s+)?)+)`;

/** Known values of the field (of its items when it is an array), with no type of their own. */
function addKnown(f: Field, values: string[]): void {
  f.knownValues = [...new Set([...(f.knownValues ?? []), ...values])];
}

/**
 * "`=%` and `%=` (LIKE, `%` given in value)": the prefixes of a list, each with the words in parentheses after it.
 * Written by hand: the list is split at top-level commas only, since meanings hold commas of their own.
 */
function prefixList(list: string): Array<{ prefix: string; meaning: string }> {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < list.length; i++) {
    const ch = list[i];
    if (ch === "(") depth++;
    else if (ch === ")" && depth > 0) depth--;
    else if (ch === "," && depth === 0) {
      parts.push(list.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(list.slice(from));
  const out: Array<{ prefix: string; meaning: string }> = [];
  for (const part of parts) {
    const open = part.indexOf("(");
    const head = open < 0 ? part : part.slice(0, open);
    const meaning = open < 0 ? "" : part.slice(open + 1, part.lastIndexOf(")") < 0 ? undefined : part.lastIndexOf(")")).trim();
    for (const prefix of ticked(head)) out.push({ prefix, meaning });
  }
  return out;
}

export const FIELD_FORMS: ReadonlyArray<FieldForm<Field>> = [
  {
    id: "key-prefixes",
    match: /\bthe key may carry a prefix:\s*(.+?)\.?$/,
    read: (f, m) => {
      f.keyPrefixes = prefixList(m[1] ?? "");
    },
    doc: { example: "`FILTER` object; the key may carry a prefix: `>=`, `@` (IN, array value), `!`", fact: "`keyPrefixes`: each prefix with its meaning" },
  },
  {
    id: "url-schemes",
    // "URL with scheme …", "URL with the scheme …", "URL, scheme …" (the rewrites by other hands write the last two).
    match: new RegExp(String.raw`\bURL(?:,| with(?: the)?) schemes? ${LIST}`),
    read: (f, m) => {
      f.schemes = ticked(m[1] ?? "");
    },
    doc: { example: "`handler` string, URL with scheme `http` or `https`", fact: "`schemes`" },
  },
  {
    id: "value-means",
    match: /(?:^|[;.]\s*)`([^`\s]+)` means\b/,
    read: (f, m) => addKnown(f, [m[1] ?? ""]),
    doc: { example: "`select` array of field names; `*` means all available fields", fact: "a known value of the field (its items for an array)" },
  },
  {
    id: "returned-when-named",
    match: new RegExp(String.raw`(?:^|[;.]\s*)${LIST}(?:\s*(?:,\s*)?and [^\x60;.]+?)? are returned only when named in \x60\w+\x60`),
    read: (f, m) => addKnown(f, ticked(m[1] ?? "")),
    doc: { example: "`UF_CRM_TASK`, `UF_MAIL_MESSAGE` and custom user fields are returned only when named in `select`", fact: "known values of the field" },
  },
  {
    id: "returned-by-default",
    match: /(?:^|[;.]\s*)`(\w+)` is returned by default\b/,
    read: (f, m) => addKnown(f, [m[1] ?? ""]),
    doc: { example: "`CHAT_ID` is returned by default", fact: "a known value of the field" },
  },
  {
    id: "selected-by-name",
    match: /\bselected by the name `(\w+)`/,
    read: (f, m) => {
      f.selectAs = m[1] ?? "";
    },
    doc: { example: "TARIFF (selected by the name `TARIF`)", fact: "`selectAs`: the name a `select` gives for the field" },
  },
  {
    id: "feature-code",
    match: /\bcheck with `([a-z][\w.]*)` code `(\w+)`/,
    read: (f, m) => {
      f.feature = { method: m[1] ?? "", code: m[2] ?? "" };
    },
    doc: { example: "Available only on some plans; check with `feature.get` code `rest_auth_connector`", fact: "`feature`: the method and code that tell whether the field is available" },
  },
  {
    id: "member-for-value",
    match: /\bfor `(\w+)` member `(\w+)`/,
    read: (f, m) => {
      const t = f.type.kind === "object" ? f.type : null;
      const member = t?.members.find((x) => x.name === m[2]);
      if (member) member.appliesWhen = [m[1] ?? ""];
    },
    doc: { example: "`options` object; for `ONOFFLINEEVENT` member `minTimeout` (seconds)", fact: "`appliesWhen` of the member: the value it is for" },
  },
];

export const RESOURCE_FORMS: ReadonlyArray<FieldForm<Resource>> = [
  {
    id: "fields-by-scope",
    match: new RegExp(String.raw`\bfield(?:s| set) (?:(?:are|is) returned )?depends? on (?:the )?scope \(${LIST}\)`, "i"),
    read: (r, m) => {
      r.fieldScopes = ticked(m[1] ?? "");
      // No field is always present when the set depends on the scope.
      if (r.type.kind === "object") for (const f of r.type.members) f.required = false;
    },
    doc: { example: "The set of returned fields depends on the scope (`user`, `user_brief`) · Which fields are returned depends on the scope (…)", fact: "`fieldScopes`, and no field is always present" },
  },
  {
    id: "member-name",
    match: /^[^`(]*\(`([A-Za-z_]\w*)` object\)/,
    read: (r, m) => {
      r.memberName = m[1] ?? "";
    },
    doc: { example: "Attached vote (`attach` object): ID, VOTE_ID, …", fact: "`memberName`: the member that holds the resource where it appears" },
  },
  {
    id: "member-name-first",
    match: /^`([A-Za-z_]\w*)`:\s/,
    read: (r, m) => {
      r.memberName = m[1] ?? "";
    },
    doc: { example: "`allowedActions`: object keyed by user id; … (a resource's first words)", fact: "`memberName`" },
  },
];

export const CATALOGUE_FORMS: ReadonlyArray<FieldForm<CatalogueError>> = [
  {
    id: "text-for",
    match: /\btext for (\w+): `([^`]+)`/,
    read: (e, m) => {
      (e.variants ??= []).push({ when: m[1] ?? "", text: m[2] ?? "", ending: false });
    },
    doc: { example: "text for webhooks: `REST is available only by subscription`", fact: "a variant text of the error, with who gets it" },
  },
  {
    id: "text-ends-with",
    match: /\bfor (\w+) the text ends (?:with|w\/) `([^`]+)`/i,
    read: (e, m) => {
      (e.variants ??= []).push({ when: m[1] ?? "", text: m[2] ?? "", ending: true });
    },
    doc: { example: "for applications the text ends with `provided by the access token`", fact: "a variant ending of the error's text, with who gets it" },
  },
];

function apply<T>(forms: ReadonlyArray<FieldForm<T>>, target: T, text: string): void {
  for (const form of forms) {
    const m = form.match.exec(text);
    if (m) form.read(target, m);
  }
}

function fieldsOf(t: TypeRef, each: (f: Field) => void): void {
  if (t.kind === "object") {
    for (const m of t.members) {
      each(m);
      fieldsOf(m.type, each);
    }
    if (t.additional) fieldsOf(t.additional, each);
  } else if (t.kind === "array") fieldsOf(t.items, each);
  else if (t.kind === "union") for (const o of t.options) fieldsOf(o, each);
}

/** Runs the forms over every field, resource and catalogue error of the fragments. */
export function readFieldForms(methods: Method[], resources: Resource[], catalogue: CatalogueError[], envelope: Field[]): void {
  const field = (f: Field) => apply(FIELD_FORMS, f, f.description);
  for (const m of methods) {
    for (const p of m.params) {
      field(p);
      fieldsOf(p.type, field);
    }
    if (m.result) fieldsOf(m.result.type, field);
  }
  for (const r of resources) {
    fieldsOf(r.type, field);
    apply(RESOURCE_FORMS, r, r.title);
    apply(RESOURCE_FORMS, r, r.description);
    for (const n of r.notes) apply(RESOURCE_FORMS, r, n.text);
  }
  for (const f of envelope) field(f);
  for (const e of catalogue) apply(CATALOGUE_FORMS, e, e.cause ?? "");
}
