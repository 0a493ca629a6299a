import type { RootContent, Table } from "mdast";
import type {
  AddressingForm,
  CatalogueError,
  Envelope,
  Field,
  FileRetrievalRow,
  Limit,
  StateTransition,
  Statement,
} from "../model/types.js";
import { type Section, type Text, listItemText, sliceText, textOf, trimText } from "../parse/markdown.js";
import { NOT_SHOWN, type ReadContext, addGap, collapse, report, sentences, sourceOf, spanOfText, statement } from "./inline.js";
import { ADDRESSING_COLUMNS, ERROR_COLUMNS, FILE_COLUMNS, LIMIT_COLUMNS, STATE_COLUMNS, errorWords, partitionTables, tableRows, warnErrorColumns } from "./tables.js";
import { field, readTypePhrase } from "./types.js";
import { pushAll } from "../util/arrays.js";

/**
 * The readers of the prose sections: each takes its section's blocks and returns statements, table rows and known
 * gaps (spec-source/README.md#sections). A statement is kept verbatim with its position; a "not shown" sentence
 * becomes a known gap.
 */

/** Paragraphs and list items of a section as statements; "not shown" ones become known gaps. */
export function readStatements(ctx: ReadContext, blocks: RootContent[], gapTarget: string, title: string = gapTarget): Statement[] {
  const out: Statement[] = [];
  for (const block of blocks) {
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
      const gaps = parts.filter((p) => NOT_SHOWN.test(collapse(p.text)));
      for (const g of gaps) addGap(ctx, g, (NOT_SHOWN.exec(collapse(g.text))?.[1] ?? "").trim(), [gapTarget]);
      if (gaps.length === 0) out.push(statement(ctx, t));
      else for (const p of parts) if (!gaps.includes(p)) out.push(statement(ctx, p));
    }
  }
  return out;
}

const cellText = (row: Text[], i: number | null): string => (i === null ? "" : collapse(row[i]?.text ?? ""));

/** "Response envelope": the members table, the `time` table after "Object `time`:", the legacy error body. */
export function readEnvelope(ctx: ReadContext, section: Section): Envelope {
  const env: Envelope = { members: [], time: [], legacyErrorBody: [], notes: [], source: sourceOf(ctx, { text: section.title, start: section.start }) };
  let target: "members" | "time" = "members";
  for (const block of section.blocks) {
    if (block.type === "table") {
      const { h, rows } = tableRows(ctx, block);
      for (const row of rows) {
        const name = row[h.find(/^(member|field)$/) ?? 0];
        if (!name) continue;
        const typeText = cellText(row, h.find(/^type$/));
        const meaning = cellText(row, h.find(/^meaning$/));
        const tp = readTypePhrase(typeText);
        const rest = tp ? typeText.slice(tp.length).trim() : typeText;
        const f = field({
          name: name.text,
          type: tp?.type ?? { kind: "unknown" },
          required: true,
          nullable: tp?.nullable ?? false,
          description: collapse([rest.replace(/^\((.*)\)$/, "$1"), meaning].filter(Boolean).join("; ")),
          source: sourceOf(ctx, name),
        });
        if (/\babsent in some\b/.test(meaning)) {
          f.required = false;
          f.optional = true;
        }
        env[target].push(f);
      }
      continue;
    }
    const t = textOf(ctx.file, block);
    const s = collapse(t.text);
    if (/^Object `time`:?$/.test(s)) {
      target = "time";
      env.notes.push(statement(ctx, t));
      continue;
    }
    const body = /^Legacy error body:\s*(.*)$/.exec(s);
    if (body) {
      env.legacyErrorBody = readErrorBody(ctx, t);
      env.notes.push(statement(ctx, t));
      continue;
    }
    if (block.type === "paragraph") env.notes.push(statement(ctx, t));
    else report(ctx, "unread-text", spanOfText(ctx, t), { what: block.type, text: s.slice(0, 80) });
  }
  return env;
}

/**
 * "`error` (string; digits, Latin letters and underscore; may be empty, ...) and `error_description` (string, ...).
 * Some errors add extra members, e.g. `argument` with the name of the faulty parameter."
 */
function readErrorBody(ctx: ReadContext, t: Text): Field[] {
  const s = collapse(t.text);
  const out: Field[] = [];
  for (const m of s.matchAll(/`([a-z_]+)` \(([^()]*)\)/g)) {
    const inner = m[2] ?? "";
    const tp = readTypePhrase(inner);
    const description = collapse(tp ? inner.slice(tp.length).replace(/^[;,\s]+/, "") : inner);
    const type = tp?.type ?? { kind: "unknown" as const };
    const pattern = /digits, Latin letters and underscore/.test(description) ? (/may be empty/.test(description) ? "^[0-9A-Za-z_]*$" : "^[0-9A-Za-z_]+$") : undefined;
    out.push(
      field({
        name: m[1] ?? "",
        type: pattern && type.kind === "primitive" ? { ...type, pattern } : type,
        required: true,
        description,
        source: sourceOf(ctx, { text: m[0], start: t.start + (t.text.indexOf(m[0]) >= 0 ? t.text.indexOf(m[0]) : 0) }),
      }),
    );
  }
  const extra = /extra members, e\.g\. `([a-z_]+)` with ([^.]*)/.exec(s);
  if (extra) {
    out.push(
      field({
        name: extra[1] ?? "",
        type: { kind: "primitive", type: "string" },
        required: false,
        optional: true,
        description: collapse(extra[2] ?? ""),
        source: sourceOf(ctx, t),
      }),
    );
  }
  return out;
}

export function readStates(ctx: ReadContext, section: Section): { transitions: StateTransition[]; notes: Statement[] } {
  const transitions: StateTransition[] = [];
  const { tables, rest } = partitionTables(ctx, section.blocks, STATE_COLUMNS);
  for (const { h, rows } of tables) {
    for (const row of rows) {
      transitions.push({
        subject: cellText(row, h.find(STATE_COLUMNS.subject)),
        trigger: cellText(row, h.find(STATE_COLUMNS.trigger)),
        condition: cellText(row, h.find(STATE_COLUMNS.condition)),
        next: cellText(row, h.find(STATE_COLUMNS.next)),
        also: cellText(row, h.find(STATE_COLUMNS.also)),
        source: sourceOf(ctx, row[0] ?? { text: "", start: section.start }),
      });
    }
  }
  return { transitions, notes: readStatements(ctx, rest, "states") };
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

/** A status cell: a number, or empty; anything else is a warning. */
function statusCell(ctx: ReadContext, cell: Text | undefined): number | null {
  const s = collapse(cell?.text ?? "");
  if (s === "") return null;
  if (/^\d{3}$/.test(s)) return Number(s);
  if (cell) report(ctx, "bad-status", spanOfText(ctx, cell), { text: s });
  return null;
}

/** `| Status | Code | Text | Cause |` (system), `| Code | Status | Cause |` (3.0), `| Status | Code | When |` (auth). */
export function readCatalogueTable(ctx: ReadContext, table: Table, kind: CatalogueError["kind"]): CatalogueError[] {
  const { h, rows } = tableRows(ctx, table);
  warnErrorColumns(ctx, table, h);
  return rows.map((row) => {
    const words = errorWords((re) => cellText(row, h.find(re)));
    const text = words.text.replace(/^text\s+/, "");
    return {
      kind,
      status: statusCell(ctx, row[h.find(ERROR_COLUMNS.status) ?? -1]),
      altStatus: null,
      code: cellText(row, h.find(ERROR_COLUMNS.code)).replace(/`/g, ""),
      text: text ? text.replace(/^`(.*)`$/, "$1") : null,
      cause: words.cause || null,
      source: sourceOf(ctx, row[h.find(ERROR_COLUMNS.code) ?? 0] ?? { text: "", start: 0 }),
    };
  });
}


/**
 * "An older description of the same list gives other statuses: INVALID_REQUEST 400, ... and adds
 * `ERROR_BATCH_METHOD_NOT_ALLOWED` (405, method not allowed in batch), ..." → altStatus and extra entries.
 */
export function readOlderStatuses(ctx: ReadContext, t: Text, catalogue: CatalogueError[]): boolean {
  const s = collapse(t.text);
  if (!/^An older description\b/.test(s)) return false;
  const [head, adds] = s.split(/\band adds\b/);
  for (const m of (head ?? "").matchAll(/\b([A-Za-z_]+) (\d{3})\b/g)) {
    const entry = catalogue.find((e) => e.kind === "system" && e.code === m[1]);
    if (entry) entry.altStatus = Number(m[2]);
  }
  for (const m of (adds ?? "").matchAll(/`([A-Za-z_]+)` \((\d{3})(?:,\s*([^)]*))?\)/g)) {
    catalogue.push({
      kind: "system",
      status: null,
      altStatus: Number(m[2]),
      code: m[1] ?? "",
      text: null,
      cause: m[3] ? collapse(m[3]) : null,
      source: sourceOf(ctx, trimText(t)),
    });
  }
  return true;
}

/** "Errors": the system table, the older statuses, the 3.0 table; the rest as notes and gaps. */
export function readErrorsSection(ctx: ReadContext, section: Section): { catalogue: CatalogueError[]; notes: Statement[] } {
  const catalogue: CatalogueError[] = [];
  const rest: RootContent[] = [];
  let kind: CatalogueError["kind"] = "system";
  for (const block of section.blocks) {
    if (block.type === "table") {
      pushAll(catalogue, readCatalogueTable(ctx, block, kind));
      continue;
    }
    const t = textOf(ctx.file, block);
    const s = collapse(t.text);
    if (/^System errors\b/.test(s)) kind = "system";
    else if (/^3\.0 errors\b/.test(s)) kind = "v3";
    // The "older description" paragraph adds to the catalogue and stays a note as well.
    if (block.type === "paragraph") readOlderStatuses(ctx, t, catalogue);
    rest.push(block);
  }
  return { catalogue, notes: readStatements(ctx, rest, "errors") };
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
      const range = /^(\d+) to (\d+)\b/.exec(value);
      if (range) {
        limit.min = Number(range[1]);
        limit.max = Number(range[2]);
      }
      const upTo = /^up to (\d+)\b/.exec(value);
      if (upTo) limit.max = Number(upTo[1]);
      const def = /\bdefault (\d+)\b/.exec(value);
      if (def) limit.defaultValue = Number(def[1]);
      const single = /^(\d+) (hours?|seconds?|minutes?)\b/.exec(value);
      if (single) limit.max = Number(single[1]);
      table.push(limit);
    }
  }
  return { table, rules: readStatements(ctx, rest, "limits") };
}

/**
 * "Authentication": rules, the authorization failures table, and the methods that "need an application context
 * and fail for webhooks with `WRONG_AUTH_TYPE` (e.g. `a`, `b`)".
 */
export function readAuthentication(
  ctx: ReadContext,
  section: Section,
): { rules: Statement[]; catalogue: CatalogueError[]; applicationContext: Array<{ name: string; source: Statement["source"] }> } {
  const catalogue: CatalogueError[] = [];
  const rest: RootContent[] = [];
  const applicationContext: Array<{ name: string; source: Statement["source"] }> = [];
  for (const block of section.blocks) {
    if (block.type === "table") {
      pushAll(catalogue, readCatalogueTable(ctx, block, "auth"));
      continue;
    }
    rest.push(block);
  }
  const rules = readStatements(ctx, rest, "authentication");
  for (const rule of rules) {
    const m = /need an application context and fail for webhooks with `WRONG_AUTH_TYPE` \(e\.g\. ([^)]*)\)/.exec(rule.text);
    if (!m) continue;
    for (const x of (m[1] ?? "").matchAll(/`([^`]+)`/g)) applicationContext.push({ name: x[1] ?? "", source: rule.source });
  }
  return { rules, catalogue, applicationContext };
}
