import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";
import type { Source } from "../model/types.js";
import { type YfmBlock, slugOf } from "../yfm/blocks.js";
import type { YfmCell } from "../yfm/tables.js";
import { anchorLinks, fieldColumns } from "./fields.js";

/**
 * A method page's sections (spec-source/README-reference.md#method-pages), known by their headings' words at level 2
 * or 3 (SECTIONS), and the tables under a heading: a section's tables as one object or as cases of it, a table by
 * its heading's anchor or by the parameter it names, the first field table. Positions of a page's blocks as the
 * model's sources and the diagnostics' spans.
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

export const srcOf = (b: { file: string; line: number; column: number }): Source => ({ file: b.file, line: b.line, column: b.column });

export const spanOf = (b: { file: string; line: number; column: number }, length: number) => ({ ...srcOf(b), endLine: b.line, endColumn: b.column + Math.max(1, length) });

/**
 * The page's ledger (issue 26's rule, for pages): every row a field table's reader read is a fact the method holds
 * (a parameter, a member of its result at any depth, a member of the envelope) or has a warning on its line. A row
 * read and then set aside by a later reading, with nothing said, is the silent drop this turns into a warning.
 */
/** A position as a key; rows of an include keep their own file, so the file is part of it. */
export const positionKey = (s: Source) => `${s.file}:${s.line}:${s.column}`;

export interface PageSection {
  kind: SectionKind | null;
  heading: Extract<YfmBlock, { kind: "heading" }>;
  blocks: YfmBlock[];
}

/** The page's sections at level 2 and 3 that SECTIONS knows, each with its blocks up to the next such heading. */
export function sectionsOf(blocks: YfmBlock[]): PageSection[] {
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

export type SectionTable = Extract<YfmBlock, { kind: "table" }> & { parts?: Array<{ rows: YfmCell[][]; label: string | null }> };

/** A paragraph that names the member whose fields the next table lists: "**Object** `automatedSolution`:". */
export const MEMBER_LABEL = /^(?:\*\*(?:Object|Structure|Fields?(?: of)?)\*\*|Object|Structure of|Fields of) ?`([^`]+)`(?: (?:object|fields))?:?$/i;

/**
 * The page's headings by anchor (written, or the slug of their words) and by the field a sub-section is named after
 * ("Parameter fields", "FIELDS Parameter", "Object result", "Fields of the result object", in any case), built once
 * per page: a page's links ask it once each, in constant time, not with a scan of every heading.
 */
export interface HeadingIndex {
  byAnchor: Map<string, number>;
  /** A section named after a field (`result`, or its path `result.members`), lower case. */
  byField: Map<string, { index: number; anchor: string }>;
  /** The field a named section's anchor (lower case) is named after: the path the rows of its table continue. */
  fieldOf: Map<string, string>;
}

/**
 * Headings named after a field: "Parameter fields", "Object result", "Fields of the result.state object", "FIELDS
 * Parameter", "Result Type", "result Object Fields", "Structure of the `result` Object", "Element of the
 * result.members array" (the items of a list), "Key result. Object of type crm_item_payment_delivery" (a type word's
 * structure). The name may be a path (`result.members.user`): the page's tables name
 * their nesting so (sign.b2e.document.get).
 */
const NAMED_SECTION = new RegExp(
  [
    /^(?:parameter|object|fields of the|fields of)\s+(\S+)(?:\s+(?:parameter|object))?$/.source,
    /^(\S+)\s+(?:parameter|object|type|object fields)$/.source,
    /^(?:structure of the|structure of)\s+(\S+)\s+object$/.source,
    /^elements? of (?:the\s+)?(\S+)\s+array$/.source,
    // "Key result. Object of type crm_item_payment_delivery": the section of a type word the page's table uses unlinked.
    /^(?:[^.]*\.\s+)?(?:object|structure) of type\s+(\S+)$/.source,
    // "Response Element result" (a list's items: sign.b2e.personal.tail), "Key result" (sale.delivery.config.get).
    /^response element\s+(\S+)$/.source,
    /^key\s+(\S+)$/.source,
    // "Parameters Passed When Adding a Handler in the FORM_DATA Array" (sale.paysystem.handler.add).
    /^(?:.*\s)?in the\s+(\S+)\s+array$/.source,
  ].join("|"),
);

/** A written anchor that is a field's name: a letter, then letters, digits and underscores (no `-`, no slug of words). */
const FIELD_ANCHOR = /^[A-Za-z][A-Za-z0-9_]*$/;

/** The anchors the page's own links name (`](#data)`), in its words and its tables' cells, lower case. */
function linkedAnchors(blocks: readonly YfmBlock[]): Set<string> {
  const out = new Set<string>();
  const scan = (text: string) => {
    for (const a of anchorLinks(text)) out.add(a.toLowerCase());
  };
  for (const b of blocks) {
    if (b.kind === "text" || b.kind === "quote") scan(b.text);
    else if (b.kind === "table") for (const row of b.rows) for (const cell of row) scan(cell.text);
  }
  return out;
}

export function headingIndex(blocks: YfmBlock[]): HeadingIndex {
  const byAnchor = new Map<string, number>();
  const byField = new Map<string, { index: number; anchor: string }>();
  const fieldOf = new Map<string, string>();
  // Headings whose written anchor may name a field, asked after every heading the words name a field by.
  const anchored: Array<{ index: number; anchor: string }> = [];
  const name = (field: string, index: number, anchor: string) => {
    if (byField.has(field) || !sectionTables(blocks, index)) return;
    byField.set(field, { index, anchor });
    fieldOf.set(anchor.toLowerCase(), field);
  };
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i] as YfmBlock;
    if (b.kind !== "heading") continue;
    const slug = slugOf(b.text);
    // The first heading of an anchor is the one a link reaches, as in the published page.
    for (const key of [(b.anchor ?? "").toLowerCase(), slug]) if (key && !byAnchor.has(key)) byAnchor.set(key, i);
    if (b.depth < 2) continue;
    const words = b.text.replace(/[`*]/g, "").trim().toLowerCase();
    const field = NAMED_SECTION.exec(words)?.slice(1).find((g) => g !== undefined);
    if (field) name(field, i, b.anchor ?? slug);
    else if (b.anchor && FIELD_ANCHOR.test(b.anchor) && !SECTIONS.some(([, re]) => re.test(words))) anchored.push({ index: i, anchor: b.anchor });
  }
  // Else the anchor the page writes for a section, where it is a field's name and no link of the page leads to it:
  // "Document Array Element {#documents}" (documentgenerator.document.list's `documents`, whose row links nothing).
  // Never one of the page's own sections ("Returned Data {#result}" holds the rows of `result`, not its members), nor
  // over a section the words name after the field (second review: an earlier "Example values {#task}" had taken
  // `task` from "Fields of the task object"). A section a row links is that row's ("data Array Element {#data}", the
  // list `data` of hcmlink.employee.set), not another `data`'s of the same name (its job's "Additional job data").
  if (anchored.length > 0) {
    const linked = linkedAnchors(blocks);
    for (const a of anchored) if (!linked.has(a.anchor.toLowerCase())) name(a.anchor.toLowerCase(), a.index, a.anchor);
  }
  return { byAnchor, byField, fieldOf };
}

/**
 * The section named after a field (`byField`) that lies inside the section the heading of `anchor` opens: after that
 * heading, before the next heading of its depth or above.
 */
export function namedInside(blocks: YfmBlock[], index: HeadingIndex, name: string, anchor: string): { table: SectionTable; anchor: string } | null {
  const outer = index.byAnchor.get(anchor.toLowerCase());
  const found = index.byField.get(name.toLowerCase());
  const top = outer === undefined ? undefined : blocks[outer];
  if (!found || top?.kind !== "heading" || outer === undefined || found.index <= outer) return null;
  for (let i = outer + 1; i < found.index; i++) {
    const b = blocks[i] as YfmBlock;
    if (b.kind === "heading" && b.depth <= top.depth) return null;
  }
  const table = sectionTables(blocks, found.index);
  return table ? { table, anchor: found.anchor } : null;
}

/** A sub-section that lists its section's members: "Parameters of the `TagDto` Object", "Fields", "Parameters". */
const PARTS_HEADING = /^(?:parameters|fields)\b/i;

/** The table under the heading whose anchor is `anchor`, with every field table of its section (`parts`). */
export function tableAt(blocks: YfmBlock[], index: HeadingIndex, anchor: string): SectionTable | null {
  const i = index.byAnchor.get(anchor.toLowerCase());
  return i === undefined ? null : sectionTables(blocks, i);
}

function sectionTables(blocks: YfmBlock[], heading: number): SectionTable | null {
  const tables: Array<{ table: Extract<YfmBlock, { kind: "table" }>; label: string | null }> = [];
  for (let j = heading + 1; j < blocks.length; j++) {
    const n = blocks[j] as YfmBlock;
    if (n.kind === "heading") {
      // "## `TagDto` Object {#obuekt}", its words, then "### Parameters of the `TagDto` Object" and the table: a
      // section with no table of its own whose first sub-section gives its parameters or fields has that table.
      const own = blocks[heading] as YfmBlock;
      if (tables.length === 0 && own.kind === "heading" && n.depth > own.depth && PARTS_HEADING.test(n.text.replace(/[`*]/g, "").trim())) return sectionTables(blocks, j);
      break;
    }
    if (n.kind !== "table" || !n.rows[0] || !fieldColumns(n.rows[0])) continue;
    const before = blocks[j - 1];
    // Matched on the text with its spaces collapsed: the pattern then has no two runs of spaces side by side.
    tables.push({ table: n, label: before?.kind === "text" ? (MEMBER_LABEL.exec(before.text.replace(/\s+/g, " ").trim())?.[1] ?? null) : null });
  }
  const first = tables[0];
  if (!first) return null;
  return tables.length > 1 ? { ...first.table, parts: tables.map((t, i) => ({ rows: t.table.rows, label: i === 0 ? null : t.label })) } : first.table;
}

/**
 * The table of the section named after a field: after its path where the row sits in a named section's table
 * (`state` in "Fields of the result object" is "Fields of the result.state object" first), else after its name.
 * With `before`, only a section whose heading stands before that block (a parameter's, before what the method answers).
 * `heading` is the index of the section's heading among the blocks.
 */
export function tableNamed(blocks: YfmBlock[], index: HeadingIndex, name: string, within?: string, before = Infinity): { table: SectionTable; anchor: string; heading: number } | null {
  const path = within === undefined ? undefined : index.fieldOf.get(within.toLowerCase());
  const found = (path !== undefined ? index.byField.get(`${path}.${name}`.toLowerCase()) : undefined) ?? index.byField.get(name.toLowerCase());
  if (found && found.index >= before) return null;
  const table = found ? sectionTables(blocks, found.index) : null;
  return found && table ? { table, anchor: found.anchor, heading: found.index } : null;
}

export function firstFieldTable(blocks: YfmBlock[]): { table: Extract<YfmBlock, { kind: "table" }>; cols: NonNullable<ReturnType<typeof fieldColumns>> } | null {
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
 * objects) that no row reached: their fields are not in the model, so each is a warning. So is one under an H2 no
 * reader knows ("## Stage Parameters", "## Fields Returned by the Method"), wherever it stands: read by nothing, it
 * was dropped without a word.
 */
export function warnUnused(sections: PageSection[], used: ReadonlySet<YfmBlock | YfmCell[][]>, diagnostics: Diagnostic[]): void {
  let inFields = false;
  for (const s of sections) {
    if (s.kind !== null) inFields = s.kind === "parameters" || s.kind === "returned" || s.kind === "response";
    if (!inFields && s.kind !== null) continue;
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
