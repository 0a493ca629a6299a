import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";
import { emptyMethod } from "../model/fragments.js";
import type { Field, Method, Source, TypeRef, Version } from "../model/types.js";
import type { YfmBlock, YfmPage } from "../yfm/blocks.js";
import type { YfmCell } from "../yfm/tables.js";
import { type AnchoredTable, type FieldScope, fieldBudget, TYPE_READINGS, plainText } from "./fields.js";
import { withKeyForms } from "./keys.js";
import { scopeLine } from "./scopes.js";
import { type HeadingIndex, type PageSection, type SectionTable, firstFieldTable, headingIndex, namedInside, positionKey, sectionsOf, spanOf, srcOf, tableAt, tableNamed, warnUnused } from "./sections.js";
import { readErrors, readParameters, readReturned } from "./returned.js";
import { type ShapeMemo, type SharedShape, applyResultShapes, resultShapes } from "./shape.js";

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

const METHOD_NAME = /^[a-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+$/;

/**
 * A title's word without the marks around it: "`(" before, "`),:;." after. By hand: a pattern for the marks after a
 * word was tried from each mark of a long run before another character (review: 200,000 dots took 19 s).
 */
function unmarked(word: string): string {
  let start = 0;
  while (start < word.length && "`(".includes(word.charAt(start))) start++;
  let end = word.length;
  while (end > start && "`),:;.".includes(word.charAt(end - 1))) end--;
  return word.slice(start, end);
}

/**
 * The method a title names: its last word, else the first word that is a method's name. Words are split by hand and
 * matched whole (a regex scanning a title for a name at its end backtracks quadratically on long titles).
 */
function methodOfTitle(title: string): string | null {
  const words = title.split(/\s+/).map(unmarked).filter(Boolean);
  const last = words.at(-1);
  if (last && METHOD_NAME.test(last)) return last;
  return words.find((w) => METHOD_NAME.test(w)) ?? null;
}
const URL_METHOD = /\/rest\/(api\/)?(?:[^\s'"/]+\/)*([a-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+)(?=[\s'"?\\]|$)/g;

export interface PageReading {
  method: Method | null;
  /** The envelope's paging members a list method's returned data names (`total`, `next`), as the page types them. */
  envelope?: Field[];
  /** What the result's TypeScript shape says of the catalogue's structures the result holds (reference/shape.ts). */
  shared?: SharedShape[];
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
  tableIn?(from: string, link: string, word?: string): (AnchoredTable & { key: string; file: string; anchor: string }) | null;
  /** Earlier runs' readings of the page's TypeScript shapes (shape.ts), when the CLI keeps a cache. */
  shapes?: ShapeMemo;
}

/**
 * A page with no parameters section whose field table stands before its first H2, right under the description
 * (sale.payment.list, crm.deal.productrows.get and .set, rpa.comment.add: ten pages): that table is the parameters,
 * as a `## Method Parameters` heading would make it. Read by nothing, the parameters were lost without a word.
 */
function leadParameters(sections: PageSection[], blocks: YfmBlock[], title: Extract<YfmBlock, { kind: "heading" }>): PageSection[] {
  if (sections.some((s) => s.kind === "parameters")) return sections;
  const end = blocks.findIndex((b) => b.kind === "heading" && b.depth === 2);
  const lead = blocks.slice(0, end < 0 ? blocks.length : end).filter((b) => b !== title);
  if (!firstFieldTable(lead)) return sections;
  return [{ kind: "parameters", heading: title, blocks: lead }, ...sections];
}

/** A method name the page's file is named after: `crm.invoice.userfield.add` and `crm-invoice-user-field-add.md`. */
function sameAsFile(name: string, file: string): boolean {
  const base = file.slice(file.lastIndexOf("/") + 1).replace(/\.md$/, "");
  const letters = (x: string) => x.toLowerCase().replace(/[^a-z0-9]/g, "");
  return letters(name) === letters(base);
}

/** Reads a page of the reference; a page that is not a method page gives no method and no warning. */
export function readPage(page: YfmPage, area: string, scope: PageScope): PageReading {
  const own = page.blocks.filter((b) => b.file === page.file);
  const title = own.find((b): b is Extract<YfmBlock, { kind: "heading" }> => b.kind === "heading" && b.depth === 1);
  if (!title) return { method: null, skipped: "no-title" };
  const sections = sectionsOf(page.blocks);
  const urls = urlMethods(page.blocks);
  const titleWords = title.text.replace(/`/g, "");
  const titled = methodOfTitle(titleWords);
  // A title that names another method than the examples call (seven pages) is a typo on one side; the page's file
  // name is the third witness: `department-delete.md` calls `department.delete`, whatever its title says
  // ("department.department.delete"), and `crm-invoice-user-field-add.md` is the title's, whatever its examples'
  // URLs (copied from crm.paysystem.list) call. Where the file names neither, the title stands, as before.
  const byFile = titled && urls.names.length > 0 && !urls.names.includes(titled) ? urls.names.find((n) => sameAsFile(n, page.file) && !sameAsFile(titled, page.file)) : undefined;
  const fromTitle = byFile ?? titled;
  const hasParameters = sections.some((s) => s.kind === "parameters");
  const name = fromTitle ?? (hasParameters ? (urls.names[0] ?? null) : null);
  if (!name) return { method: null, skipped: hasParameters ? "no-method-name" : "not-a-method-page" };
  const quote = own.find((b) => b.kind === "quote" && /\bScope\b/i.test(b.text));
  // A page that names a method in its title but neither describes parameters, nor has a scope line, nor calls
  // that method in its examples is about the method (an overview, a migration guide), not its reference page.
  if (!hasParameters && !quote && !urls.names.includes(name)) return { method: null, skipped: "not-a-method-page" };
  if (titled && urls.names.length > 0 && !urls.names.includes(titled)) {
    scope.diagnostics.push(diagnostic("title-method-mismatch", spanOf(title, title.text.length + 2), { title: titled, urls: [...new Set(urls.names)].slice(0, 3).join(", "), read: fromTitle ?? titled, why: byFile ? "the name the page's file is named after" : "the title's" }));
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
  // A section found for a field, counted as read.
  const take = (found: { table: SectionTable; anchor: string } | null): (AnchoredTable & { anchor: string }) | null => {
    if (found) markUsed(found.table);
    return found ? { ...found.table, anchor: found.anchor } : null;
  };
  // The section named after a field; with `before`, only one whose heading stands before that block.
  const named = (name: string, within?: string, before = Infinity) => take(tableNamed(page.blocks, headings(), name, within, before));
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
    tableIn: (from, link, word) => {
      const found = scope.tableIn?.(from, link, word) ?? null;
      if (found?.file !== page.file) return found;
      const own = tableAt(page.blocks, headings(), found.anchor);
      if (own) markUsed(own);
      return own ? { ...own, key: found.key } : null;
    },
    // The sentence that opens an anchor's section with no table (a type said in words).
    paragraphAt: (anchor) => {
      const i = headings().byAnchor.get(anchor.toLowerCase());
      if (i === undefined) return null;
      for (let j = i + 1; j < page.blocks.length; j++) {
        const b = page.blocks[j] as YfmBlock;
        if (b.kind === "heading" || b.kind === "table") return null;
        if (b.kind === "text") return { text: b.text, file: b.file, line: b.line, column: b.column };
      }
      return null;
    },
    wordsBefore: (anchor) => {
      const i = headings().byAnchor.get(anchor.toLowerCase());
      if (i === undefined) return null;
      const words: string[] = [];
      for (let j = i + 1; j < page.blocks.length; j++) {
        const b = page.blocks[j] as YfmBlock;
        if (b.kind === "heading" || b.kind === "table") break;
        // The page's own words, not an include's note ("Required parameters are marked with `*`").
        if (b.kind === "text" && b.file === page.file) words.push(b.text);
      }
      return words.length > 0 ? words.join("\n\n") : null;
    },
    typeWord: scope.typeWord,
    knownWords: scope.knownWords,
    budget: fieldBudget(page.blocks),
    read: [],
    merged: new Set(),
    selectable: { fields: [], into: null },
    namedInside: (name, anchor) => take(namedInside(page.blocks, headings(), name, anchor)),
    tableNamed: (name, within) => named(name, within),
  };
  const envelope: Field[] = [];
  // Read with the parameters table that stands before the first H2, where no section holds the parameters; only once
  // the page is known to be a method's (an overview's table is no method's parameters).
  const read = leadParameters(sections, page.blocks, title);
  // A parameter's section named after it stands among the parameters, not among what the method answers: the
  // answer's "Object members" (tasks.template.checklist.add, in the include that decodes the answer) is not the
  // `MEMBERS` parameter's value, which its row says is `{ TYPE }` (read as it, a call's `{"547": {"TYPE": "A"}}` was
  // checked against the answer's participant).
  const answers = read.find((s) => s.kind === "response" || s.kind === "returned" || s.kind === "errors" || s.kind === "error-codes");
  const answersIndex = answers ? page.blocks.indexOf(answers.heading) : -1;
  const answersAt = answersIndex < 0 ? Infinity : answersIndex;
  const parameterScope: FieldScope = {
    ...pageScope,
    parameters: true,
    tableNamed: (name, within) => named(name, within, answersAt),
    namedInAnswer: (name, within) => {
      const found = tableNamed(page.blocks, headings(), name, within);
      const heading = found && found.heading >= answersAt ? page.blocks[found.heading] : undefined;
      return heading?.kind === "heading" ? heading.text.replace(/[`*]/g, "").trim() : null;
    },
  };
  for (const s of read) {
    if (s.kind === "parameters") readParameters(method, s, parameterScope, used);
    else if (s.kind === "returned" || s.kind === "response") readReturned(method, s, pageScope, used, envelope);
    else if (s.kind === "errors" || s.kind === "error-codes") method.errors.push(...readErrors(s, scope));
  }
  readAtLeastOne(method, own, scope.diagnostics);
  readRequiredWhen(method);
  // Rows named as forms of keys (`UF_...`, `\<userId\>`) are the keys their objects take, not members.
  method.params = method.params.map((p) => ({ ...p, type: withKeyForms(p.type) }));
  if (method.result) method.result = { ...method.result, type: withKeyForms(method.result.type) };
  // The result's second statement on the page, its TypeScript shape in the SDK tab: where it allows more, either.
  const shared = applyResultShapes(method, resultShapes(page.blocks, page.file, method.name, scope.diagnostics, scope.shapes), scope.diagnostics);
  warnUnused(read, used, scope.diagnostics);
  warnDropped(method, envelope, pageScope.read ?? [], pageScope.merged ?? new Set(), scope.diagnostics);
  if (method.errors.length === 0) method.errorsOpen = { reason: "the page lists no errors of its own", source: srcOf(title) };
  return { method, ...(envelope.length > 0 ? { envelope } : {}), ...(shared.length > 0 ? { shared } : {}) };
}

function warnDropped(method: Method, envelope: Field[], read: ReadonlyArray<{ name: string; source: Source }>, merged: ReadonlySet<string>, diagnostics: Diagnostic[]): void {
  if (read.length === 0) return;
  const key = positionKey;
  const held = new Set<string>();
  const walk = (t: TypeRef): void => {
    if (t.kind === "object") {
      for (const f of t.members) hold(f);
      for (const f of t.keys ?? []) hold(f);
      // A map's values (fields.ts MAP_WORDS) hold the rows of their object.
      if (t.additional) walk(t.additional);
    } else if (t.kind === "array") walk(t.items);
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
  // A warning on how the row's type was read (fields.ts TYPE_READINGS) does not say where the row went.
  const warned = new Set(diagnostics.filter((d) => (d.code === "unplaced" || d.code === "ambiguous-reading") && !TYPE_READINGS.has(d)).map((d) => `${d.file}:${d.line}`));
  const said = new Set<string>();
  for (const r of read) {
    const k = key(r.source);
    // A row `X[]` that became X, or X's items, is held where X is (withSiblings says which it merged).
    if (held.has(k) || merged.has(k) || warned.has(`${r.source.file}:${r.source.line}`) || said.has(k)) continue;
    said.add(k);
    diagnostics.push(diagnostic("unplaced", spanOf(r.source, r.name.length + 4), { what: `the row '${r.name}': read from its table, but no parameter, result member or envelope member of ${method.name} holds it` }));
  }
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
    for (const [i, line] of b.text.split("\n").entries()) {
      const said = scopeLine(b, i, line);
      if (said && said.names.length > 0) {
        method.scopes = said.names;
        method.scopesSource = said.at;
        // Words after the codes say more of them ("module scope from `moduleId` (for example, `crm`)").
        if (said.rest) method.scopeNote = said.rest;
      } else if (said && /\bany\b|\bdepends\b/i.test(said.written)) method.scopeNote = plainText(said.written);
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

