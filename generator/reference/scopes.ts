import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";
import type { ScopeEntry } from "../model/types.js";
import type { YfmBlock } from "../yfm/blocks.js";
import type { YfmCell } from "../yfm/tables.js";
import { plainText } from "./fields.js";

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
  const table = blocks.find((b): b is Extract<YfmBlock, { kind: "table" }> => b.kind === "table" && (b.rows[0] ?? []).some((c) => /\bscope\b.*\bcode\b/i.test(plainText(c.text))));
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
      out.push({ code: item[1] as string, description: plainText(after), tool: toolText, source: { file: nameCell.file, line: nameCell.line + 1 + i, column: nameCell.column } });
    }
  }
  // "Additionally, three deprecated scopes are available — tasks, tasks_extended, tasksmobile. They should not be used."
  for (const b of blocks) {
    if (b.kind !== "text" || b.file !== table.file) continue;
    const said = /\bdeprecated scopes?\b[^—–\n]*[—–]\s*([A-Za-z0-9_.]+(?:\s*,\s*[A-Za-z0-9_.]+)*)/i.exec(b.text);
    if (!said) continue;
    const text = plainText(b.text.replace(/^\[\*[^\]]*\]:\s*/, ""));
    // A code may hold dots (`sign.b2e`); the sentence's own full stop is none of it.
    for (const c of (said[1] ?? "").split(",").map((s) => s.trim().replace(/\.+$/, ""))) {
      const known = out.find((e) => e.code === c);
      if (known) known.deprecated = true;
      else out.push({ code: c, description: text, tool: "", deprecated: true, source: { file: b.file, line: b.line, column: b.column } });
    }
  }
  return out;
}
