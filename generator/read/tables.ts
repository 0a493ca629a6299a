import type { RootContent, Table, TableRow } from "mdast";
import { type Text, rowCells, textOf } from "../parse/markdown.js";
import { type ReadContext, collapse, report, spanOfText } from "./inline.js";

/** Column lookup by header name, so that tables may order their columns freely (`| Code | Status | Cause |`). */
export interface HeaderIndex {
  names: string[];
  find(re: RegExp): number | null;
}

export function headerIndex(ctx: ReadContext, header: TableRow): HeaderIndex {
  // Bold and code marks are emphasis, not words: `**Name**` names the column `name`.
  const names = rowCells(ctx.file, header, header.children.length).map((c) => collapse(c.text.replace(/\*\*|`/g, "")).toLowerCase());
  return {
    names,
    find(re: RegExp): number | null {
      const i = names.findIndex((n) => re.test(n));
      return i < 0 ? null : i;
    },
  };
}

export { pascal } from "../model/naming.js";

/** A cell's words, collapsed; empty where the table has no such column. */
export const cellText = (row: Text[], i: number | null): string => (i === null ? "" : collapse(row[i]?.text ?? ""));

/** A table's header index and its rows as cells; a row with too few cells is a warning and is padded. */
export function tableRows(ctx: ReadContext, table: Table): { h: HeaderIndex; rows: Text[][] } {
  const header = table.children[0];
  if (!header) return { h: { names: [], find: () => null }, rows: [] };
  const h = headerIndex(ctx, header);
  const width = header.children.length;
  const rows: Text[][] = [];
  for (const row of table.children.slice(1)) {
    if (row.children.length < width) {
      report(ctx, "table-row-cells", spanOfText(ctx, textOf(ctx.file, row)), { found: row.children.length, expected: width });
    }
    rows.push(rowCells(ctx.file, row, width));
  }
  return { h, rows };
}

/** The tables of a section's blocks, read, and the other blocks. */
export function partitionTables(ctx: ReadContext, blocks: RootContent[], columns?: Readonly<Record<string, RegExp>>): { tables: Array<ReturnType<typeof tableRows>>; rest: RootContent[] } {
  const tables: Array<ReturnType<typeof tableRows>> = [];
  const rest: RootContent[] = [];
  for (const block of blocks) {
    if (block.type === "table") {
      const read = tableRows(ctx, block);
      if (columns) warnColumns(ctx, block, read.h, columns);
      tables.push(read);
    } else rest.push(block);
  }
  return { tables, rest };
}

/**
 * A header that names none of a table's columns: a warning at the header cell, naming the columns the reader knows.
 * Its cells are not read as facts (issue 26: nothing a table says is dropped without a word).
 */
export function warnColumns(ctx: ReadContext, table: Table, h: HeaderIndex, columns: Readonly<Record<string, RegExp>>): void {
  const header = table.children[0];
  if (!header) return;
  const cells = rowCells(ctx.file, header, header.children.length);
  for (const [i, n] of h.names.entries()) {
    if (Object.values(columns).some((re) => re.test(n))) continue;
    const at = cells[i];
    if (at) report(ctx, "unknown-table-column", spanOfText(ctx, at), { header: collapse(at.text), known: Object.keys(columns).join(", ") });
  }
}

/**
 * The columns of an error table, the catalogue's and a method's, by header synonyms (spec-source/README.md#errors).
 * A mixed column ("Message / cause") holds a quoted text or words: a cell that is one code span is the text, else
 * the cause.
 */
export const ERROR_COLUMNS = {
  status: /^(?:status|http|http status|http code|status code)$/,
  code: /^(?:code|error code|error)$/,
  text: /^(?:text|message|msg|error message)$/,
  cause: /^(?:cause|when|meaning|description|notes?|cause \/ notes|situation|condition|reason|why)$/,
  mixed: /^(?:(?:message|msg) \/ cause|cause \/ (?:message|msg))$/,
  /** One cell for both: "code `ERROR_CHECK_FAILURE`, text `Pay system not found`". */
  codeText: /^(?:code \/ (?:message|msg|text)|code and (?:message|text)|code, (?:message|text))$/,
} as const;

/** A Code / message cell: the code after "code", the text after "text" or "message", each in backticks. */
export function readCodeTextCell(raw: string): { code: string | null; text: string | null } {
  const cell = collapse(raw);
  // "code `X`" opens the cell or follows a colon, comma or semicolon ("…: code `X`, text `Y`"); "The country code
  // `RU` is not supported" names no error code.
  const code = /(?:^|[:;,]\s*)code\s+`([A-Za-z0-9_.]*)`/i.exec(cell)?.[1] ?? null;
  return { code, text: code === null ? null : (/[:;,]\s*(?:text|message|msg)\s+`([^`]*)`/i.exec(cell)?.[1] ?? null) };
}

/**
 * The quoted text and the cause of an error row, given the cell of each of ERROR_COLUMNS: a Text cell, else a mixed
 * cell that is one code span; a Cause cell, else a mixed cell in words.
 */
export function errorWords(cell: (re: RegExp) => string): { text: string; cause: string } {
  const mixed = cell(ERROR_COLUMNS.mixed);
  const quoted = /^`[^`]+`$/.test(mixed);
  // "`Handler already binded`, or a binding already in progress …": the quoted text, then its cause in words (only
  // an alternative after the quote: "`taskId`, `users` or both not given" names parameters and stays the cause).
  const lead = quoted ? null : /^(`[^`]+`),\s*(or\s+.+)$/.exec(mixed);
  if (lead) return { text: cell(ERROR_COLUMNS.text) || (lead[1] ?? ""), cause: cell(ERROR_COLUMNS.cause) || (lead[2] ?? "") };
  // The same in a Description column, when it is the only one: "`Handler already binded`, or a binding …" (an
  // alternative after the quote; "`taskId` missing" names a parameter and stays the cause).
  const cause = cell(ERROR_COLUMNS.cause);
  const quotedCause = !cell(ERROR_COLUMNS.text) && !mixed ? /^(`[^`]+`),\s*(or\s+.+)$/.exec(cause) : null;
  if (quotedCause) return { text: quotedCause[1] ?? "", cause: quotedCause[2] ?? "" };
  return { text: cell(ERROR_COLUMNS.text) || (quoted ? mixed : ""), cause: cause || (quoted ? "" : mixed) };
}

/** What a Code cell of an error table says. */
export interface CodeCell {
  /** The code; `""` for an empty code the cell names ("(empty)"), null where the cell gives none. */
  code: string | null;
  /** A status written beside the code: `` `ACCESS_DENIED` (403) ``. */
  status: number | null;
  /** The cell says the code is not shown: a known gap of the method. */
  notShown: boolean;
  /** Words that are no code ("(a license error)"): the row's cause where it has none. */
  words: string;
  /** The cell is neither a code nor one of these forms: a warning, the row kept without a code. */
  unread: boolean;
}

/**
 * A Code cell: `` `CODE` ``, `CODE`, `` `CODE` (403) ``, an empty code (`(empty)`, `empty`, `""`), no code (a blank
 * cell, a dash, `(code not given)`, `none`, `n/a`), a code not shown (`not shown`, `(not shown)`), or words in
 * parentheses (`(a license error)`), which describe the error rather than name its code.
 */
export function readCodeCell(raw: string): CodeCell {
  const none: CodeCell = { code: null, status: null, notShown: false, words: "", unread: false };
  const cell = collapse(raw).replace(/\*\*/g, "");
  if (cell === "" || /^[—–-]$/.test(cell)) return none;
  const bare = cell.replace(/^\((.*)\)$/, "$1").trim();
  if (/^(?:empty(?: code| string)?|`?""`?|``)$/i.test(bare)) return { ...none, code: "" };
  if (/^(?:code )?not shown$/i.test(bare)) return { ...none, notShown: true };
  if (/^(?:(?:code )?not given|no code|none|n\/a|unknown|\?)$/i.test(bare)) return none;
  const coded = /^`?([A-Za-z0-9_.]*)`?(?:\s*\((?:HTTP\s*)?([1-5]\d\d)\))?$/.exec(cell);
  if (coded) return { ...none, code: coded[1] ?? "", status: coded[2] ? Number(coded[2]) : null };
  if (/^\(.*\)$/.test(cell)) return { ...none, words: bare };
  return { ...none, unread: true, words: cell };
}

/** An error table's headers that name no column the readers know: warnings; their cells are not read. */
export function warnErrorColumns(ctx: ReadContext, table: Table, h: HeaderIndex): void {
  warnColumns(ctx, table, h, ERROR_COLUMNS);
}

/** The columns of the States table. */
export const STATE_COLUMNS = {
  subject: /^(?:subject|object|entity|what)$/,
  trigger: /^(?:trigger|event|action|call)$/,
  condition: /^(?:condition|precondition|when|only if)$/,
  next: /^(?:→\s*)?(?:next state|new state|resulting state|result|outcome|then)$/,
  also: /^(?:also|side effects?|side notes|notes)$/,
} as const;

/** The columns of the addressing table. */
export const ADDRESSING_COLUMNS = { form: /^(?:form|kind|how)$/, path: /^(?:path|url|address|endpoint)$/ } as const;

/** The columns of the file retrieval table. */
export const FILE_COLUMNS = {
  where: /^(?:where\b.*|file lives in|source of the file|source|file)$/,
  method: /^(?:methods?|method\(s\))$/,
  field: /^(?:field\b.*|use field|what to use|use)$/,
} as const;

/** The columns of the Limits table. */
export const LIMIT_COLUMNS = { limit: /^(?:limit|name|what)$/, value: /^value$/, appliesTo: /^(?:applies to|for)$/ } as const;
