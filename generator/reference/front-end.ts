import { posix } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";
import { emptyFragments } from "../model/fragments.js";
import type { FrontEnd } from "../model/front-end.js";
import type { CatalogueError, Envelope, EventPayload, Field, Method, Placement } from "../model/types.js";
import { sha256 } from "../util/hash.js";
import { readReferenceFacts } from "./phrases.js";
import { type FragmentCache, looksLikeYfm } from "../source/index.js";
import { type IncludeMemo, type IncludeResolver, type YfmBlock, type YfmPage, scanPage } from "../yfm/blocks.js";
import type { YfmCell } from "../yfm/tables.js";
import { type TypeCatalogue, readCatalogue } from "./catalogue.js";
import { readSystemErrors } from "./errors.js";
import { ONE_VALUE, fieldColumns, plainText, readFieldRows } from "./fields.js";
import { readEventPage, readPlacementPage, warnUnreadHandler } from "./events.js";
import { isDotted, nest } from "./nesting.js";
import { readRequestRates } from "./limits.js";
import { readScopeList } from "./scopes.js";
import { type PageScope, readPage } from "./page.js";
import { type SharedShape, withSharedShapes } from "./shape.js";
import { type HeadingIndex, type SectionTable, headingIndex, tableAt } from "./sections.js";

/**
 * The front end of the platform's official reference (YFM, spec-source/README-reference.md): a folder laid out as
 * `api-reference/<area>/…/<method>.md`, with `_includes/` beside it. Every page is scanned (yfm/blocks.ts), the type
 * catalogue is read from the `data-types.md` pages first, and each method page gives one method of the model.
 */

const API = /(^|\/)api-reference\//;

/** Where the platform publishes these pages: `api-reference/crm/deals/crm-deal-get.md` is `<base>api-reference/crm/deals/crm-deal-get.html`. */
export const PUBLIC_BASE = "https://apidocs.bitrix24.com/";
const isCatalogue = (path: string) => /(^|\/)api-reference\/(?:[^/]+\/)?data-types\.md$/.test(path);

export const REFERENCE_FRONT_END: FrontEnd = {
  kind: "reference",
  // A folder laid out like the reference, or one page of it on its own (its YFM tables and `{% %}` blocks say so).
  detect: (source) => source.files.some((f) => API.test(f.path) && f.path.endsWith(".md")) || (source.files.length === 1 && looksLikeYfm(source.files[0]?.text ?? "")),
  read(source) {
    const diagnostics: Diagnostic[] = [];
    const texts = new Map(source.files.map((f) => [f.path, f.text]));
    const resolve = includeResolver(texts);
    const memo: IncludeMemo = new Map();
    const single = source.files.length === 1;
    const pages = source.files.filter((f) => single || (f.path.endsWith(".md") && API.test(f.path))).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    // The type catalogue first: every method page's types are read through it.
    const cataloguePages = pages.filter((f) => isCatalogue(f.path)).map((f) => scanPage(f.path, f.text, resolve, memo));
    for (const p of cataloguePages) diagnostics.push(...includeWarnings(p));
    const catalogue = readCatalogue(cataloguePages, diagnostics);
    const fragments = emptyFragments(source.root);
    fragments.title = { text: "Bitrix24 REST API (the platform's reference)", source: null };
    // The public URL of a page is its path from `api-reference/` on; a page outside that layout has none known.
    const first = pages.find((f) => API.test(f.path))?.path;
    const root = first !== undefined ? first.slice(0, first.search(API) + (first.search(API) > 0 ? 1 : 0)) : "";
    if (first !== undefined) fragments.facts.publicPages = { base: PUBLIC_BASE, root };
    // Each page's reading depends on its own text, the files it includes and the catalogue: a cached reading is
    // used only when all three are as they were (`salt` names the generator that wrote it).
    const cache = source.cache;
    const catalogueDigest = sha256(cataloguePages.flatMap((p) => [p.file, texts.get(p.file) ?? "", ...p.resolutions.flat().map((x) => x ?? ""), ...p.included.map((f) => texts.get(f) ?? "")]).join("\0"));
    // Pages whose tables a link follows (`../entities.md#user`), scanned once per run.
    const linked: LinkedPages = new Map();
    const seen = new Map<string, Method>();
    // The envelope's paging members, as the first list page (in path order) types them.
    const paging = new Map<string, Field>();
    const events = new Map<string, EventPayload>();
    const placements: Placement[] = [];
    const placed = new Map<string, Placement>();
    const shared: SharedShape[] = [];
    for (const f of pages) {
      if (isCatalogue(f.path)) continue;
      const key = cache ? sha256(`${cache.salt}\0${catalogueDigest}\0${f.path}\0${f.text}`) : "";
      const cached = cache ? fromCache(cache.entries.get(key), resolve) : null;
      const reading = cached ?? readOne(f, catalogue, resolve, texts, memo, linked, cache);
      // The cache keeps the reading as read: the model stage changes the methods it is given (D8's required flags).
      if (cache) cache.next.set(key, cached ? cache.entries.get(key) : structuredClone(reading));
      // A reading taken from the cache keeps the shapes of its code for the next run too, though nothing looked
      // them up: the run after the page's words change reads them there (shape.ts ShapeMemo).
      if (cache && cached) for (const k of cached.shapeKeys ?? []) if (!cache.next.has(k) && cache.entries.has(k)) cache.next.set(k, cache.entries.get(k));
      diagnostics.push(...reading.diagnostics);
      for (const e of reading.envelope ?? []) if (!paging.has(e.name)) paging.set(e.name, e);
      // A duplicate page's shapes are kept too: the structure is what every page says it may be.
      shared.push(...(reading.shared ?? []));
      if (reading.event) {
        const earlier = events.get(reading.event.code);
        if (earlier) diagnostics.push(diagnostic("duplicate-page", { ...reading.event.source, endLine: reading.event.source.line, endColumn: reading.event.source.column + 1 }, { name: reading.event.name, first: `${earlier.source.file}:${earlier.source.line}` }));
        else events.set(reading.event.code, reading.event);
      }
      const placement = reading.placement;
      if (placement) {
        // A code on two pages: the first page (in path order) has it; the second is a duplicate-page warning.
        const at = placement.source;
        const codes = placement.codes.filter((c) => {
          const earlier = placed.get(c);
          if (earlier) diagnostics.push(diagnostic("duplicate-page", { ...at, endLine: at.line, endColumn: at.column + 1 }, { what: "Placement", name: c, first: `${earlier.source.file}:${earlier.source.line}` }));
          return !earlier;
        });
        if (codes.length > 0) {
          const p = { ...placement, codes };
          for (const c of codes) placed.set(c, p);
          placements.push(p);
        }
      }
      const m = reading.method;
      if (!m) continue;
      const id = `${m.version}:${m.name}`;
      const earlier = seen.get(id);
      if (earlier) {
        diagnostics.push(diagnostic("duplicate-page", { ...m.source, endLine: m.source.line, endColumn: m.source.column + 1 }, { name: m.name, first: `${earlier.source.file}:${earlier.source.line}` }));
        continue;
      }
      seen.set(id, m);
      fragments.methods.push(m);
    }
    fragments.resources.push(...withSharedShapes(catalogue.resources, shared, diagnostics));
    fragments.catalogue.push(...systemErrors(texts, root, resolve));
    // The list of scopes: the "Available Scopes" page beside the areas (`api-reference/scopes/permissions.md`).
    const scopesFile = `${root}api-reference/scopes/permissions.md`;
    const scopesText = texts.get(scopesFile);
    const scopeList = scopesText === undefined ? null : readScopeList(scanPage(scopesFile, scopesText, resolve, memo).blocks, diagnostics);
    if (scopeList && scopeList.length > 0) {
      fragments.facts.scopeList = scopeList;
      // A scope a page names that the list lacks: a typo, or a word of the page's read as a scope (`moduleId`).
      // A scope the list marks deprecated ("should not be used"): the 3.0 task pages' `tasks`.
      const listed = new Set(scopeList.map((e) => e.code));
      const deprecated = new Set(scopeList.filter((e) => e.deprecated).map((e) => e.code));
      const check = (what: "method" | "event", name: string, scopes: readonly string[] | null, at: { file: string; line: number; column: number }) => {
        for (const s of scopes ?? []) {
          const code = !listed.has(s) ? "unlisted-scope" : deprecated.has(s) ? "deprecated-scope" : null;
          if (code) diagnostics.push(diagnostic(code, { ...at, endLine: at.line, endColumn: at.column + 1 }, { what, name, scope: s, list: scopesFile }));
        }
      };
      for (const m of fragments.methods) check("method", m.name, m.scopes, m.scopesSource ?? m.source);
      for (const e of events.values()) check("event", e.name, e.scopes, e.scopesSource ?? e.source);
    }
    // The request-rate limits per plan: the limits page at the reference's root (`limits.md`, beside `api-reference/`).
    const limitsFile = `${root}limits.md`;
    const limitsText = texts.get(limitsFile);
    const requestRates = limitsText === undefined ? null : readRequestRates(scanPage(limitsFile, limitsText, resolve, memo).blocks, diagnostics);
    if (requestRates && requestRates.length > 0) fragments.facts.requestRates = requestRates;
    // The error bodies: the tables of the includes the method pages' error handling splices (legacy and 3.0).
    const legacyErrorBody = errorBodyOf(texts, root, resolve, catalogue, diagnostics, "error-info.md") ?? [];
    const v3ErrorBody = errorBodyOf(texts, root, resolve, catalogue, diagnostics, "error-info-v3.md");
    fragments.facts.envelope = envelopeOf(cataloguePages, catalogue, diagnostics, [...paging.values()], legacyErrorBody);
    if (fragments.facts.envelope && v3ErrorBody) fragments.facts.envelope.v3ErrorBody = v3ErrorBody;
    if (events.size > 0) fragments.facts.eventPayloads = [...events.values()];
    if (placements.length > 0) fragments.facts.placements = placements;
    fragments.facts.platform = readReferenceFacts(fragments);
    return { fragments, diagnostics: once(diagnostics), secrets: [] };
  },
};

/**
 * Each diagnostic once: a table that several pages follow by a link (`entities.md#user`) is read, and warned about,
 * at its own positions from each of them; one warning per position and message is the page's own.
 */
function once(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.file}\0${d.line}\0${d.column}\0${d.code}\0${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A field table written without its header row (calendar.user.settings.set's `settings`, biconnector's list
 * results: `#|` then `|| **view**` and its type link at once) is given the header the other 6,900 tables write, at
 * its first row's position: read as a header, its first row made the table no field table, and its fields were lost
 * without a word (the method had no result at all). Only here, not in the scanner: the dialect's own parser, the
 * oracle, sees the table as written.
 */
function headed(page: YfmPage): YfmPage {
  if (!page.blocks.some(headerless)) return page;
  const blocks = page.blocks.map((b): YfmBlock => {
    if (b.kind !== "table" || !headerless(b)) return b;
    const [name, description] = b.rows[0] as YfmCell[];
    const cell = (c: YfmCell | undefined, text: string): YfmCell => ({ text, file: (c ?? (name as YfmCell)).file, line: (c ?? (name as YfmCell)).line, column: (c ?? (name as YfmCell)).column });
    return { ...b, rows: [[cell(name, "**Name**\n`type`"), cell(description, "**Description**")], ...b.rows] };
  });
  return { ...page, blocks };
}

/** A table whose first row is a field's (a bold name, starred or not, its type link on the next line), not a header. */
function headerless(b: YfmBlock): b is Extract<YfmBlock, { kind: "table" }> {
  if (b.kind !== "table") return false;
  const first = b.rows[0];
  return first !== undefined && first.length === 2 && fieldColumns(first) === null && /^\*\*[^*\n]+(?:\^\*\^)?\*\*(?:\\?\*|\^\*\^)?[ \t]*\n\s*\[`[^`\n]+`\]\(/.test(first[0]?.text ?? "");
}

/**
 * The table a link to a whole page (`[item](./object-fields.md)`, `[LayoutDto](./layout.md)`) names, where the page
 * says which: its only field table, or a table of "Common Fields" and the tables after it, one per kind (crm's
 * object-fields.md: common fields, then Lead, Deal, …), read as the sections of one object are (fields.ts objectOf:
 * each kind with the common fields). A page of several other tables (header.md: `HeaderDto`, then `TagDto`) names
 * the one whose heading names the word the link is written on (`[HeaderDto](./header.md)`: "Parameters of the
 * `HeaderDto` Object"), where exactly one does; else none of them, and the word stays unknown, with its warning.
 */
function wholePage(blocks: readonly YfmBlock[], word: string | undefined): { table: SectionTable; named: boolean } | null {
  const tables: Array<{ table: Extract<YfmBlock, { kind: "table" }>; heading: string }> = [];
  let heading = "";
  for (const b of blocks) {
    if (b.kind === "heading") heading = b.text.replace(/[`*]/g, "").trim();
    else if (b.kind === "table" && b.rows[0] && fieldColumns(b.rows[0])) tables.push({ table: b, heading });
  }
  const [first] = tables;
  if (!first) return null;
  if (tables.length === 1) return { table: first.table, named: false };
  if (/^common fields$/i.test(first.heading)) return { table: { ...first.table, parts: tables.map((t) => ({ rows: t.table.rows, label: null })) }, named: false };
  const named = word ? tables.filter((t) => namesWord(t.heading, word)) : [];
  if (named.length === 1) return { table: (named[0] as (typeof tables)[number]).table, named: true };
  // action.md (`ActionDto`): "several different types of actions, each with its own format", each a section whose
  // "### Parameters" table fixes the same starred row to one value (`type^*^`: "Value `redirect`", "Value
  // `restEvent`"): the object's cases, one per table (fields.ts objectOf reads tables that repeat a field as cases).
  // Tables under other headings are other objects the cases link to. content-block.md's per-type tables fix no row
  // (the type is the block's, the table its `properties`): not cases of the block, and left unread.
  const cases = tables.filter((t) => /^parameters$/i.test(t.heading));
  const fixed = cases.map((t) => fixedRow(t.table.rows));
  if (cases.length >= 2 && fixed[0] && fixed.every((f) => f === fixed[0])) return { table: { ...(cases[0] as (typeof tables)[number]).table, parts: cases.map((t) => ({ rows: t.table.rows, label: null })) }, named: false };
  return null;
}

/** The starred row a table fixes to one value ("**type^*^** … | Value `redirect`"), by its name; else null. */
function fixedRow(rows: readonly YfmCell[][]): string | null {
  for (const row of rows.slice(1)) {
    const m = /^\*\*([\w.]+)(\^\*\^|\\?\*)?\*\*(\^\*\^|\\?\*)?/.exec(row[0]?.text ?? "");
    const words = plainText(row[row.length - 1]?.text ?? "").trim();
    if (m?.[1] && (m[2] || m[3]) && ONE_VALUE.test(words)) return m[1].toLowerCase();
  }
  return null;
}

/**
 * Whether a heading names a word as a word of its own ("Parameters of the HeaderDto Object" names `HeaderDto`;
 * "TagDtoList and TagDto" names `TagDto`, at its second place).
 */
function namesWord(heading: string, word: string): boolean {
  const text = heading.toLowerCase();
  const w = word.toLowerCase();
  if (!w) return false;
  for (let at = text.indexOf(w); at >= 0; at = text.indexOf(w, at + 1)) {
    const before = text[at - 1];
    const after = text[at + w.length];
    if (!(before && /\w/.test(before)) && !(after && /\w/.test(after))) return true;
  }
  return false;
}

/** One page's reading, as the cache keeps it: the method (or none), its diagnostics, and the files it included. */
interface CachedPage {
  method: Method | null;
  /** The event an event page describes, with what its handler receives. */
  event?: EventPayload;
  /** The placement a widget page describes. */
  placement?: Placement;
  envelope?: Field[];
  /** The shapes of the catalogue's structures the page's result holds, applied once every page is read. */
  shared?: SharedShape[];
  diagnostics: Diagnostic[];
  /** Each include the page asked for: from which file, the target, the file it found (or null), that file's hash. */
  included: Array<[string, string, string | null, string | null]>;
  /** The cache's entries of the page's TypeScript shapes (shape.ts ShapeMemo), kept with the reading. */
  shapeKeys?: string[];
}

/** Pages a link leads to, scanned once per run, with their heading index: by path. */
type LinkedPages = Map<string, { page: YfmPage; index: HeadingIndex }>;

function readOne(f: { path: string; text: string }, catalogue: TypeCatalogue, resolve: IncludeResolver, texts: ReadonlyMap<string, string>, memo: IncludeMemo, linked: LinkedPages, cache: FragmentCache | undefined): CachedPage {
  const page = headed(scanPage(f.path, f.text, resolve, memo));
  const diagnostics = includeWarnings(page);
  // The pages this reading follows links into: the cache reuses it only while each is as it was (like an include).
  const links: Array<[string, string, string | null]> = [];
  const tableIn: PageScope["tableIn"] = (from, link, word) => {
    const hash = link.indexOf("#");
    const path = link.slice(0, hash);
    const anchor = link.slice(hash + 1);
    const found = path === "" ? { file: from, text: texts.get(from) ?? "" } : resolve(from, path);
    if (path !== "") links.push([from, path, found?.file ?? null]);
    if (!found || (!anchor && path === "")) return null;
    let target = linked.get(found.file);
    if (target === undefined) {
      const scanned = headed(scanPage(found.file, found.text, resolve, memo));
      target = { page: scanned, index: headingIndex(scanned.blocks) };
      linked.set(found.file, target);
    }
    // The linked page's own includes are this reading's too: a change in one of them reads the page again.
    for (const [f, t, file] of target.page.resolutions) links.push([f, t, file]);
    // `#time` in a page's cell is that page's section, or else the catalogue's (as on the page being read).
    if (!anchor) {
      const whole = wholePage(target.page.blocks, word);
      // The key names the word where a heading chose the table: two words name two tables of one page, and a table
      // that links the page again for another word (header.md's HeaderDto to its TagDto) is no loop.
      const chosen = whole?.named && word ? `~${word.toLowerCase()}` : "";
      return whole ? { ...whole.table, key: `${found.file}#${chosen}`, file: found.file, anchor: "" } : null;
    }
    const table = tableAt(target.page.blocks, target.index, anchor) ?? (path === "" ? catalogue.table(anchor) : null);
    return table ? { ...table, key: `${found.file}#${anchor.toLowerCase()}`, file: found.file, anchor } : null;
  };
  const shapes = cache ? { cache, keys: [] } : undefined;
  const scope: PageScope = { diagnostics, typeWord: catalogue.word, knownWords: catalogue.words, catalogueTable: catalogue.table, tableIn, ...(shapes ? { shapes } : {}) };
  const reading = readPage(page, areaOf(f.path), scope);
  const event = reading.method ? null : readEventPage(page, scope);
  const placement = reading.method || event ? null : readPlacementPage(page, scope);
  if (!reading.method && !event && !placement) warnUnreadHandler(page, diagnostics);
  // Every include the page asked for, with what it found and that file's hash: a reading is reused only when each
  // resolves to the same file with the same text (a file added on a nearer path, or where one was missing, is news).
  const seen = new Set<string>();
  const included: CachedPage["included"] = [];
  for (const [from, target, file] of [...page.resolutions, ...links]) {
    const key = `${from}\0${target}`;
    if (seen.has(key)) continue;
    seen.add(key);
    included.push([from, target, file, file === null ? null : sha256(texts.get(file) ?? "")]);
  }
  return { method: reading.method, ...(event ? { event } : {}), ...(placement ? { placement } : {}), ...(reading.envelope ? { envelope: reading.envelope } : {}), ...(reading.shared ? { shared: reading.shared } : {}), diagnostics, included, ...(shapes && shapes.keys.length > 0 ? { shapeKeys: [...new Set(shapes.keys)] } : {}) };
}

/** A cached reading whose included files are still the same, copied so that the model stage may change it; else null. */
function fromCache(entry: unknown, resolve: IncludeResolver): CachedPage | null {
  if (!entry || typeof entry !== "object") return null;
  const e = entry as CachedPage;
  if (!Array.isArray(e.included) || !Array.isArray(e.diagnostics) || !("method" in e)) return null;
  for (const item of e.included) {
    if (!Array.isArray(item) || item.length !== 4) return null;
    const [from, target, file, hash] = item;
    if (typeof from !== "string" || typeof target !== "string") return null;
    const found = resolve(from, target);
    if ((found?.file ?? null) !== file || (found && sha256(found.text) !== hash)) return null;
  }
  return structuredClone(e);
}

function includeWarnings(page: YfmPage): Diagnostic[] {
  return page.blocks.flatMap((b) => {
    const at = { file: b.file, line: b.line, column: b.column, endLine: b.line, endColumn: b.column + 2 };
    if (b.kind === "include") return [diagnostic("unresolved-include", at, { target: b.target, why: b.why })];
    if (b.kind === "unclosed-if") return [diagnostic("unclosed-condition", at, { dropped: b.dropped })];
    if (b.kind === "table" && b.unclosedRow) return [diagnostic("unclosed-row", { file: b.file, ...b.unclosedRow, endLine: b.unclosedRow.line, endColumn: b.unclosedRow.column + 2 }, {})];
    return [];
  });
}

/** The system errors (`_includes/system-errors.md`, included by nearly every page): the model's error catalogue. */
function systemErrors(texts: ReadonlyMap<string, string>, root: string, resolve: IncludeResolver): CatalogueError[] {
  const file = `${root}_includes/system-errors.md`;
  const text = texts.get(file);
  if (text === undefined) return [];
  const table = scanPage(file, text, resolve).blocks.find((b) => b.kind === "table");
  return table && table.kind === "table" ? readSystemErrors(table.rows) : [];
}

/**
 * An error body as its include's table gives it (`_includes/error-info-v3.md`: `error.code`, `error.message`,
 * `error.validation[].field`): the dotted rows nested under the members they name (reference/nesting.ts). The first
 * name of a dotted row that no row of its own gives (`error`) is the object that name says, at the first such row.
 * Null when the folder has no such include, or its table is none the field readers know (a warning).
 */
function errorBodyOf(texts: ReadonlyMap<string, string>, root: string, resolve: IncludeResolver, catalogue: TypeCatalogue, diagnostics: Diagnostic[], name: string): Field[] | null {
  const file = `${root}_includes/${name}`;
  const text = texts.get(file);
  if (text === undefined) return null;
  const table = scanPage(file, text, resolve).blocks.find((b) => b.kind === "table");
  if (!table || table.kind !== "table") return null;
  const [header, ...rows] = table.rows;
  const cols = header ? fieldColumns(header) : null;
  if (!header || !cols) {
    diagnostics.push(diagnostic("unknown-table-column", { file, line: table.line, column: table.column, endLine: table.line, endColumn: table.column + 2 }, { header: (header ?? []).map((c) => c.text.replace(/\s+/g, " ")).join(" | "), known: "'Name `type` | Description'" }));
    return null;
  }
  const read = readFieldRows({ file, diagnostics, tableAt: catalogue.table, typeWord: catalogue.word }, cols, rows);
  const given = new Set(read.map((f) => f.name.replace(/\[\]/g, "")));
  // One pass: each first name no row gives, at its first row, required when any row under it is.
  const roots = new Map<string, Field>();
  for (const f of read) {
    const dot = isDotted(f.name) ? f.name.indexOf(".") : -1;
    const head = dot < 0 ? "" : f.name.slice(0, dot).replace(/\[\]$/, "");
    if (!head || given.has(head)) continue;
    const root = roots.get(head);
    if (root) root.required ||= f.required;
    else roots.set(head, { name: head, type: { kind: "object", members: [] }, required: f.required, nullable: false, description: "", source: f.source });
  }
  return nest([...roots.values(), ...read], diagnostics);
}

/** The area of a page: the folder under `api-reference/` (`crm` for `api-reference/crm/deals/crm-deal-get.md`). */
function areaOf(path: string): string {
  const m = /(?:^|\/)api-reference\/([^/]+)\//.exec(path);
  return m?.[1] ?? "reference";
}

/**
 * `{% include [..](path) %}` by its path: relative to the page, then to the root of the folder (the dialect's build
 * resolves both); never from a list of known targets.
 */
function includeResolver(texts: ReadonlyMap<string, string>): IncludeResolver {
  const root = [...texts.keys()].find((p) => API.test(p))?.replace(/api-reference\/.*$/, "") ?? "";
  return (from, target) => {
    if (/^[a-z]+:/i.test(target)) return null;
    const near = posix.normalize(posix.join(posix.dirname(from), target));
    const candidates = [near, posix.normalize(posix.join(root, target.replace(/^(\.\.?\/)+/, "")))];
    for (const file of candidates) {
      const text = texts.get(file);
      if (text !== undefined) return { file, text };
    }
    return null;
  };
}

/** The envelope from data-types.md's time object, the list pages' paging members and the legacy error include's body. */
function envelopeOf(pages: YfmPage[], catalogue: ReturnType<typeof readCatalogue>, diagnostics: Diagnostic[], paging: Field[], legacyErrorBody: Field[]): Envelope | null {
  const time = catalogue.table("time");
  const main = pages.find((p) => /(^|\/)api-reference\/data-types\.md$/.test(p.file));
  if (!time || !main) return null;
  const scope = { file: main.file, diagnostics, tableAt: catalogue.table, typeWord: catalogue.word };
  const [header, ...rows] = time.rows;
  const cols = header ? fieldColumns(header) : null;
  const timeFields = cols ? readFieldRows(scope, cols, rows) : [];
  const at = time.rows[0]?.[0];
  const source = at ? { file: at.file, line: at.line, column: at.column } : { file: main.file, line: 1, column: 1 };
  const member = (name: string, type: Field["type"], description: string): Field => ({ name, type, required: name !== "result", nullable: false, description, source });
  return {
    members: [
      member("result", { kind: "unknown" }, "The method's result."),
      member("time", { kind: "ref", resource: "Time" }, "Information about the request execution time."),
      // Only list methods answer with them.
      ...paging.map((f) => ({ ...f, required: false, optional: true })),
    ],
    time: timeFields,
    legacyErrorBody,
    notes: [],
    source,
  };
}
