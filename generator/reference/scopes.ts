import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";
import type { ScopeEntry } from "../model/types.js";
import type { YfmBlock } from "../yfm/blocks.js";
import type { YfmCell } from "../yfm/tables.js";
import { linkWords, plainText } from "./fields.js";

/**
 * The platform's list of scopes (the reference's `api-reference/scopes/permissions.md`, "Available Scopes"): a table
 * `Scope Code | Scope Name | Bitrix24 Tool`, one row per scope, where
 * - a code cell may name several codes of one scope (`**sonet_group, socialnetwork**`);
 * - a name cell may list the scope's versions below its name (`- **user_brief** — Users (minimal)`), each a code of
 *   its own with the row's tool;
 * and a sentence after it names scopes that are deprecated ("three deprecated scopes are available — tasks,
 * tasks_extended, tasksmobile"). A table with other columns is `unknown-table-column`; a page without a table of
 * scope codes gives no list.
 */
export function readScopeList(blocks: readonly YfmBlock[], diagnostics: Diagnostic[]): ScopeEntry[] | null {
  // Two word tests, not one pattern with `.*` between them, which would scan on from every "scope" of a long cell.
  const table = blocks.find((b): b is Extract<YfmBlock, { kind: "table" }> => b.kind === "table" && (b.rows[0] ?? []).some((c) => /\bscope\b/i.test(c.text) && /\bcode\b/i.test(c.text)));
  if (!table) return null;
  const [header, ...rows] = table.rows;
  const words = (header ?? []).map((c) => plainText(c.text).toLowerCase());
  const code = words.findIndex((w) => /\bcode\b/.test(w));
  const name = words.findIndex((w, i) => i !== code && /\b(name|description)\b/.test(w));
  const tool = words.findIndex((w, i) => i !== code && i !== name && /\btool\b/.test(w));
  if (name < 0) {
    diagnostics.push(diagnostic("unknown-table-column", { file: table.file, line: table.line, column: table.column, endLine: table.line, endColumn: table.column + 2 }, { header: words.join(" | "), known: "'Scope Code | Scope Name | Bitrix24 Tool'" }));
    return null;
  }
  const out: ScopeEntry[] = [];
  const at = (c: YfmCell) => ({ file: c.file, line: c.line, column: c.column });
  for (const row of rows) {
    const codeCell = row[code];
    const nameCell = row[name];
    if (!codeCell || !nameCell) continue;
    const toolText = tool >= 0 && row[tool] ? plainText(row[tool].text) : "";
    // The name's first line; the lines after it are the scope's versions, when they are a list of bold codes.
    const [first = "", ...rest] = nameCell.text.split("\n");
    for (const c of plainText(codeCell.text).split(",").map((s) => s.trim()).filter(Boolean)) {
      out.push({ code: c, description: plainText(first), tool: toolText, source: at(codeCell) });
    }
    for (const [i, line] of rest.entries()) {
      // `- **user_brief** — Users (minimal)`: a bold code, a dash, its words. Written as a scan, not one pattern
      // with optional spaces around the dash, which would backtrack on a long line of spaces.
      const item = /^\s*[-*]\s+\*\*([A-Za-z0-9_.]+)\*\*/.exec(line);
      if (!item) continue;
      const after = line.slice(item[0].length).trimStart().replace(/^[—–-]/, "").trim();
      // A line after the cell's first starts the source line: the code's column is its place in it.
      out.push({ code: item[1] as string, description: plainText(after), tool: toolText, source: { file: nameCell.file, line: nameCell.line + 1 + i, column: line.indexOf(item[1] as string) + 1 } });
    }
  }
  // "Additionally, three deprecated scopes are available — tasks, tasks_extended, tasksmobile. They should not be used."
  const byCode = new Map(out.map((e) => [e.code, e]));
  for (const b of blocks) {
    if (b.kind !== "text" || b.file !== table.file) continue;
    const said = deprecatedScopes(b.text);
    if (!said) continue;
    for (const c of said.codes) {
      const known = byCode.get(c);
      if (known) known.deprecated = true;
      else out.push({ code: c, description: said.words, tool: "", deprecated: true, source: { file: b.file, line: b.line, column: b.column } });
    }
  }
  return out;
}

/**
 * The codes a sentence names as deprecated scopes ("… deprecated scopes are available — a, b, c. They should not be
 * used."), and its words after them. Scanned with `indexOf` from the first "deprecated scope" to the dash on its line:
 * one pattern with a run between the two would scan on from every "deprecated scopes" of a long text.
 */
function deprecatedScopes(text: string): { codes: string[]; words: string } | null {
  const at = text.toLowerCase().indexOf("deprecated scope");
  if (at < 0) return null;
  const eol = text.indexOf("\n", at);
  const line = text.slice(at, eol < 0 ? text.length : eol);
  const dash = line.search(/[—–]/);
  if (dash < 0) return null;
  const list = /^\s*([A-Za-z0-9_.]+(?:,\s*[A-Za-z0-9_.]+)*)/.exec(line.slice(dash + 1));
  if (!list) return null;
  // A code may hold dots (`sign.b2e`); the sentence's own full stop is none of it.
  const codes = (list[1] ?? "").split(",").map((s) => s.trim().replace(/(?<!\.)\.+$/, "")).filter(Boolean);
  const words = plainText(line.slice(dash + 1 + list[0].length).replace(/^\.\s*/, ""));
  return { codes, words };
}

/**
 * The `Scope:` line of a quote's line `i` (a method's or an event's page, `> Scope: [\`crm\`](…)`): its codes, the
 * words after them, the words as written and the line's position; null for any other line.
 */
export function scopeLine(quote: { file: string; line: number; column: number }, i: number, line: string): { names: string[]; rest: string; written: string; at: { file: string; line: number; column: number } } | null {
  const said = /^\s*Scope\s*:\s*(.*)$/i.exec(line);
  if (!said) return null;
  const written = said[1] ?? "";
  return { ...scopeCodes(written), written, at: { file: quote.file, line: quote.line + i, column: quote.column } };
}

/**
 * The scope codes a `Scope:` line begins with, and the words after them: "[`placement`, `depending on the
 * placement`](…)" is the code `placement` and the note "depending on the placement"; "[`userfieldconfig`](…), module
 * scope from `moduleId` (for example, [`crm`](…))" is `userfieldconfig` and a note. A code is one backticked word
 * (letters, digits, `_`, `.`); the run of codes ends at the first thing that is not one after a comma, "and" or "or".
 */
export function scopeCodes(line: string): { names: string[]; rest: string } {
  // The links' words without their targets: the codes are written inside them.
  const text = linkWords(line);
  const names: string[] = [];
  // Sticky patterns, each from where the last code ended. One `\s*` before the optional separator and one after
  // it: no two adjacent runs of spaces to backtrack over. A pair of backticks may hold several codes
  // (`placement, crm`); a comma may come before "and".
  const firstCode = /\s*`([A-Za-z][\w.]*(?:,\s*[A-Za-z][\w.]*)*)`/y;
  const nextCode = /\s*(?:,(?:\s*(?:and|or)\b)?|and\b|or\b)\s*`([A-Za-z][\w.]*(?:,\s*[A-Za-z][\w.]*)*)`/y;
  let at = 0;
  for (;;) {
    const p = names.length === 0 ? firstCode : nextCode;
    p.lastIndex = at;
    const m = p.exec(text);
    if (!m) break;
    names.push(...(m[1] as string).split(",").map((s) => s.trim()));
    at = p.lastIndex;
  }
  return { names, rest: plainText(text.slice(at).replace(/^\s*,/, "")).trim() };
}
