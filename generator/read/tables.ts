import type { TableRow } from "mdast";
import { rowCells } from "../parse/markdown.js";
import { type ReadContext, collapse } from "./inline.js";

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
