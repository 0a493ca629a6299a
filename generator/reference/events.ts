import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";
import type { EventPayload, Field, TypeRef } from "../model/types.js";
import type { YfmBlock, YfmPage } from "../yfm/blocks.js";
import type { YfmCell } from "../yfm/tables.js";
import { FIELD_BUDGET, type FieldScope, fieldColumns, plainText, readFieldRows } from "./fields.js";
import { nest } from "./nesting.js";
import { scopeLine } from "./scopes.js";
import { type HeadingIndex, headingIndex, tableAt } from "./sections.js";

/**
 * An event page of the reference (spec-source/README-reference.md#event-pages):
 *
 *     # Event When Creating a Deal onCrmDealAdd      the event's name ends the title
 *     > Scope: [`crm`](…)
 *     ## What the Handler Receives                   a field table: event, data, data.FIELDS, ts, auth
 *
 * Dotted rows (`data.FIELDS`) are members of the row they extend; objects reach their members through anchors as
 * parameters do (`auth`, through the shared include of the authorization parameters).
 */

/** `onCrmDealAdd`, `OnLiveFeedPostAdd`, `ONCRMDEALADD`, `CATALOG.PRODUCT.ON.ADD`: the title's last word, whole. */
const EVENT_NAME = /^(?:(?:on|On|ON)[A-Z][A-Za-z0-9_]*|[A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*\.ON\.[A-Z0-9_.]+)$/;
const RECEIVES = /^what (?:the )?handler receives$|^what comes to the handler$|^event parameters$/i;
/** The section after the handler's that holds its payload's table, where the handler's shows only the JSON. */
const PARAMETERS = /^(?:request )?parameters$/i;

export interface EventScope {
  diagnostics: Diagnostic[];
  typeWord(word: string, role?: "parameter"): TypeRef | null;
  knownWords(): Iterable<string>;
  catalogueTable(anchor: string): { rows: YfmCell[][] } | null;
}

const srcOf = (b: { file: string; line: number; column: number }) => ({ file: b.file, line: b.line, column: b.column });

/**
 * The event a title names: its last word when that is an event's name ("Event When Creating a Deal onCrmDealAdd"),
 * else the one event's name among its words ("ONVOXIMPLANTCALLINIT Call Initialization Event", "When the
 * OnCalendarEntryUpdate Event Changes"); null when it names none, or several.
 */
function eventName(title: string): string | null {
  const words = title.replace(/`/g, "").trim().split(/\s+/);
  const last = words.at(-1);
  if (last && EVENT_NAME.test(last)) return last;
  const named = [...new Set(words.filter((w) => EVENT_NAME.test(w)))];
  return named.length === 1 ? (named[0] as string) : null;
}

/** The event a page describes, or null when it is no event page. */
export function readEventPage(page: YfmPage, scope: EventScope): EventPayload | null {
  const own = page.blocks.filter((b) => b.file === page.file);
  const title = own.find((b): b is Extract<YfmBlock, { kind: "heading" }> => b.kind === "heading" && b.depth === 1);
  if (!title) return null;
  const start = page.blocks.findIndex((b) => b.kind === "heading" && b.depth === 2 && RECEIVES.test(b.text.replace(/[`*]/g, "").trim()));
  if (start < 0) return null;
  const name = eventName(title.text);
  if (!name) {
    // A handler's section on a page that names no event: a placement's handler (the widget pages), or an overview
    // of an area's events. The reader types neither; a warning says so where the section is.
    const section = page.blocks[start] as Extract<YfmBlock, { kind: "heading" }>;
    scope.diagnostics.push(diagnostic("unplaced", { ...srcOf(section), endLine: section.line, endColumn: section.column + 1 }, { what: `the "${plainText(section.text)}" section: the page's title names no event (an event's name such as onCrmDealAdd or CATALOG.PRODUCT.ON.ADD), so what a handler receives here is typed nowhere` }));
    return null;
  }
  // The payload's field table: in the handler's section, or, where that section shows only the JSON, in the
  // section right after it when that is its parameters ("## Parameters", "## Request Parameters": the catalog's,
  // sale's and the application's event pages, 29 in all).
  const tableIn = (from: number): Extract<YfmBlock, { kind: "table" }> | null => {
    for (let i = from + 1; i < page.blocks.length; i++) {
      const b = page.blocks[i] as YfmBlock;
      if (b.kind === "heading" && b.depth <= 2) return null;
      if (b.kind === "table" && b.rows[0] && fieldColumns(b.rows[0])) return b;
    }
    return null;
  };
  let table = tableIn(start);
  if (!table) {
    const next = page.blocks.findIndex((b, i) => i > start && b.kind === "heading" && b.depth <= 2);
    const heading = page.blocks[next];
    if (heading?.kind === "heading" && heading.depth === 2 && PARAMETERS.test(plainText(heading.text))) table = tableIn(next);
  }
  // The codes a `Scope:` line begins with, as a method page's (scopes.ts scopeLine), and where that line is.
  const scopes: string[] = [];
  let scopesSource: EventPayload["scopesSource"];
  for (const b of own) {
    if (b.kind !== "quote") continue;
    for (const [i, line] of b.text.split("\n").entries()) {
      const said = scopeLine(b, i, line);
      if (!said) continue;
      scopes.push(...said.names);
      if (said.names.length > 0) scopesSource ??= said.at;
    }
  }
  // The first paragraph outside the notes (an AI-tools tip opens most pages).
  let inNote = 0;
  const description = own.find((b) => {
    if (b.kind === "note") inNote++;
    else if (b.kind === "end-note") inNote = Math.max(0, inNote - 1);
    return inNote === 0 && b.kind === "text" && !/^\{%|^Data is transmitted/.test(b.text);
  });
  const fields: Field[] = [];
  if (table) {
    let index: HeadingIndex | null = null;
    const fieldScope: FieldScope = {
      file: page.file,
      diagnostics: scope.diagnostics,
      tableAt: (anchor) => tableAt(page.blocks, (index ??= headingIndex(page.blocks)), anchor) ?? scope.catalogueTable(anchor),
      typeWord: scope.typeWord,
      knownWords: scope.knownWords,
      budget: { left: FIELD_BUDGET, warned: false },
    };
    const [header, ...rows] = table.rows;
    const cols = header ? fieldColumns(header) : null;
    if (cols) fields.push(...nest(readFieldRows(fieldScope, cols, rows), scope.diagnostics));
  } else {
    scope.diagnostics.push(diagnostic("unplaced", { ...srcOf(title), endLine: title.line, endColumn: title.column + 1 }, { what: `the payload of ${name}: its "What the Handler Receives" section has no field table` }));
  }
  return {
    name,
    code: name.toUpperCase(),
    description: description && description.kind === "text" ? plainText(description.text) : "",
    scopes: scopes.length > 0 ? scopes : null,
    ...(scopesSource ? { scopesSource } : {}),
    fields,
    source: srcOf(title),
  };
}

