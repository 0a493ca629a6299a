import type { RootContent } from "mdast";
import type { AddressingForm, FileRetrievalRow, Limit, Statement } from "../model/types.js";
import { type Section, type Text, listItemText, sliceText, textOf } from "../parse/markdown.js";
import { type ReadContext, addGap, clauses, collapse, notShownSubject, place, report, sentences, sourceOf, spanOfText, statement } from "./inline.js";
import { ADDRESSING_COLUMNS, FILE_COLUMNS, LIMIT_COLUMNS, cellText, partitionTables, tableRows } from "./tables.js";

/**
 * The readers of the prose sections: each takes its section's blocks and returns statements, table rows and known
 * gaps (spec-source/README.md#sections). A statement is kept verbatim with its position; a "not shown" sentence
 * becomes a known gap.
 */

/** "Areas with 3.0 methods", "Areas that have 3.0 methods:" as a label of its own (a table follows). */
const V3_AREAS = /^Areas (?:with|w\/|that have) 3\.0 methods:?$/i;

/** Paragraphs and list items of a section as statements; "not shown" ones become known gaps. */
export function readStatements(ctx: ReadContext, blocks: RootContent[], gapTarget: string, title: string = gapTarget): Statement[] {
  const out: Statement[] = [];
  /** After a paragraph "Not shown:" (the label of a quoted note), each item of the next list is a gap. */
  let gapList = false;
  /** After a label "Areas that have 3.0 methods", the next table lists them, a row an area. */
  let v3Areas = false;
  for (const block of blocks) {
    if (block.type === "paragraph" && V3_AREAS.test(collapse(textOf(ctx.file, block).text).replace(/\*\*/g, ""))) {
      v3Areas = true;
      out.push(statement(ctx, textOf(ctx.file, block)));
      continue;
    }
    if (v3Areas && block.type === "table") {
      v3Areas = false;
      // Each row is a statement; the method groups it names are 3.0 methods the spec names, except those it says
      // "stay legacy" or "remain legacy" (`department.*`).
      for (const row of tableRows(ctx, block).rows) {
        const t = { text: row.map((c) => c.text).join(" | "), start: row[0]?.start ?? 0 };
        out.push(statement(ctx, t));
        // Clause by clause (a split, not a look-ahead per name: linear in the row).
        for (const clause of t.text.split(/[;()|]|\.\s/)) {
          if (/\b(?:stays?|remains?) legacy\b/.test(clause)) continue;
          for (const x of clause.matchAll(/`([a-z][\w]*(?:\.(?:[\w]+|\*))+)`/g)) (ctx.namedV3 ??= []).push({ name: x[1] ?? "", source: sourceOf(ctx, t) });
        }
        for (const c of row) place(ctx, c);
      }
      continue;
    }
    v3Areas = false;
    if (block.type === "paragraph" && /^(?:\*\*)?not shown:?(?:\*\*)?:?$/i.test(collapse(textOf(ctx.file, block).text))) {
      gapList = true;
      continue;
    }
    if (gapList && block.type === "list") {
      gapList = false;
      for (const item of block.children) {
        const t = listItemText(ctx.file, item);
        addGap(ctx, t, collapse(t.text).replace(/[;.,]$/, ""), [gapTarget]);
      }
      continue;
    }
    gapList = false;
    const texts: Text[] =
      block.type === "list"
        ? block.children.map((i) => listItemText(ctx.file, i))
        : block.type === "paragraph"
          ? [textOf(ctx.file, block)]
          : [];
    if (texts.length === 0) {
      // Readers that read tables take them out first: a table here is one no reader uses (issue 10: nothing
      // vanishes). It is kept as a note, with a warning.
      if (block.type !== "thematicBreak") {
        const t = textOf(ctx.file, block);
        report(ctx, "unread-text", spanOfText(ctx, t), { what: block.type, text: collapse(t.text).slice(0, 80) });
        if (block.type === "table") out.push(statement(ctx, t));
      }
      continue;
    }
    if (block.type === "paragraph") {
      // "**new.method**. Scope ..." under Versioning (or any heading but an Endpoints area) is no method there.
      const method = /^\*\*([a-z][\w]*(?:\.[\w*]+)+)\*\*(?:\s*\([^)]*\))?\s*[.:]/.exec(texts[0]?.text ?? "");
      if (method) {
        report(ctx, "method-outside-endpoints", spanOfText(ctx, sliceText(texts[0] ?? { text: "", start: 0 }, 0, method[0].length)), {
          name: method[1] ?? "",
          section: title,
        });
      }
    }
    for (const t of texts) {
      // A paragraph of several "X: not shown." lines holds one gap per sentence.
      const parts = sentences(t);
      const gaps = parts.filter((p) => notShownSubject(collapse(p.text)) !== null);
      for (const g of gaps) {
        // "Not shown: a; b; c." names three things not shown, one gap each; so does a bold label, "**Not shown:** a"
        // (read as "X: not shown", its subject was the bold's `**`).
        // The label's emphasis in any of its forms: `**Not shown:**`, `**Not shown**:`, `_Not shown_:`, `*Not shown*:`.
        const label = /^\s*(?:\*\*|__|\*|_)?not shown(?::(?:\*\*|__|\*|_)|(?:\*\*|__|\*|_):|:)\s*(?=\S)/i.exec(g.text);
        if (label) for (const c of clauses(sliceText(g, label[0].length))) addGap(ctx, c, collapse(c.text).replace(/[;.,]$/, ""), [gapTarget]);
        else addGap(ctx, g, notShownSubject(collapse(g.text)) ?? "", [gapTarget]);
      }
      if (gaps.length === 0) out.push(statement(ctx, t));
      else for (const p of parts) if (!gaps.includes(p)) out.push(statement(ctx, p));
    }
  }
  return out;
}

export function readAddressing(ctx: ReadContext, section: Section): { forms: AddressingForm[]; rules: Statement[] } {
  const forms: AddressingForm[] = [];
  const { tables, rest } = partitionTables(ctx, section.blocks, ADDRESSING_COLUMNS);
  for (const { h, rows } of tables) {
    for (const row of rows) {
      const form = cellText(row, h.find(ADDRESSING_COLUMNS.form));
      const pathCell = cellText(row, h.find(ADDRESSING_COLUMNS.path));
      const m = /^(?:(GET|POST|PUT|DELETE)\s+)?(\S+)\s*(.*)$/.exec(pathCell);
      forms.push({
        version: /^3\.0\b/.test(form) ? "v3" : "legacy",
        auth: /\bwebhook\b/i.test(form) ? "webhook" : "application",
        httpMethod: m?.[1] ?? null,
        path: m?.[2]?.replace(/;$/, "") ?? pathCell,
        notes: (m?.[3] ?? "").replace(/^[;\s]+/, "").split(/;\s*/).map(collapse).filter(Boolean).map((n) => n.replace(/^\((.*)\)$/, "$1")),
        source: sourceOf(ctx, row[0] ?? { text: "", start: section.start }),
      });
    }
  }
  return { forms, rules: readStatements(ctx, rest, "addressing") };
}

/** `crm.timeline.comment.get`, `.list` → both full names; "(and `crm.` variants)" adds the `crm.`-prefixed names. */
export function readFileRetrieval(ctx: ReadContext, section: Section): { rows: FileRetrievalRow[]; rules: Statement[] } {
  const rows: FileRetrievalRow[] = [];
  const { tables, rest } = partitionTables(ctx, section.blocks, FILE_COLUMNS);
  for (const { h, rows: cells } of tables) {
    for (const row of cells) {
      const methodsText = cellText(row, h.find(FILE_COLUMNS.method));
      const methods: string[] = [];
      let last = "";
      for (const m of methodsText.matchAll(/`([^`]+)`/g)) {
        const name = m[1] ?? "";
        if (name.startsWith(".") && last) methods.push(last.replace(/\.[^.]+$/, name));
        else if (/\.$/.test(name)) {
          // "(and `crm.` variants)": the same names under the prefix.
          for (const x of [...methods]) methods.push(`${name}${x}`);
        } else {
          methods.push(name);
          last = name;
        }
      }
      rows.push({
        where: cellText(row, h.find(FILE_COLUMNS.where)),
        methods,
        field: cellText(row, h.find(FILE_COLUMNS.field)),
        source: sourceOf(ctx, row[0] ?? { text: "", start: section.start }),
      });
    }
  }
  return { rows, rules: readStatements(ctx, rest, "file-retrieval") };
}

/** "Limits": the table with numbers read out of values, then the rules. */
export function readLimits(ctx: ReadContext, section: Section): { table: Limit[]; rules: Statement[] } {
  const table: Limit[] = [];
  const { tables, rest } = partitionTables(ctx, section.blocks, LIMIT_COLUMNS);
  for (const { h, rows } of tables) {
    for (const row of rows) {
      const value = cellText(row, h.find(LIMIT_COLUMNS.value));
      const limit: Limit = {
        name: cellText(row, h.find(LIMIT_COLUMNS.limit)),
        value,
        appliesTo: cellText(row, h.find(LIMIT_COLUMNS.appliesTo)),
        source: sourceOf(ctx, row[0] ?? { text: "", start: section.start }),
      };
      // "1 to 255", and a range written with a dash ("1–255").
      const range = /^(\d+)(?: to |\s*[–—-]\s*)(\d+)\b/.exec(value);
      if (range) {
        limit.min = Number(range[1]);
        limit.max = Number(range[2]);
      }
      const upTo = /^up to (\d+)\b/.exec(value);
      if (upTo) limit.max = Number(upTo[1]);
      const def = /\bdefault (\d+)\b/.exec(value);
      if (def) limit.defaultValue = Number(def[1]);
      // "24 hours", and its short forms ("24 h", "1 sec").
      const single = /^(\d+) (hours?|h|seconds?|secs?|s|minutes?|mins?)\b/.exec(value);
      if (single) limit.max = Number(single[1]);
      table.push(limit);
    }
  }
  return { table, rules: readStatements(ctx, rest, "limits") };
}
