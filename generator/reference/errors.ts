import type { CatalogueError, MethodError } from "../model/types.js";
import type { YfmCell } from "../yfm/tables.js";
import { plainText } from "./fields.js";

/**
 * Error tables of the reference (spec-source/README-reference.md#error-tables), in their layouts:
 *
 *     || **Code** | **Description** | **Value** ||             the code, the error's text, when it happens
 *     || **Status** | **Code** | **Description** | **Value** ||
 *     || **Code** | **Error Message** | **Description** ||
 *     || **Code** | **Description** | **Status** ||
 *     || **Code** | **Description** ||                          the code and when it happens
 *     || **Field** | **Error Description** | **How to Fix** ||   3.0 validation: the code is the "Error Code:" above
 *
 * The system errors' include (`_includes/system-errors.md`) puts the status and the code in one cell, the message on
 * the code's next line. A code cell of "Empty value" (or "empty string") is the empty code `""`.
 */

export interface ErrorColumns {
  status: number | null;
  code: number | null;
  text: number | null;
  cause: number | null;
  field: number | null;
}

const strip = (s: string) => s.replace(/[*`\\]/g, "").replace(/\s+/g, " ").trim().toLowerCase();

/** The columns of an error table, from its header; null when it is none. */
export function errorColumns(header: YfmCell[]): ErrorColumns | null {
  const words = header.map((c) => strip(c.text));
  const find = (re: RegExp) => {
    const i = words.findIndex((w) => re.test(w));
    return i >= 0 ? i : null;
  };
  const status = find(/^(http )?status\b/);
  const code = find(/^(error )?code\b/);
  const field = find(/^field\b/);
  const textCol = find(/^(error )?(message|text)\b|^error description\b/);
  const describes = find(/^description\b/);
  const cause = find(/^(value|when it occurs|additional information|how to fix|meaning|cause|reason)\b/);
  if (code === null && field === null && textCol === null) return null;
  // "Description" is the error's text when another column says when it happens, else it says when it happens itself.
  if (textCol === null && cause !== null) return { status, code, text: describes, cause, field };
  return { status, code, text: textCol, cause: cause ?? describes, field };
}

const at = (c: YfmCell) => ({ file: c.file, line: c.line, column: c.column });

/** A code cell's code: `` `ERROR_X` `` or `ERROR_X`, `""` for an empty value, null for none. */
export function codeOf(cell: string): string | null {
  const first = cell.split("\n")[0] ?? "";
  const tick = /`([^`]*)`/.exec(first);
  const word = (tick ? tick[1] : first.replace(/\*\*/g, ""))?.trim() ?? "";
  if (/^(empty( value| string)?|""|''|\(empty\))$/i.test(word)) return "";
  if (/^[-–—]?$|^none$/i.test(word)) return null;
  return /^[\w.:-]+$/.test(word) ? word : null;
}

function statusOf(cell: string | undefined): number | null {
  const m = /\b([1-5]\d\d)\b/.exec(cell ?? "");
  return m ? Number(m[1]) : null;
}

/** The errors of an error table's rows (the header excluded); `code` is the 3.0 validation table's "Error Code:". */
/**
 * A row's status is its own Status cell, else none ("HTTP Status: **400**" above an error example is that example's,
 * not every listed error's; the model takes the status from the catalogue where the code is there).
 */
export function readErrorRows(cols: ErrorColumns, rows: YfmCell[][], code: string | null): MethodError[] {
  const out: MethodError[] = [];
  for (const row of rows) {
    const first = row[0];
    if (!first) continue;
    const codeCell = cols.code !== null ? row[cols.code] : undefined;
    const own = codeCell ? codeOf(codeCell.text) : null;
    const s = cols.status !== null ? statusOf(row[cols.status]?.text) : null;
    const text = cols.text !== null ? plainText((row[cols.text]?.text ?? "").replace(/`/g, "")) : null;
    const causeText = cols.cause !== null ? plainText(row[cols.cause]?.text ?? "") : null;
    const field = cols.field !== null ? (/`([^`]+)`/.exec(row[cols.field]?.text ?? "")?.[1] ?? plainText(row[cols.field]?.text ?? "")) : null;
    out.push({
      status: s,
      statuses: s !== null ? [s] : [],
      statusClass: null,
      statusFrom: s !== null ? "method" : null,
      code: codeCell ? own : code,
      text: text || null,
      cause: causeText || (field ? `the field \`${field}\`` : null),
      ...(field ? { trigger: { parameter: field, failure: "value" as const, words: text ?? "" } } : {}),
      source: at(codeCell ?? first),
    });
  }
  return out;
}

/** The system errors' table (`|| `500` | `INTERNAL_SERVER_ERROR` ⏎ Internal server error | … ||`) as catalogue entries. */
export function readSystemErrors(rows: YfmCell[][]): CatalogueError[] {
  const out: CatalogueError[] = [];
  for (const row of rows.slice(1)) {
    const [statusCell, codeCell, describes] = row;
    if (!statusCell || !codeCell) continue;
    const code = codeOf(codeCell.text);
    if (!code) continue;
    const message = codeCell.text.split("\n").slice(1).join(" ").trim();
    out.push({
      kind: "system",
      status: statusOf(statusCell.text),
      altStatus: null,
      code,
      text: message || null,
      cause: describes ? plainText(describes.text) : null,
      source: at(codeCell),
    });
  }
  return out;
}
