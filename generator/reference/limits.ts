import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";
import type { RequestRate } from "../model/types.js";
import type { YfmBlock } from "../yfm/blocks.js";
import type { YfmCell } from "../yfm/tables.js";
import { plainText } from "./fields.js";

/**
 * The platform's request-rate limits (the reference's `limits.md`, "Request Rate Limits"): a table of one row per
 * plan, `Tariff | Counter reduction rate, Y | Limit before blocking, X`, whose cells are `Enterprise`, `5 per sec`,
 * `250`. A column is known by its header's words: the plan by "tariff" or "plan", the drain by "rate", "reduction" or
 * "per second", the threshold by "limit", "blocking" or "threshold" (the rate column's header says "rate" and not
 * "limit"; the threshold's says "limit"). A row whose numbers cannot be read is `unreadable-limit` and stays out of
 * the model; a page without such a table gives none, and says so (`unreadable-limit` at its first line).
 */
export function readRequestRates(blocks: readonly YfmBlock[], diagnostics: Diagnostic[]): RequestRate[] | null {
  let table: Extract<YfmBlock, { kind: "table" }> | null = null;
  let found: { plan: number; rate: number; limit: number } | null = null;
  for (const b of blocks) {
    if (b.kind !== "table") continue;
    found = columnsOf(b.rows[0] ?? []);
    if (found) {
      table = b;
      break;
    }
  }
  if (!table || !found) {
    // A limits page whose request-rate table is not found: its wording changed, or the table went. Said, never a
    // silent loss of the model's requestRates.
    const first = blocks[0];
    if (first) diagnostics.push(diagnostic("unreadable-limit", { file: first.file, line: first.line, column: first.column, endLine: first.line, endColumn: first.column + 1 }, { row: "(the page)", why: "no table with a plan, a rate and a limit column (`Tariff | Counter reduction rate | Limit before blocking`)" }));
    return null;
  }
  const out: RequestRate[] = [];
  for (const row of table.rows.slice(1)) {
    const planCell = row[found.plan];
    if (!planCell) {
      const at = row[0] ?? table;
      diagnostics.push(diagnostic("unreadable-limit", { file: at.file, line: at.line, column: at.column, endLine: at.line, endColumn: at.column + 1 }, { row: row.map((c) => plainText(c.text)).join(" | ").slice(0, 80), why: "the row has no plan cell" }));
      continue;
    }
    const plan = plainText(planCell.text);
    const perSecond = count(row[found.rate], true);
    const burst = count(row[found.limit], false);
    const why = !plan ? "no plan" : perSecond === null ? "the requests drained a second are not a number" : burst === null ? "the requests held before blocking are not a number" : "";
    if (why) {
      const words = row.map((c) => plainText(c.text)).join(" | ");
      diagnostics.push(diagnostic("unreadable-limit", { file: planCell.file, line: planCell.line, column: planCell.column, endLine: planCell.line, endColumn: planCell.column + 1 }, { row: words.length > 80 ? `${words.slice(0, 80)}…` : words, why }));
      continue;
    }
    out.push({ plan, perSecond: perSecond as number, burst: burst as number, source: { file: planCell.file, line: planCell.line, column: planCell.column } });
  }
  return out;
}

/** The plan, drain and threshold columns of a header, or null when it is not the request-rate table's. */
function columnsOf(header: readonly YfmCell[]): { plan: number; rate: number; limit: number } | null {
  // Each cell's words, tested word by word: no pattern with a run between two words scans a long cell twice.
  const words = header.map((c) => plainText(c.text).toLowerCase());
  const plan = words.findIndex((w) => /\b(tariff|plan)s?\b/.test(w));
  const rate = words.findIndex((w, i) => i !== plan && (/\brate\b/.test(w) || /\breduction\b/.test(w) || /\bper sec(ond)?\b/.test(w)) && !/\blimit\b/.test(w));
  const limit = words.findIndex((w, i) => i !== plan && i !== rate && (/\blimit\b/.test(w) || /\bblocking\b/.test(w) || /\bthreshold\b/.test(w)));
  return plan >= 0 && rate >= 0 && limit >= 0 ? { plan, rate, limit } : null;
}

/**
 * A cell's number of requests: `250`, `5 per sec`, `2 per second`, `2/s`; a drain may be a fraction (`0.5 per sec`),
 * a threshold is a whole number. One anchored pattern without nested repeats: linear in the cell.
 */
function count(cell: YfmCell | undefined, perSecond: boolean): number | null {
  if (!cell) return null;
  const m = /^(\d{1,9}(?:\.\d{1,6})?)(?:\s{0,8}(?:per\s{1,8}sec(?:ond)?|\/\s{0,8}s(?:ec)?|requests?(?:\s{1,8}per\s{1,8}sec(?:ond)?)?))?\.?$/i.exec(plainText(cell.text));
  if (!m) return null;
  const n = Number(m[1]);
  if (!(n > 0) || (!perSecond && !Number.isInteger(n))) return null;
  return n;
}
