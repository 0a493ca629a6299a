import { posix } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";
import { emptyFragments } from "../model/fragments.js";
import type { FrontEnd } from "../model/front-end.js";
import type { CatalogueError, Envelope, Field, Method } from "../model/types.js";
import { type InputSource, looksLikeYfm } from "../source/index.js";
import { type IncludeResolver, type YfmPage, scanPage } from "../yfm/blocks.js";
import { readCatalogue } from "./catalogue.js";
import { fieldColumns, readFieldRows } from "./fields.js";
import { readPage } from "./page.js";

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
    const single = source.files.length === 1;
    const pages = source.files.filter((f) => single || (f.path.endsWith(".md") && API.test(f.path))).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const scanned = pages.map((f) => scanPage(f.path, f.text, resolve));
    for (const p of scanned) for (const b of p.blocks) if (b.kind === "include") diagnostics.push(diagnostic("unresolved-include", { file: b.file, line: b.line, column: b.column, endLine: b.line, endColumn: b.column + 2 }, { target: b.target, why: b.why }));
    const catalogue = readCatalogue(scanned.filter((p) => isCatalogue(p.file)), diagnostics);
    const fragments = emptyFragments();
    fragments.title = "Bitrix24 REST API (the platform's reference)";
    // The public URL of a page is its path from `api-reference/` on; a page outside that layout has none known.
    const first = pages.find((f) => API.test(f.path))?.path;
    if (first !== undefined) fragments.publicPages = { base: PUBLIC_BASE, root: first.slice(0, first.search(API) + (first.search(API) > 0 ? 1 : 0)) };
    const seen = new Map<string, Method>();
    let system: CatalogueError[] | null = null;
    for (const page of scanned) {
      if (isCatalogue(page.file)) continue;
      const reading = readPage(page, areaOf(page.file), {
        diagnostics,
        typeWord: catalogue.word,
        knownWords: catalogue.words,
        catalogueTable: catalogue.table,
        systemErrorsRead: system !== null,
      });
      system ??= reading.catalogue;
      const m = reading.method;
      if (!m) continue;
      const key = `${m.version}:${m.name}`;
      const first = seen.get(key);
      if (first) {
        diagnostics.push(diagnostic("duplicate-page", { ...m.source, endLine: m.source.line, endColumn: m.source.column + 1 }, { name: m.name, first: `${first.source.file}:${first.source.line}` }));
        continue;
      }
      seen.set(key, m);
      fragments.methods.push(m);
    }
    fragments.resources.push(...catalogue.resources);
    fragments.errors.catalogue.push(...(system ?? []));
    fragments.envelope = envelopeOf(scanned, catalogue, diagnostics);
    return { fragments, diagnostics, secrets: [] };
  },
};

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

/** The envelope from data-types.md's time object and the legacy error include. */
function envelopeOf(pages: YfmPage[], catalogue: ReturnType<typeof readCatalogue>, diagnostics: Diagnostic[]): Envelope | null {
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
    members: [member("result", { kind: "unknown" }, "The method's result."), member("time", { kind: "ref", resource: "Time" }, "Information about the request execution time.")],
    time: timeFields,
    legacyErrorBody: [member("error", { kind: "primitive", type: "string" }, "String error code."), member("error_description", { kind: "primitive", type: "string" }, "Textual description of the error.")],
    notes: [],
    source,
  };
}
