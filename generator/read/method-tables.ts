import type { Table } from "mdast";
import type { Field, Method, ResultSpec } from "../model/types.js";
import type { Text } from "../parse/markdown.js";
import { type ReadContext, addGap, collapse, place, report, sourceOf, spanOfText } from "./inline.js";
import { fieldColumns } from "./facts.js";
import { type State, addParams, constraintFrom } from "./method-state.js";
import { paramFromRow } from "./params.js";
import { readResultAlternatives } from "./results.js";
import { ERROR_COLUMNS, errorWords, headerIndex, readCodeCell, readCodeTextCell, tableRows, warnErrorColumns } from "./tables.js";
import { field } from "./types.js";

/**
 * The tables under a method (spec-source/README.md#methods): its parameters' or an object's members, its errors, the
 * facts in columns (`| Scope | Who can call |`), its call forms, and the alternatives of its result. read/method-body.ts
 * decides which a table is and folds what these return into the method.
 */

/**
 * A table of parameters or of an object's members: columns found by header synonyms (generator/read/facts.ts). A
 * Meaning cell's "at least one of" clause is the method's constraint, as in a bullet.
 */
export function readParamTable(ctx: ReadContext, table: Table, method: Method): Field[] {
  const cols = fieldColumns(ctx, table);
  const { rows } = tableRows(ctx, table);
  const out: Field[] = [];
  for (const cells of rows) {
    const others: Text[] = [];
    // `| header | \`Idempotency-Key\` | honored |`: the header the method honours, no parameter of its body.
    const location = cols.location === null ? "" : collapse(cells[cols.location]?.text ?? "").toLowerCase();
    if (location === "header") {
      // Any other header is no fact of the model: its row stays unplaced, and the ledger says so.
      const nameCell = cells[cols.name];
      if (nameCell && /^`?Idempotency-Key`?$/i.test(collapse(nameCell.text))) {
        method.idempotencyKey = true;
        place(ctx, nameCell);
      }
      continue;
    }
    const p = paramFromRow(ctx, cols, cells, others);
    if (p) out.push(p);
    for (const o of others) {
      const c = constraintFrom(ctx, o);
      if (c) method.constraints.push(c);
    }
  }
  return out;
}

/** `| Status | Code | Text |` tables of a method's errors (the contract's second form). */
export function readErrorTable(ctx: ReadContext, table: Table, method: Method, labelled: number[] = [], labelCode: string | null = null): void {
  const { h, rows } = tableRows(ctx, table);
  warnErrorColumns(ctx, table, h);
  // "not shown" in Code cells is one known gap of the method.
  let notShownAt: Text | undefined;
  /** The statuses of the row above: a row "others: …" with none has them, as "…; others for …" has in a sentence. */
  let above: number[] = [];
  for (const cells of rows) {
    const cell = (re: RegExp) => {
      const i = h.find(re);
      return i === null ? "" : collapse(cells[i]?.text ?? "");
    };
    const statusText = cell(ERROR_COLUMNS.status).replace(/\*\*/g, "");
    const status = /^\d{3}$/.test(statusText) ? Number(statusText) : null;
    if (statusText && status === null && !/^\dxx$/i.test(statusText)) {
      report(ctx, "bad-status", spanOfText(ctx, cells[h.find(ERROR_COLUMNS.status) ?? 0] ?? { text: "", start: 0 }), { text: statusText });
    }
    // A `Code / message` column holds both: "code `X`, text `Y`" (a blank cell gives neither).
    const inWords = h.find(ERROR_COLUMNS.code) === null && h.find(ERROR_COLUMNS.codeText) === null;
    const both = h.find(ERROR_COLUMNS.code) === null ? readCodeTextCell(cell(inWords ? ERROR_COLUMNS.cause : ERROR_COLUMNS.codeText)) : null;
    const codeAt = h.find(ERROR_COLUMNS.code) ?? h.find(ERROR_COLUMNS.codeText);
    const code = readCodeCell(both ? (both.code !== null ? `\`${both.code}\`` : "") : cell(ERROR_COLUMNS.code));
    const codeCell = codeAt === null ? undefined : cells[codeAt];
    if (code.unread && codeCell) report(ctx, "unread-text", spanOfText(ctx, codeCell), { what: "error code", text: code.words.slice(0, 80) });
    if (code.notShown && codeCell && !notShownAt) {
      notShownAt = codeCell;
      addGap(ctx, codeCell, "Error codes", [`method:${method.version}:${method.name}`]);
    }
    const words = errorWords(cell);
    const text = words.text.replace(/^`|`$/g, "") || (both?.text ?? "");
    // "A required field is missing, or the pay system is not found: code `X`, text `Y`": the words before the code.
    if (inWords && both?.code != null) words.cause = words.cause.replace(/[:;,]?\s*code\s+`[^`]*`.*$/i, "").trim();
    const cause = words.cause || (code.unread ? "" : code.words);
    // Statuses the label before the table gave ("Errors (HTTP 400):"), where the table has no status column.
    const own = status ?? code.status;
    const others = own === null && !statusText && code.code === null && /^others?\b|^other errors\b/i.test(words.cause || text) && !/\b[1-5]\d\d\b/.test(`${words.cause} ${text}`);
    const statuses = own !== null ? [own] : others && above.length > 0 ? above : h.find(ERROR_COLUMNS.status) === null ? labelled : [];
    above = statuses;
    method.errors.push({
      status: own ?? (statuses.length === 1 ? (statuses[0] ?? null) : null),
      statuses,
      statusClass: /^\dxx$/i.test(statusText) ? statusText.toLowerCase() : null,
      statusFrom: statuses.length > 0 ? "method" : null,
      code: code.code ?? (codeAt === null ? labelCode : null),
      text: text || null,
      cause: cause || null,
      source: sourceOf(ctx, cells[0] ?? { text: "", start: 0 }),
    });
  }
}

/** The headers of a table that states a method's facts in columns (`| Scope | Who can call |`). */
const LABEL_COLUMNS = /^(?:scopes?|who can (?:call|execute(?: the method)?)|access|context|returns|result|parameters|params)$/;

export function isLabelTable(ctx: ReadContext, table: Table): boolean {
  const header = table.children[0];
  if (!header) return false;
  const h = headerIndex(ctx, header);
  return h.names.length > 0 && h.names.every((n) => LABEL_COLUMNS.test(n));
}

export function isErrorTable(ctx: ReadContext, table: Table): boolean {
  const header = table.children[0];
  if (!header) return false;
  const h = headerIndex(ctx, header);
  // `| Status | Description |` under a method: its errors, the codes in the words ("…: code `X`, text `Y`").
  // Every row's status an error's (4xx or 5xx): "Call statuses: 200 | successful call" is no table of errors.
  if (h.find(ERROR_COLUMNS.code) === null && h.find(ERROR_COLUMNS.codeText) === null) {
    const at = h.find(ERROR_COLUMNS.status);
    if (at === null || h.find(ERROR_COLUMNS.cause) === null || h.names.length !== 2) return false;
    const rows = tableRows(ctx, table).rows;
    return rows.length > 0 && rows.every((r) => /^(?:\*\*)?[45]\d\d(?:\*\*)?$/.test(collapse(r[at]?.text ?? "")));
  }
  return h.find(ERROR_COLUMNS.status) !== null || h.find(ERROR_COLUMNS.text) !== null || h.find(ERROR_COLUMNS.mixed) !== null || h.find(ERROR_COLUMNS.cause) !== null;
}

/**
 * The call forms as a table: `| Form | Required parameters | Description |` (or `| # | Params | Notes |`), a row a
 * form; its parameters cell names them (`` `a`, `b` `` or `**a***, **b***`), and its description is theirs.
 */
export function readCallFormTable(ctx: ReadContext, st: State, table: Table, said: Text): void {
  const { h, rows } = tableRows(ctx, table);
  const paramsAt = h.find(/^(?:(?:required )?param(?:eter)?s|fields|names?)$/) ?? 1;
  const describedAt = h.find(/^(?:description|notes?|meaning|what)$/);
  const forms: string[][] = [];
  for (const cells of rows) {
    const cell = cells[paramsAt];
    if (!cell) continue;
    const names = [...cell.text.matchAll(/`([A-Za-z_]\w*)`|\*\*([A-Za-z_]\w*)\*?\*\*/g)].map((x) => x[1] ?? x[2] ?? "");
    if (names.length === 0) {
      report(ctx, "unread-text", spanOfText(ctx, cell), { what: "call form", text: collapse(cell.text).slice(0, 80) });
      continue;
    }
    const description = describedAt === null ? "" : collapse(cells[describedAt]?.text ?? "");
    addParams(ctx, st, names.map((name) => field({ name, type: { kind: "unknown" }, required: false, description, source: sourceOf(ctx, cell) })));
    forms.push(names);
  }
  st.method.constraints.push({ kind: "call-forms", forms, text: collapse(said.text), source: sourceOf(ctx, said) });
}

/** A result read from a label alone ("Result:", "**Returns**"): what follows it says the result. */
export function resultIsLabel(r: ResultSpec): boolean {
  return r.type.kind === "unknown" && r.type.note === undefined && /^\W*(?:Result|Returns?|Response)\W*$/i.test(r.description);
}

/**
 * A table of alternatives of the result: a column headed `result` (in backticks or not), a row each condition
 * (`| Request contains | \`result\` |`). False when the table has no such column or a row names no members.
 */
export function readResultTable(ctx: ReadContext, st: State, table: Table): boolean {
  const header = table.children[0];
  if (!header || header.children.length !== 2 || (st.method.result && !resultIsLabel(st.method.result))) return false;
  const h = headerIndex(ctx, header);
  const at = h.names.findIndex((n) => /^`?result`?$/i.test(n.trim()));
  if (at < 0) return false;
  const { rows } = tableRows(ctx, table);
  const items = rows.flatMap((cells) => {
    const result = cells[at];
    const condition = cells[1 - at];
    return result ? [{ at: result, result: result.text, whole: `${collapse(condition?.text ?? "")}: ${collapse(result.text)}`, condition: condition?.text ?? "" }] : [];
  });
  const alternatives = readResultAlternatives(ctx, items);
  if (!alternatives) return false;
  st.method.result = alternatives;
  return true;
}
