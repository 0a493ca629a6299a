import type { RootContent, Table } from "mdast";
import type { CatalogueError, Statement } from "../model/types.js";
import { type Section, type Text, textOf, trimText } from "../parse/markdown.js";
import { type ReadContext, addGap, collapse, report, sourceOf, spanOfText } from "./inline.js";
import { ERROR_COLUMNS, cellText, errorWords, headerIndex, tableRows, warnErrorColumns } from "./tables.js";
import type { OlderStatus } from "../model/fragments.js";
import { pushAll } from "../util/arrays.js";
import { readStatements } from "./sections.js";

/**
 * The sections that hold the error catalogue (spec-source/README.md#errors): Errors, its tables by kind (system, 3.0),
 * and the statuses an older description gave codes ("Older description: …"), applied to the catalogue once it is
 * read; Authentication, its table of authorization failures and its rules.
 */

/** A status cell: a number, or empty, or "not shown" (a gap of the row's code); anything else is a warning. */
function statusCell(ctx: ReadContext, cell: Text | undefined, code = ""): number | null {
  const s = collapse(cell?.text ?? "");
  if (s === "") return null;
  if (/^\d{3}$/.test(s)) return Number(s);
  if (cell && /^not shown\.?$/i.test(s)) {
    addGap(ctx, cell, `HTTP status of ${code || "the error"}`, ["errors"]);
    return null;
  }
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
      status: statusCell(ctx, row[h.find(ERROR_COLUMNS.status) ?? -1], cellText(row, h.find(ERROR_COLUMNS.code)).replace(/`/g, "")),
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
 * `ERROR_BATCH_METHOD_NOT_ALLOWED` (405, method not allowed in batch), ..." (codes in backticks or not; "It also
 * adds" as well as "and adds").
 */
export function readOlderStatuses(ctx: ReadContext, t: Text): OlderStatus[] | null {
  const s = collapse(t.text);
  if (!/^(?:An |The )?older description\b/i.test(s)) return null;
  const [head, adds] = s.split(/\b(?:and|also) adds\b/);
  const source = sourceOf(ctx, trimText(t));
  const out: OlderStatus[] = [];
  for (const m of (head ?? "").replace(/`/g, "").matchAll(/\b([A-Za-z_]+) (\d{3})\b/g)) out.push({ code: m[1] ?? "", status: Number(m[2]), cause: null, adds: false, source });
  for (const m of (adds ?? "").matchAll(/`([A-Za-z_]+)` \((\d{3})(?:,\s*([^)]*))?\)/g)) out.push({ code: m[1] ?? "", status: Number(m[2]), cause: m[3] ? collapse(m[3]) : null, adds: true, source });
  return out;
}

/**
 * A table of an older description's statuses: `| Code | Status in the older description |`, `| Code | Older HTTP |
 * Notes |`, or any catalogue table right after "An older description …" / "The older description also adds:".
 */
function readOlderTable(ctx: ReadContext, table: Table, adds: boolean): OlderStatus[] {
  const { h, rows } = tableRows(ctx, table);
  const statusAt = h.find(/\bolder\b/) ?? h.find(ERROR_COLUMNS.status);
  const codeAt = h.find(ERROR_COLUMNS.code) ?? 0;
  const causeAt = h.find(ERROR_COLUMNS.cause);
  const out: OlderStatus[] = [];
  for (const row of rows) {
    const status = /^\d{3}$/.exec(cellText(row, statusAt));
    if (!status) {
      if (statusAt !== null && row[statusAt]) report(ctx, "bad-status", spanOfText(ctx, row[statusAt]), { text: cellText(row, statusAt) });
      continue;
    }
    // "added in older list; method not allowed in batch": the words after the marker are the cause.
    const words = cellText(row, causeAt);
    const added = /^added in (?:the )?older (?:list|description)\s*[;:,]?\s*/i.exec(words);
    const cause = added ? words.slice(added[0].length) : words;
    out.push({ code: cellText(row, codeAt).replace(/`/g, ""), status: Number(status[0]), cause: cause || null, adds: adds || !!added, source: sourceOf(ctx, row[codeAt] ?? { text: "", start: 0 }) });
  }
  return out;
}

/**
 * The older statuses, once every errors section is read (they may stand in a subsection of their own): a code of the
 * system catalogue takes its older status as `altStatus`; a code it lacks is added after the system entries, with no
 * current status.
 */
export function applyOlderStatuses(catalogue: CatalogueError[], older: readonly OlderStatus[], unknown: (o: OlderStatus) => void): void {
  const system = new Map<string, CatalogueError>();
  for (const e of catalogue) if (e.kind === "system" && !system.has(e.code)) system.set(e.code, e);
  const added: CatalogueError[] = [];
  for (const o of older) {
    const entry = system.get(o.code);
    if (entry) {
      entry.altStatus = o.status;
      continue;
    }
    // A status for a code the list does not have, where the older description does not say it adds it.
    if (!o.adds) {
      unknown(o);
      continue;
    }
    const e: CatalogueError = { kind: "system", status: null, altStatus: o.status, code: o.code, text: null, cause: o.cause, source: o.source };
    system.set(o.code, e);
    added.push(e);
  }
  let last = -1;
  for (let i = 0; i < catalogue.length; i++) if (catalogue[i]?.kind === "system") last = i;
  catalogue.splice(last + 1, 0, ...added);
}

/** The error catalogue: system errors (the default, or under a title that says so) and 3.0 errors, and older statuses. */
export function readErrorsSection(ctx: ReadContext, section: Section): { catalogue: CatalogueError[]; notes: Statement[]; older: OlderStatus[] } {
  const catalogue: CatalogueError[] = [];
  const older: OlderStatus[] = [];
  const rest: RootContent[] = [];
  const title = collapse(section.title);
  let kind: CatalogueError["kind"] = /\b3\.0\b/.test(title) && !/\bsystem\b/i.test(title) ? "v3" : "system";
  // Under "Older status assignments", or after a paragraph on the older description that ends in a colon ("The older
  // description also adds:"), a table lists older statuses.
  const olderSection = /\bolder\b/i.test(title);
  let olderNext = olderSection;
  /** The paragraph before the table says the older description adds these codes. */
  let addsNext = false;
  for (const block of section.blocks) {
    if (block.type === "table") {
      const header = block.children[0];
      const olderColumn = header ? headerIndex(ctx, header).find(/\bolder\b/) !== null : false;
      if (olderNext || olderColumn) pushAll(older, readOlderTable(ctx, block, addsNext));
      else pushAll(catalogue, readCatalogueTable(ctx, block, kind));
      continue;
    }
    const t = textOf(ctx.file, block);
    const s = collapse(t.text);
    if (/^System errors\b/.test(s)) kind = "system";
    else if (/^3\.0 errors\b/.test(s)) kind = "v3";
    // The "older description" paragraph adds to the catalogue and stays a note as well.
    if (block.type === "paragraph") {
      const found = readOlderStatuses(ctx, t);
      if (found) pushAll(older, found);
      olderNext = (olderSection && !/^(?:System|3\.0) errors\b/.test(s)) || (/\bolder\b/i.test(s) && /:$/.test(s));
      addsNext = olderNext && /\badds\b/i.test(s) && /:$/.test(s);
    }
    rest.push(block);
  }
  return { catalogue, notes: readStatements(ctx, rest, "errors"), older };
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
    // "Some methods need an application context and fail for webhooks with `WRONG_AUTH_TYPE` (e.g. `a`, `b`)", and
    // in other words: "… require an application context and reject webhook calls with `WRONG_AUTH_TYPE`. Examples:
    // `a`, `b`.", "Webhooks fail w/ `WRONG_AUTH_TYPE` on methods needing app context, e.g. `a`, …". The methods are
    // the dotted names after the examples' marker.
    // The sentence that names `WRONG_AUTH_TYPE` says the methods need the context, in no negation ("… is never
    // returned by methods that do not need an application context, e.g. …" names none).
    const said = rule.text.split(/(?<=\.)\s+(?=[A-Z])/).find((x) => x.includes("`WRONG_AUTH_TYPE`")) ?? "";
    if (!/\b(?:need|needs|needing|require|requires|requiring)\b[^.]*?\b(?:application|app) context\b/i.test(said)) continue;
    if (/\b(?:never|not|no|without|except|unless)\b|n't\b/i.test(said)) continue;
    const marker = /\(e\.g\.\s*([^)]*)\)|\b(?:e\.g\.|for example|examples?:)\s*(.*)$/i.exec(rule.text);
    if (!marker) continue;
    for (const x of (marker[1] ?? marker[2] ?? "").matchAll(/`([a-z][\w]*(?:\.[\w]+)+)`/g)) applicationContext.push({ name: x[1] ?? "", source: rule.source });
  }
  return { rules, catalogue, applicationContext };
}
