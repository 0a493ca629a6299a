import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";
import { emptyMethod } from "../model/fragments.js";
import type { Field, Method, MethodError, ResultSpec, Source, TypeRef, Version } from "../model/types.js";
import { type YfmBlock, type YfmPage, slugOf } from "../yfm/blocks.js";
import type { YfmCell } from "../yfm/tables.js";
import { errorColumns, readErrorRows } from "./errors.js";
import { type AnchoredTable, FIELD_BUDGET, boldName, type FieldScope, fieldColumns, nest, plainText, readFieldRows } from "./fields.js";
import { readTypeWords } from "./type-words.js";

/**
 * A method page of the reference (spec-source/README-reference.md#method-pages):
 *
 *     # Add Task tasks.task.add                      the method's name ends the title (or is in it)
 *     > Scope: [`task`](…)
 *     >
 *     > Who can execute the method: any user
 *     ## Method Parameters                           a field table; nested objects under H3/H4, by anchor
 *     ## Code Examples                               cURL tabs: the URL says /rest/ or /rest/api/ (3.0)
 *     ## Response Handling  / ### Returned Data      `result` (and `time`) rows
 *     ## Error Handling     / ### Possible Error Codes
 *
 * Headings are known by their words in any case and in their variants (SECTIONS), at level 2 or 3.
 */

type SectionKind = "parameters" | "examples" | "response" | "returned" | "errors" | "error-codes" | "learning" | "handler";

/** Each section's headings, lower case, without their anchor. */
const SECTIONS: Array<[SectionKind, RegExp]> = [
  ["parameters", /^(method )?parameters$|^parameters of the method$|^input parameters$/],
  ["examples", /^code examples?$|^examples?$/],
  ["returned", /^returned (data|values|fields)$|^response fields$/],
  ["response", /^response handling$|^response on success$|^successful response$|^response$/],
  ["error-codes", /^possible (error codes|errors)$|^error codes$/],
  ["errors", /^error handling$|^errors$/],
  ["learning", /^continue (learning|exploring|your exploration)$/],
  ["handler", /^what the handler receives$/],
];

const METHOD_NAME = /^[a-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+$/;

/**
 * The method a title names: its last word, else the first word that is a method's name. Words are split by hand and
 * matched whole (a regex scanning a title for a name at its end backtracks quadratically on long titles).
 */
function methodOfTitle(title: string): string | null {
  const words = title.split(/\s+/).map((w) => w.replace(/^[`(]+|[`),:;.]+$/g, "")).filter(Boolean);
  const last = words.at(-1);
  if (last && METHOD_NAME.test(last)) return last;
  return words.find((w) => METHOD_NAME.test(w)) ?? null;
}
const URL_METHOD = /\/rest\/(api\/)?(?:[^\s'"/]+\/)*([a-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+)(?=[\s'"?\\]|$)/g;

export interface PageReading {
  method: Method | null;
  /** The envelope's paging members a list method's returned data names (`total`, `next`), as the page types them. */
  envelope?: Field[];
  /** Why the page is not a method page, when it is not. */
  skipped?: "no-title" | "no-method-name" | "not-a-method-page";
}

export interface PageScope {
  diagnostics: Diagnostic[];
  /** A type word of the catalogue (data-types.md and the areas' own), or null. */
  typeWord(word: string, role?: "parameter"): TypeRef | null;
  /** The catalogue's words, for "did you mean". */
  knownWords(): Iterable<string>;
  /** The catalogue's tables by anchor (`#time`, `#crm_multifield`), for links into data-types.md. */
  catalogueTable(anchor: string): { rows: YfmCell[][] } | null;
  /**
   * The table a link names in a page of the folder, relative to `from` (`../entities.md#user`; `#user` alone is
   * `from`'s own), with the file it was found in; optional (a page read on its own follows no links out).
   */
  tableIn?(from: string, link: string): (AnchoredTable & { key: string; file: string; anchor: string }) | null;
}

const srcOf = (b: { file: string; line: number; column: number }): Source => ({ file: b.file, line: b.line, column: b.column });
const spanOf = (b: { file: string; line: number; column: number }, length: number) => ({ ...srcOf(b), endLine: b.line, endColumn: b.column + Math.max(1, length) });

/** Reads a page of the reference; a page that is not a method page gives no method and no warning. */
export function readPage(page: YfmPage, area: string, scope: PageScope): PageReading {
  const own = page.blocks.filter((b) => b.file === page.file);
  const title = own.find((b): b is Extract<YfmBlock, { kind: "heading" }> => b.kind === "heading" && b.depth === 1);
  if (!title) return { method: null, skipped: "no-title" };
  const sections = sectionsOf(page.blocks);
  const urls = urlMethods(page.blocks);
  const titleWords = title.text.replace(/`/g, "");
  const fromTitle = methodOfTitle(titleWords);
  const hasParameters = sections.some((s) => s.kind === "parameters");
  const name = fromTitle ?? (hasParameters ? (urls.names[0] ?? null) : null);
  if (!name) return { method: null, skipped: hasParameters ? "no-method-name" : "not-a-method-page" };
  const quote = own.find((b) => b.kind === "quote" && /\bScope\b/i.test(b.text));
  // A page that names a method in its title but neither describes parameters, nor has a scope line, nor calls
  // that method in its examples is about the method (an overview, a migration guide), not its reference page.
  if (!hasParameters && !quote && !urls.names.includes(name)) return { method: null, skipped: "not-a-method-page" };
  if (fromTitle && urls.names.length > 0 && !urls.names.includes(fromTitle)) {
    scope.diagnostics.push(diagnostic("title-method-mismatch", spanOf(title, title.text.length + 2), { title: fromTitle, urls: [...new Set(urls.names)].slice(0, 3).join(", ") }));
  }
  const v3 = urls.v3 || page.included.some((f) => /error-info-v3\.md$/.test(f));
  const version: Version = v3 ? "v3" : "legacy";
  const method = emptyMethod(name, version, area, srcOf(title));
  readHead(method, own, page.blocks, scope);
  // Every field table of the parameters and the returned data is read, directly or through a link, or warned.
  const used = new Set<YfmBlock | YfmCell[][]>();
  const markUsed = (t: SectionTable) => {
    used.add(t);
    for (const v of t.parts ?? []) used.add(v.rows);
  };
  let index: HeadingIndex | null = null;
  const headings = () => (index ??= headingIndex(page.blocks));
  const included = new Set(page.included);
  const pageScope: FieldScope = {
    file: page.file,
    diagnostics: scope.diagnostics,
    tableAt: (anchor) => {
      const t = tableAt(page.blocks, headings(), anchor);
      if (t) markUsed(t);
      return t ?? scope.catalogueTable(anchor);
    },
    // The page and the files it includes are one page: their anchors are its own.
    own: (file) => file === page.file || included.has(file),
    // A link back into this page is this page's own table (so that the table counts as used).
    tableIn: (from, link) => {
      const found = scope.tableIn?.(from, link) ?? null;
      if (found?.file !== page.file) return found;
      const own = tableAt(page.blocks, headings(), found.anchor);
      if (own) markUsed(own);
      return own ? { ...own, key: found.key } : null;
    },
    typeWord: scope.typeWord,
    knownWords: scope.knownWords,
    budget: { left: FIELD_BUDGET, warned: false },
    read: [],
    merged: new Set(),
    tableNamed: (name) => {
      const found = tableNamed(page.blocks, headings(), name);
      if (found) markUsed(found.table);
      return found ? { ...found.table, anchor: found.anchor } : null;
    },
  };
  const envelope: Field[] = [];
  for (const s of sections) {
    if (s.kind === "parameters") readParameters(method, s, { ...pageScope, parameters: true }, used);
    else if (s.kind === "returned" || s.kind === "response") readReturned(method, s, pageScope, used, envelope);
    else if (s.kind === "errors" || s.kind === "error-codes") method.errors.push(...readErrors(s, scope));
  }
  readAtLeastOne(method, own, scope.diagnostics);
  readRequiredWhen(method);
  warnUnused(sections, used, scope.diagnostics);
  warnDropped(method, envelope, pageScope.read ?? [], pageScope.merged ?? new Set(), scope.diagnostics);
  if (method.errors.length === 0) method.errorsOpen = { reason: "the page lists no errors of its own", source: srcOf(title) };
  return { method, ...(envelope.length > 0 ? { envelope } : {}) };
}

/**
 * The page's ledger (issue 26's rule, for pages): every row a field table's reader read is a fact the method holds
 * (a parameter, a member of its result at any depth, a member of the envelope) or has a warning on its line. A row
 * read and then set aside by a later reading, with nothing said, is the silent drop this turns into a warning.
 */
/** A position as a key; rows of an include keep their own file, so the file is part of it. */
const positionKey = (s: Source) => `${s.file}:${s.line}:${s.column}`;

function warnDropped(method: Method, envelope: Field[], read: ReadonlyArray<{ name: string; source: Source }>, merged: ReadonlySet<string>, diagnostics: Diagnostic[]): void {
  if (read.length === 0) return;
  const key = positionKey;
  const held = new Set<string>();
  const walk = (t: TypeRef): void => {
    if (t.kind === "object") for (const f of t.members) hold(f);
    else if (t.kind === "array") walk(t.items);
    else if (t.kind === "union") for (const o of t.options) walk(o);
  };
  const hold = (f: Field) => {
    if (f.source) held.add(key(f.source));
    walk(f.type);
  };
  for (const p of method.params) hold(p);
  for (const f of envelope) hold(f);
  if (method.result) {
    held.add(key(method.result.source));
    walk(method.result.type);
  }
  // Only a warning that says the row is not placed, or placed one of two ways, speaks for it (an unknown type word
  // on its line says it was read, not that it was dropped).
  const warned = new Set(diagnostics.filter((d) => d.code === "unplaced" || d.code === "ambiguous-reading").map((d) => `${d.file}:${d.line}`));
  const said = new Set<string>();
  for (const r of read) {
    const k = key(r.source);
    // A row `X[]` that became X, or X's items, is held where X is (withSiblings says which it merged).
    if (held.has(k) || merged.has(k) || warned.has(`${r.source.file}:${r.source.line}`) || said.has(k)) continue;
    said.add(k);
    diagnostics.push(diagnostic("unplaced", spanOf(r.source, r.name.length + 4), { what: `the row '${r.name}': read from its table, but no parameter, result member or envelope member of ${method.name} holds it` }));
  }
}

interface PageSection {
  kind: SectionKind | null;
  heading: Extract<YfmBlock, { kind: "heading" }>;
  blocks: YfmBlock[];
}

/** The page's sections at level 2 and 3 that SECTIONS knows, each with its blocks up to the next such heading. */
function sectionsOf(blocks: YfmBlock[]): PageSection[] {
  const out: PageSection[] = [];
  let current: PageSection | null = null;
  for (const b of blocks) {
    if (b.kind === "heading" && (b.depth === 2 || b.depth === 3)) {
      const words = b.text.replace(/[`*]/g, "").trim().toLowerCase();
      const kind = SECTIONS.find(([, re]) => re.test(words))?.[0] ?? null;
      if (kind !== null || b.depth === 2) {
        current = { kind, heading: b, blocks: [] };
        out.push(current);
        continue;
      }
    }
    current?.blocks.push(b);
  }
  return out;
}

/** The method names of the page's request URLs, and whether one is a 3.0 URL (`/rest/api/`). */
function urlMethods(blocks: YfmBlock[]): { names: string[]; v3: boolean } {
  const names: string[] = [];
  let v3 = false;
  for (const b of blocks) {
    if (b.kind !== "code" && b.kind !== "text") continue;
    for (const m of b.text.matchAll(URL_METHOD)) {
      if (m[1]) v3 = true;
      // `placement.list.json`: the answer's format, a suffix the platform's URLs may carry, is no part of the name.
      names.push((m[2] as string).replace(/\.(?:json|xml)$/, ""));
    }
  }
  return { names, v3 };
}

/** Scope, who may call, deprecation and the description: what the page says before its first section. */
function readHead(method: Method, own: YfmBlock[], all: YfmBlock[], scope: PageScope): void {
  const firstSection = own.findIndex((b) => b.kind === "heading" && b.depth >= 2);
  const head = firstSection < 0 ? own : own.slice(0, firstSection);
  for (const b of head) {
    if (b.kind !== "quote") continue;
    for (const line of b.text.split("\n")) {
      const scopeLine = /^\s*Scope\s*:\s*(.*)$/i.exec(line);
      if (scopeLine) {
        const names = [...(scopeLine[1] ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
        if (names.length > 0) method.scopes = names;
        else if (/\bany\b|\bdepends\b/i.test(scopeLine[1] ?? "")) method.scopeNote = plainText(scopeLine[1] ?? "");
      }
      const who = /^\s*Who can (?:execute|call|use) (?:the|this) method\s*:\s*(.*)$/i.exec(line);
      if (who) {
        const text = plainText((who[1] ?? "").replace(/`/g, ""));
        if (text) method.access = { who: whoOf(text), text };
      }
    }
  }
  if (method.scopes === null) scope.diagnostics.push(diagnostic("missing-scope", spanOf(method.source, method.name.length), { name: method.name }));
  // A DEPRECATED note anywhere before the parameters, and the method it names instead.
  const start = all.findIndex((b) => b.kind === "note" && /deprecat/i.test(b.title));
  if (start >= 0) {
    const end = all.findIndex((b, i) => i > start && b.kind === "end-note");
    const words = all
      .slice(start + 1, end < 0 ? undefined : end)
      .map((b) => ("text" in b && b.kind === "text" ? b.text : ""))
      .join(" ");
    const replacement = /\[`?([a-z][\w]*(?:\.[\w]+)+)`?\]\(/.exec(words)?.[1] ?? /`([a-z][\w]*(?:\.[\w]+)+)`/.exec(words)?.[1] ?? null;
    method.deprecated = { replacement: replacement === method.name ? null : replacement, text: plainText(words) || "Deprecated." };
  }
  // The description is the first paragraph outside the notes (a DEPRECATED or AI-tools note comes first on many pages).
  let inNote = 0;
  const description = head.find((b) => {
    if (b.kind === "note") inNote++;
    else if (b.kind === "end-note") inNote = Math.max(0, inNote - 1);
    return inNote === 0 && b.kind === "text" && !/^\{%/.test(b.text);
  });
  if (description && description.kind === "text") method.description = plainText(description.text);
}

/**
 * "At least one of the parameters must be specified: `USER_ID` or `USER_PHONE_INNER`", in the page's text or a
 * parameter's description: an `at-least-one` constraint of the method (the model stage then reads a starred one of
 * them as not required on its own, with a warning: decisions.md D8). Names that are not the method's parameters
 * (members of `fields`) cannot be a constraint of the method: a warning says so.
 */
const AT_LEAST_ONE = /^at least one of\b[^:`|]{0,120}?\b(?:must|should|has to|needs to) be (?:specified|provided|present|filled|passed|given)\b[^:`|]{0,60}:?\s*((?:`[^`]{1,80}`(?:\s*(?:,|or|and)\s*)?){2,20})/i;

/** Each "at least one of …" of a text: found with indexOf, matched from there over a bounded slice (linear). */
function* atLeastOneOf(text: string): Generator<RegExpExecArray> {
  const lower = text.toLowerCase();
  for (let i = lower.indexOf("at least one of"); i >= 0; i = lower.indexOf("at least one of", i + 1)) {
    const m = AT_LEAST_ONE.exec(text.slice(i, i + 2_000));
    if (m) yield m;
  }
}

function readAtLeastOne(method: Method, own: YfmBlock[], diagnostics: Diagnostic[]): void {
  const texts: Array<{ text: string; at: { file: string; line: number; column: number } }> = [
    ...own.flatMap((b) => (b.kind === "text" || b.kind === "quote" ? [{ text: b.text, at: b }] : [])),
    ...method.params.map((p) => ({ text: p.description, at: p.source })),
  ];
  const seen = new Set<string>();
  for (const { text, at } of texts) {
    for (const m of atLeastOneOf(text)) {
      const names = [...(m[1] ?? "").matchAll(/`([^`]+)`/g)].map((x) => x[1] as string);
      const key = names.join(",");
      if (seen.has(key)) continue;
      seen.add(key);
      if (names.every((n) => method.params.some((p) => p.name === n))) {
        method.constraints.push({ kind: "at-least-one", params: names, text: plainText(m[0]), source: srcOf(at) });
      } else {
        diagnostics.push(diagnostic("unplaced", spanOf(at, 1), { what: `"at least one of ${names.join(", ")}": not all of them are parameters of ${method.name}, so no constraint of the method holds it` }));
      }
    }
  }
}

/**
 * A parameter's description that requires it under a condition only: "Required only for webhooks", "Required if
 * `USE_PLACEMENT = 'Y'`". "Required if `X` is not provided" of a parameter `X` is an "at least one of" the two. The
 * model stage reads a starred one as not required on its own (D8).
 */
const REQUIRED_WHEN = /\b(?:this parameter is |the parameter is )?required (only )?(if|when|for|unless) ([^.;|]+)/i;

function readRequiredWhen(method: Method): void {
  for (const p of method.params) {
    const m = REQUIRED_WHEN.exec(p.description);
    if (!m) continue;
    const condition = `${m[2]} ${(m[3] ?? "").trim()}`;
    const other = /^if `([A-Za-z_]\w*)` is not (?:provided|specified|passed|set)$/i.exec(condition)?.[1];
    if (other && method.params.some((q) => q.name === other)) {
      method.constraints.push({ kind: "at-least-one", params: [p.name, other], text: plainText(m[0]), source: p.source });
      continue;
    }
    method.constraints.push({ kind: "required-when", params: [p.name], condition, text: plainText(m[0]), source: p.source });
  }
}

/** Who may call, as the model's words: `any`, `administrator`, `crm-administrator`, else the page's words. */
function whoOf(text: string): string {
  const t = text.toLowerCase().replace(/\.$/, "").trim();
  if (t === "any user" || t === "all users") return "any";
  if (t === "administrator" || t === "portal administrator" || t === "bitrix24 administrator") return "administrator";
  if (t === "crm administrator") return "crm-administrator";
  return t;
}

type SectionTable = Extract<YfmBlock, { kind: "table" }> & { parts?: Array<{ rows: YfmCell[][]; label: string | null }> };

/** A paragraph that names the member whose fields the next table lists: "**Object** `automatedSolution`:". */
const MEMBER_LABEL = /^(?:\*\*(?:Object|Structure|Fields?(?: of)?)\*\*|Object|Structure of|Fields of) ?`([^`]+)`(?: (?:object|fields))?:?$/i;

/**
 * The page's headings by anchor (written, or the slug of their words) and by the field a sub-section is named after
 * ("Parameter fields", "FIELDS Parameter", "Object result", "Fields of the result object", in any case), built once
 * per page: a page's links ask it once each, in constant time, not with a scan of every heading.
 */
export interface HeadingIndex {
  byAnchor: Map<string, number>;
  byField: Map<string, { index: number; anchor: string }>;
}

const NAMED_SECTION = /^(?:parameter|object|fields of the|fields of)\s+(\S+)(?:\s+(?:parameter|object))?$|^(\S+)\s+(?:parameter|object)$/;

export function headingIndex(blocks: YfmBlock[]): HeadingIndex {
  const byAnchor = new Map<string, number>();
  const byField = new Map<string, { index: number; anchor: string }>();
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i] as YfmBlock;
    if (b.kind !== "heading") continue;
    const slug = slugOf(b.text);
    // The first heading of an anchor is the one a link reaches, as in the published page.
    for (const key of [(b.anchor ?? "").toLowerCase(), slug]) if (key && !byAnchor.has(key)) byAnchor.set(key, i);
    if (b.depth < 2) continue;
    const m = NAMED_SECTION.exec(b.text.replace(/[`*]/g, "").trim().toLowerCase());
    const field = m?.[1] ?? m?.[2];
    if (field && !byField.has(field) && sectionTables(blocks, i)) byField.set(field, { index: i, anchor: b.anchor ?? slug });
  }
  return { byAnchor, byField };
}

/** The table under the heading whose anchor is `anchor`, with every field table of its section (`parts`). */
export function tableAt(blocks: YfmBlock[], index: HeadingIndex, anchor: string): SectionTable | null {
  const i = index.byAnchor.get(anchor.toLowerCase());
  return i === undefined ? null : sectionTables(blocks, i);
}

function sectionTables(blocks: YfmBlock[], heading: number): SectionTable | null {
  const tables: Array<{ table: Extract<YfmBlock, { kind: "table" }>; label: string | null }> = [];
  for (let j = heading + 1; j < blocks.length; j++) {
    const n = blocks[j] as YfmBlock;
    if (n.kind === "heading") break;
    if (n.kind !== "table" || !n.rows[0] || !fieldColumns(n.rows[0])) continue;
    const before = blocks[j - 1];
    // Matched on the text with its spaces collapsed: the pattern then has no two runs of spaces side by side.
    tables.push({ table: n, label: before?.kind === "text" ? (MEMBER_LABEL.exec(before.text.replace(/\s+/g, " ").trim())?.[1] ?? null) : null });
  }
  const first = tables[0];
  if (!first) return null;
  return tables.length > 1 ? { ...first.table, parts: tables.map((t, i) => ({ rows: t.table.rows, label: i === 0 ? null : t.label })) } : first.table;
}

/** The table of the page's sub-section named after a field. */
function tableNamed(blocks: YfmBlock[], index: HeadingIndex, name: string): { table: SectionTable; anchor: string } | null {
  const found = index.byField.get(name.toLowerCase());
  const table = found ? sectionTables(blocks, found.index) : null;
  return found && table ? { table, anchor: found.anchor } : null;
}

function firstFieldTable(blocks: YfmBlock[]): { table: Extract<YfmBlock, { kind: "table" }>; cols: NonNullable<ReturnType<typeof fieldColumns>> } | null {
  const beforeHeading = blocks.findIndex((b) => b.kind === "heading");
  const head = beforeHeading < 0 ? blocks : blocks.slice(0, beforeHeading);
  const pick = head.some((b) => b.kind === "table") ? head : blocks;
  for (const b of pick) {
    if (b.kind !== "table") continue;
    const header = b.rows[0];
    const cols = header ? fieldColumns(header) : null;
    if (cols) return { table: b, cols };
  }
  return null;
}

/**
 * Field tables of the parameters and the returned data (and of the sections after them that hold their nested
 * objects) that no row reached: their fields are not in the model, so each is a warning.
 */
function warnUnused(sections: PageSection[], used: ReadonlySet<YfmBlock | YfmCell[][]>, diagnostics: Diagnostic[]): void {
  let inFields = false;
  for (const s of sections) {
    if (s.kind !== null) inFields = s.kind === "parameters" || s.kind === "returned" || s.kind === "response";
    if (!inFields) continue;
    let heading = s.heading.text;
    for (const b of s.blocks) {
      if (b.kind === "heading") heading = b.text;
      if (b.kind !== "table" || used.has(b) || used.has(b.rows) || b.file !== s.heading.file) continue;
      const header = b.rows[0];
      if (!header || !fieldColumns(header)) continue;
      diagnostics.push(diagnostic("unplaced", spanOf(b, 2), { what: `the field table under '${heading}' (${b.rows.length - 1} rows): no parameter or field links to it` }));
    }
  }
}

function readParameters(method: Method, s: PageSection, scope: FieldScope, used: Set<YfmBlock | YfmCell[][]>): void {
  const found = firstFieldTable(s.blocks);
  if (found) used.add(found.table);
  if (!found) {
    if (!s.blocks.some((b) => b.kind === "text" && /\bno parameters\b|\bwithout parameters\b/i.test(b.text))) {
      const t = s.blocks.find((b) => b.kind === "table");
      if (t) scope.diagnostics.push(diagnostic("unknown-table-column", spanOf(t, 2), { header: (t.kind === "table" ? t.rows[0] : [])?.map((c) => c.text.replace(/\s+/g, " ")).join(" | ") ?? "", known: "'Name `type` | Description'" }));
    }
    return;
  }
  method.params.push(...readFieldRows(scope, found.cols, found.table.rows.slice(1)));
}

function readReturned(method: Method, s: PageSection, scope: FieldScope, used: Set<YfmBlock | YfmCell[][]>, envelope: Field[]): void {
  if (method.result) return;
  const found = firstFieldTable(s.blocks);
  if (!found) return;
  used.add(found.table);
  // The envelope's own rows: `time` is read once from data-types.md; `total` and `next` (a list method's paging)
  // go to the envelope, where the front end keeps the first page's reading of each.
  const rows = found.table.rows.slice(1);
  const names = rowNames(rows, found.cols);
  envelope.push(...readFieldRows(scope, found.cols, rows, [], new Set(["time", ...names.filter((n) => !PAGING.has(n))])));
  const fields = readFieldRows(scope, found.cols, rows, [], ENVELOPE_ONLY);
  const result = fields.find((f) => f.name === "result");
  const members = fields.filter((f) => f.name !== "result");
  let type: TypeRef;
  let source: Source;
  let description = "";
  if (result) {
    // A fields method whose `result` row names the entity (`[lead](#lead)`, "contains information about lead
    // fields"): the entity's table lists the fields `result` describes, as below. A row typed `object` "described
    // below" lists result's own members (mailservice.fields: each field's name).
    const row = rows[names.indexOf("result")];
    const words = readTypeWords((found.cols.type !== null ? row?.[found.cols.type]?.text : row?.[found.cols.name]?.text) ?? "");
    const entity = words?.options.length === 1 && !/^(object|array)$/i.test(words.options[0]?.word ?? "");
    // So does one whose `result` row says its members describe fields ("Object with field descriptions", linked to
    // the table; "Array with the description of file fields", then the fields as rows beside it).
    const described = FIELDS_METHOD.test(method.name) && DESCRIBES_FIELDS.test(result.description);
    const linked = result.type.kind === "object" && result.type.members.length > 0 ? result.type.members : null;
    const beside = described && !linked && members.length > 0 && isBare(result.type) ? members : null;
    // Rows typed `object` already are the descriptions (crm.enum.fields): as the table says.
    const already = linked?.every((f) => f.type.kind === "object") ?? false;
    const fieldsOf = (entity || (described && !already)) && FIELDS_METHOD.test(method.name) && linked ? linked : beside;
    // A described field's own value type (`LIST` of `uf_enum_element[]`) is named in its description and is the
    // catalogue's resource: the rows it was read from are held by the field, not dropped.
    if (fieldsOf) for (const f of fieldsOf) eachNested(f.type, (n) => scope.merged?.add(positionKey(n.source as Source)));
    // "Returns `false` if …" added `false` to the row's type (fields.ts): the rows beside it describe the rest.
    const falsy = result.type.kind === "union" && result.type.options.length === 2 ? result.type.options.find(isFalse) : undefined;
    const core = falsy && result.type.kind === "union" ? (result.type.options.find((o) => o !== falsy) as TypeRef) : result.type;
    type = fieldsOf ? descriptionsOf(fieldsOf) : withSiblings({ ...result, type: core }, members, scope.diagnostics, (f) => scope.merged?.add(positionKey(f.source as Source)));
    if (falsy && !fieldsOf && type !== core) type = { kind: "union", options: [...(type.kind === "union" ? type.options : [type]), falsy] };
    else if (falsy && !fieldsOf) type = result.type;
    if (result.nullable && !fieldsOf) type = { kind: "union", options: [type, { kind: "null" }] };
    source = result.source;
    description = result.description;
  } else if (members.length > 0 && FIELDS_METHOD.test(method.name)) {
    type = descriptionsOf(members);
    source = (members[0] as Field).source;
  } else if (members.length > 0) {
    // The table lists the members of `result` itself.
    type = { kind: "object", members };
    source = (members[0] as Field).source;
  } else return;
  method.result = { type, key: null, description, empty: [], source } satisfies ResultSpec;
}

/**
 * `result`'s type when the rows after it are its members: a table that types `result` as a bare `object` and then
 * lists `ID`, `NAME`, … beside it (456 method pages) describes result's own members, not members of nothing. A bare
 * `array` with such rows is the PHP word, either a list of such objects or one object keyed by them (disk.file.get
 * answers one object, disk.folder.getChildren a list): both, with an ambiguous-reading warning that says so.
 */
function withSiblings(result: Field, members: Field[], diagnostics: Diagnostic[], merged: (row: Field) => void): TypeRef {
  const t = result.type;
  if (members.length === 0 || !isBare(t)) return t;
  const names = members.map((f) => f.name);
  /** One object of `fields`, or (for PHP's `array`) one object or a list of them, said as ambiguous. */
  const shaped = (fields: Field[], list: boolean | null): TypeRef => {
    const object: TypeRef = { kind: "object", members: fields };
    if (list === false) return object;
    if (list === true) return { kind: "array", items: object };
    diagnostics.push(
      diagnostic("ambiguous-reading", spanOf(result.source, "result".length), {
        text: `result: ${typeWords(t)}, then ${members.length} member rows (${names.slice(0, 3).join(", ")}…)`,
        reading: "one object of these members, or an array of such objects (the page's `array`, or `[]` against its type, may be either)",
      }),
    );
    return { kind: "union", options: [object, { kind: "array", items: object }] };
  };
  // `result.dialogId`, `result.events[].eventId`: the rows say where each nests, under result itself. `result.x`
  // under an `object` is one object, `result[].x` under an `array` a list; the two disagreeing is either.
  if (names.every((n) => n.startsWith("result.") || n.startsWith("result[]."))) {
    const [top] = nest([{ ...result, name: "result", type: { kind: "object", members: [] } }, ...members.map((f) => ({ ...f, name: f.name.replace(/^result\[\]\./, "result.") }))], diagnostics);
    const fields = top?.type.kind === "object" ? top.type.members : [];
    const listed = names.every((n) => n.startsWith("result[]."));
    const single = names.every((n) => n.startsWith("result."));
    return shaped(fields, t.kind === "object" && single ? false : t.kind === "array" && listed ? true : null);
  }
  // `employees`, `employees[]`, `employees[].userId`: a row `X[]` beside `X` describes X's items (the same field);
  // alone it is X, an array of its type. Dotted rows nest under the row they name.
  // Sets and maps, not scans: a page's table may hold thousands of rows (linear in them, as every reading is).
  const items = new Set(names.filter((n) => n.endsWith("[]") && !n.includes(".")));
  const nameSet = new Set(names);
  const byName = new Map<string, Field>();
  for (const f of members) if (!byName.has(f.name)) byName.set(f.name, f);
  const dotted = new Set(names.flatMap((n) => (n.includes(".") ? [n.slice(0, n.indexOf(".")).replace(/\[\]$/, "")] : [])));
  const arrayOf = (x: TypeRef): TypeRef => (x.kind === "array" ? x : { kind: "array", items: x });
  // An `X[]` row beside an `X` whose items it does not type (`tags` object, `tags[]` integer) is left to the page's
  // ledger, which warns: only a row that became X (alone) or X's items is said to be merged.
  const rows = members
    .filter((f) => !(items.has(f.name) && nameSet.has(f.name.slice(0, -2))))
    .map((f) => {
      if (items.has(f.name)) {
        merged(f);
        return { ...f, name: f.name.slice(0, -2), type: arrayOf(f.type) };
      }
      // `X` an array of unknown items beside `X[]`: the items are the `X[]` row's.
      const item = items.has(`${f.name}[]`) ? byName.get(`${f.name}[]`) : undefined;
      if (item && f.type.kind === "array" && f.type.items.kind === "unknown" && item.type.kind !== "array") {
        merged(item);
        return { ...f, type: { kind: "array", items: item.type } satisfies TypeRef };
      }
      return f;
    });
  // A row whose value is a bare object or list of objects (`item` object, `items[]` object) with plain rows after
  // it, and neither dotted rows (`item.id`) nor a link that says where its members are: the rows after it may be its
  // members or result's. Read one way, said (ambiguous-reading): after an `X[]` row, its items' members (`members`,
  // `members[]`, then each member's `userId`, `name`); after a bare object (`taskCreators`, a map in words; or
  // crm.item.import's `item`, then `id`), result's own. A bare list of unknown items ("an array of strings") holds no
  // rows.
  const holdsNothing = (x: TypeRef): boolean => (x.kind === "object" && x.members.length === 0) || (x.kind === "array" && holdsNothing(x.items));
  // Whether a row's members are still unread once its links were followed (a link that gave members is no longer bare).
  const open = (f: Field) => holdsNothing(byName.get(`${f.name}[]`)?.type ?? f.type) && !dotted.has(f.name);
  const plain = rows.filter((f) => !f.name.includes("."));
  const said = (f: Field, rest: number, reading: string) => diagnostics.push(diagnostic("ambiguous-reading", spanOf(f.source as Source, f.name.length + 4), { text: `${f.name}: ${typeWords(f.type)}, then ${rest} plain rows`, reading }));
  // Each holder (`X[]` bare, no dotted rows) takes the plain rows after it up to the next holder or the next row that
  // dotted rows extend (`meta`, then `meta.x`): those stay result's own.
  const holders = new Map<Field, Field[]>();
  let holder: Field | null = null;
  for (const [i, f] of plain.entries()) {
    if (items.has(`${f.name}[]`) && open(f) && i < plain.length - 1) {
      holder = f;
      holders.set(f, []);
      continue;
    }
    if (dotted.has(f.name)) holder = null;
    if (holder) holders.get(holder)?.push(f);
    else if (i < plain.length - 1 && open(f)) said(f, plain.length - i - 1, "the rows after it as result's own members, not its (no dotted name or link says where they nest)");
  }
  const taken = new Set<Field>();
  for (const [h, after] of holders) {
    if (after.length === 0) continue;
    said(h, after.length, `the ${after.length} rows after it as the members of its items (no dotted name or link says where they nest)`);
    for (const f of after) taken.add(f);
  }
  // In the table's order, each holder where it stood, its items' rows gone into it.
  const read = rows.flatMap((f) => {
    const after = holders.get(f);
    if (after && after.length > 0) return [{ ...f, type: { kind: "array", items: { kind: "object", members: after } } } as Field];
    return taken.has(f) ? [] : [f];
  });
  const top = names.some((n) => n.includes(".")) ? nest(read, diagnostics) : read;
  const topNames = top.map((f) => f.name);
  // A name twice, or a row left with a bracket or a dot: where it belongs is not shown. Said, not guessed.
  if (new Set(topNames).size < topNames.length || topNames.some((n) => /[[.]/.test(n))) {
    // Each row at its own line, with why (the page's ledger, below, then counts them as said).
    for (const f of members) {
      diagnostics.push(diagnostic("unplaced", spanOf(f.source as Source, f.name.length + 4), { what: `the row '${f.name}' beside \`result\`: the ${members.length} rows there nest with no sign of where (${names.slice(0, 3).join(", ")}…), so none is read as result's member` }));
    }
    return t;
  }
  return shaped(top, t.kind === "object" ? false : null);
}

/**
 * A fields method's table lists the entity's fields; `result` describes each of them, keyed by its name, with an
 * object of its own (type, required, read-only, title, …): the row's type is the field's, not the value's.
 */
function descriptionsOf(fields: readonly Field[]): TypeRef {
  return {
    kind: "object",
    members: fields.map((f) => ({ ...f, type: { kind: "object", members: [], open: true }, required: false, nullable: false, description: `The description of the field ${f.name} (${typeWords(f.type)}): ${f.description}` })),
    open: true,
  };
}

/** The platform's methods that describe an entity's fields (`crm.deal.fields`, `catalog.product.getFields`). */
const FIELDS_METHOD = /\.(?:fields|getfields)$/i;

/**
 * A `result` row that says each member describes a field: "Object with field descriptions", "Contains a description
 * of the fields of the template", "Array with the description of file fields", "Object with a description of
 * characteristics" (crm.userfield.fields). Not "Object with field names" (mailservice.fields: names, not descriptions).
 */
const DESCRIBES_FIELDS = /\bfield descriptions?\b|\bdescriptions? of (?:the )?(?:[\w-]+ ){0,3}fields\b|\bdescription of characteristics\b/i;

/** The `false` a row's words added to its type ("Returns `false` if …"). */
function isFalse(t: TypeRef): boolean {
  return t.kind === "primitive" && t.type === "boolean" && t.enum?.length === 1 && t.enum[0] === false;
}

/** Every field nested in `t`, at any depth. */
function eachNested(t: TypeRef, fn: (f: Field) => void): void {
  if (t.kind === "object") {
    for (const f of t.members) {
      fn(f);
      eachNested(f.type, fn);
    }
  } else if (t.kind === "array") eachNested(t.items, fn);
  else if (t.kind === "union") for (const o of t.options) eachNested(o, fn);
}

/** `object` or `array` with nothing known of its members or items. */
function isBare(t: TypeRef): boolean {
  return (t.kind === "object" && t.members.length === 0) || (t.kind === "array" && t.items.kind === "unknown");
}

/** A field type in words, for a description. */
function typeWords(t: TypeRef): string {
  switch (t.kind) {
    case "primitive":
      return t.type;
    case "array":
      return `array of ${typeWords(t.items)}`;
    case "union":
      return t.options.map(typeWords).join(" or ");
    case "ref":
      return t.resource;
    default:
      return t.kind;
  }
}

/** Rows of a returned-data table that are the envelope's, not the result's. */
const ENVELOPE_ONLY: ReadonlySet<string> = new Set(["time", "total", "next"]);
const PAGING: ReadonlySet<string> = new Set(["total", "next"]);

/** The bold names of a field table's rows. */
function rowNames(rows: YfmCell[][], cols: { name: number }): string[] {
  return rows.map((r) => boldName(r[cols.name]?.text ?? ""));
}

function readErrors(s: PageSection, scope: PageScope): MethodError[] {
  const errors: MethodError[] = [];
  let code: string | null = null;
  for (const b of s.blocks) {
    if (b.kind === "text") {
      const c = /^Error Code:\s*`([^`]+)`/i.exec(b.text);
      if (c) code = c[1] as string;
      continue;
    }
    if (b.kind === "heading") {
      code = null;
      continue;
    }
    if (b.kind !== "table") continue;
    const header = b.rows[0];
    if (!header) continue;
    // The error body's own description (error-info.md, error-info-v3.md) is the envelope's, not an error list.
    if (/_includes\/error-info(-v3)?\.md$/.test(b.file)) continue;
    // The system errors are the catalogue, which the front end reads once from their include.
    if (/_includes\/system-errors\.md$/.test(b.file)) continue;
    const cols = errorColumns(header);
    if (!cols) {
      scope.diagnostics.push(diagnostic("unknown-table-column", spanOf(b, 2), { header: header.map((c) => c.text.replace(/\s+/g, " ")).join(" | "), known: "'Code | Description | Value'" }));
      continue;
    }
    errors.push(...readErrorRows(cols, b.rows.slice(1), code));
  }
  return errors;
}

