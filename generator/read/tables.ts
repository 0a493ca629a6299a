import type { RootContent, Table, TableRow } from "mdast";
import { type Text, rowCells, textOf } from "../parse/markdown.js";
import { type ReadContext, collapse, report, spanOfText } from "./inline.js";

/** Column lookup by header name, so that tables may order their columns freely (`| Code | Status | Cause |`). */
export interface HeaderIndex {
  names: string[];
  find(re: RegExp): number | null;
}

export function headerIndex(ctx: ReadContext, header: TableRow): HeaderIndex {
  const names = rowCells(ctx.file, header, header.children.length).map((c) => collapse(c.text).toLowerCase());
  return {
    names,
    find(re: RegExp): number | null {
      const i = names.findIndex((n) => re.test(n));
      return i < 0 ? null : i;
    },
  };
}

/** `Allowed actions` → `AllowedActions`, `calendar reminder` → `CalendarReminder`; non-letters split words. */
export function pascal(words: string): string {
  return words
    .replace(/[`()]/g, " ")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => (w.toUpperCase() === w && w.length > 1 && /[A-Z]/.test(w) ? w[0] + w.slice(1).toLowerCase() : w[0]?.toUpperCase() + w.slice(1)))
    .join("");
}

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
export function partitionTables(ctx: ReadContext, blocks: RootContent[]): { tables: Array<ReturnType<typeof tableRows>>; rest: RootContent[] } {
  const tables: Array<ReturnType<typeof tableRows>> = [];
  const rest: RootContent[] = [];
  for (const block of blocks) {
    if (block.type === "table") tables.push(tableRows(ctx, block));
    else rest.push(block);
  }
  return { tables, rest };
}
