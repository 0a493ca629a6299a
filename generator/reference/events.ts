import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";
import type { EventPayload, Field, Placement, TypeRef } from "../model/types.js";
import type { YfmBlock, YfmPage } from "../yfm/blocks.js";
import type { YfmCell } from "../yfm/tables.js";
import { type FieldScope, fieldBudget, fieldColumns, plainText, readFieldRows } from "./fields.js";
import { withKeyFormsIn } from "./keys.js";
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

/** Whether a word is an event's name: `onCrmDealAdd`, `OnLiveFeedPostAdd`, `ONCRMDEALADD`, `CATALOG.PRODUCT.ON.ADD`. */
function isEventName(word: string): boolean {
  if (/^(?:on|On|ON)[A-Z][A-Za-z0-9_]*$/.test(word)) return true;
  // The dotted form is tested segment by segment: one pattern with repeated dotted groups before `.ON.` backtracked
  // quadratically on a long word of `.ON` (0.5 s at 50,000 characters).
  const parts = word.split(".");
  const on = parts.indexOf("ON", 1);
  return on > 0 && on < parts.length - 1 && /^[A-Z]/.test(parts[0] as string) && parts.every((p) => /^[A-Z0-9_]+$/.test(p));
}
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
  if (last && isEventName(last)) return last;
  const named = [...new Set(words.filter((w) => isEventName(w)))];
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
  if (!name) return null;
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
  const { scopes, scopesSource } = scopeOf(own);
  const description = firstParagraph(own);
  const fields: Field[] = table ? fieldsOf(page, table, scope) : [];
  if (!table) scope.diagnostics.push(diagnostic("unplaced", { ...srcOf(title), endLine: title.line, endColumn: title.column + 1 }, { what: `the payload of ${name}: its "What the Handler Receives" section has no field table` }));
  return {
    name,
    code: name.toUpperCase(),
    description,
    scopes: scopes.length > 0 ? scopes : null,
    ...(scopesSource ? { scopesSource } : {}),
    fields,
    source: srcOf(title),
  };
}

/** The codes of a page's `Scope:` lines, as a method page's (scopes.ts scopeLine), and where the first is. */
function scopeOf(own: readonly YfmBlock[]): { scopes: string[]; scopesSource?: { file: string; line: number; column: number } } {
  const scopes: string[] = [];
  let scopesSource: { file: string; line: number; column: number } | undefined;
  for (const b of own) {
    if (b.kind !== "quote") continue;
    for (const [i, line] of b.text.split("\n").entries()) {
      const said = scopeLine(b, i, line);
      if (!said) continue;
      scopes.push(...said.names);
      if (said.names.length > 0) scopesSource ??= said.at;
    }
  }
  return scopesSource ? { scopes, scopesSource } : { scopes };
}

/** The first paragraph outside the notes (an AI-tools tip opens most pages), as plain words; "" where there is none. */
function firstParagraph(own: readonly YfmBlock[]): string {
  let inNote = 0;
  const found = own.find((b) => {
    if (b.kind === "note") inNote++;
    else if (b.kind === "end-note") inNote = Math.max(0, inNote - 1);
    return inNote === 0 && b.kind === "text" && !/^\{%|^Data is (?:transmitted|sent)/.test(b.text);
  });
  return found && found.kind === "text" ? plainText(found.text) : "";
}

/** A field table's rows as fields, dotted rows nested, objects reaching their members through the page's anchors. */
function fieldsOf(page: YfmPage, table: Extract<YfmBlock, { kind: "table" }>, scope: EventScope): Field[] {
  let index: HeadingIndex | null = null;
  const fieldScope: FieldScope = {
    file: page.file,
    diagnostics: scope.diagnostics,
    tableAt: (anchor) => tableAt(page.blocks, (index ??= headingIndex(page.blocks)), anchor) ?? scope.catalogueTable(anchor),
    typeWord: scope.typeWord,
    knownWords: scope.knownWords,
    budget: fieldBudget(page.blocks),
  };
  const [header, ...rows] = table.rows;
  const cols = header ? fieldColumns(header) : null;
  // Rows named as forms of keys (`{BOT_ID}`) are the keys their objects take, not members (reference/keys.ts).
  return cols ? nest(readFieldRows(fieldScope, cols, rows), scope.diagnostics).map(withKeyFormsIn) : [];
}

/** The page's handler's section ("What the Handler Receives"), an H2, or -1. */
function handlerSection(page: YfmPage): number {
  return page.blocks.findIndex((b) => b.kind === "heading" && b.depth === 2 && RECEIVES.test(b.text.replace(/[`*]/g, "").trim()));
}

/**
 * A handler's section on a page read as neither an event nor a placement (an overview of an area's events or
 * placements, a JS event of the call card): the reader types what it receives nowhere, and says so at its heading.
 */
export function warnUnreadHandler(page: YfmPage, diagnostics: Diagnostic[]): void {
  const i = handlerSection(page);
  const section = page.blocks[i];
  if (section?.kind !== "heading" || section.file !== page.file) return;
  const at = { ...srcOf(section), endLine: section.line, endColumn: section.column + 1 };
  // The call card's events (`BackgroundCallCard::answerButtonClick`): the page says it is a JS interface event, "not a
  // REST event", which a handler of the widget's own script receives; the payloads typed are REST events'.
  const title = page.blocks.find((b) => b.kind === "heading" && b.depth === 1);
  const js = title?.kind === "heading" ? JS_EVENT_NAME.exec(title.text) : null;
  if (js && page.blocks.some((b) => b.kind === "text" && NOT_REST.test(b.text))) {
    diagnostics.push(diagnostic("unplaced", at, { what: `the "${plainText(section.text)}" section: ${js[1]} is a JS interface event, not a REST event (the page says so), and the payloads typed are REST events', so what its handler receives is typed nowhere` }));
    return;
  }
  diagnostics.push(diagnostic("unplaced", at, { what: `the "${plainText(section.text)}" section: the page's title names no event (an event's name such as onCrmDealAdd or CATALOG.PRODUCT.ON.ADD) and the page no placement code, so what a handler receives here is typed nowhere` }));
}

/** A JS interface event's name at the title's end: `BackgroundCallCard::answerButtonClick`. */
// From a word's start only: tried from each letter of a long word, it took time in the square of its length (review).
const JS_EVENT_NAME = /(?<!\w)(\w+::\w+)\s*$/;

/** "This is a JS interface event, not a REST event". */
const NOT_REST = /\bnot a REST event\b/i;

/** A placement's code: capitals, digits and underscores, with one underscore at least (`CRM_DEAL_DETAIL_TAB`, `LEFT_MENU`). */
const PLACEMENT_CODE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

/**
 * A widget page (spec-source/README-reference.md#placement-pages): the placement codes of its "Placement Code"
 * table (or, without one, its title's), what a handler receives, and the keys of `PLACEMENT_OPTIONS` from the table
 * of its section of that name. Null for a page with no handler's section or no code; an event page is read first.
 */
export function readPlacementPage(page: YfmPage, scope: EventScope): Placement | null {
  const own = page.blocks.filter((b) => b.file === page.file);
  const title = own.find((b): b is Extract<YfmBlock, { kind: "heading" }> => b.kind === "heading" && b.depth === 1);
  if (!title || handlerSection(page) < 0) return null;
  const codes = new Set<string>();
  const add = (text: string) => {
    // Word by word: a code is one token of its own, never a pattern over the cell.
    for (const w of plainText(text).replace(/`/g, " ").split(/[\s,;()]+/)) if (PLACEMENT_CODE.test(w)) codes.add(w);
  };
  const table = own.find((b): b is Extract<YfmBlock, { kind: "table" }> => b.kind === "table" && /\b(?:placement|embedding point) code\b/i.test(plainText(b.rows[0]?.[0]?.text ?? "")));
  if (table) for (const row of table.rows.slice(1)) if (row[0]) add(row[0].text);
  if (codes.size === 0) add(title.text);
  if (codes.size === 0) return null;
  // The keys of PLACEMENT_OPTIONS: the first field table under the heading that names it, before a heading of its
  // level or above.
  let options: Field[] = [];
  const at = page.blocks.findIndex((b) => b.kind === "heading" && b.depth >= 2 && /^placement_options$/i.test(plainText(b.text).replace(/`/g, "")));
  const heading = page.blocks[at];
  if (heading?.kind === "heading") {
    let found: Extract<YfmBlock, { kind: "table" }> | null = null;
    for (let i = at + 1; i < page.blocks.length; i++) {
      const b = page.blocks[i] as YfmBlock;
      if (b.kind === "heading" && b.depth <= heading.depth) break;
      if (b.kind === "table" && b.rows[0] && fieldColumns(b.rows[0])) {
        found = b;
        break;
      }
    }
    if (found) options = fieldsOf(page, found, scope);
    // "The placement has no keys of its own": the context carries only the universal `URI` key.
    else if (!saysNoKeys(page.blocks, at, heading.depth)) scope.diagnostics.push(diagnostic("unplaced", { ...srcOf(heading), endLine: heading.line, endColumn: heading.column + 1 }, { what: `the PLACEMENT_OPTIONS of ${[...codes].join(", ")}: the section has no field table` }));
  }
  const { scopes, scopesSource } = scopeOf(own);
  return {
    codes: [...codes],
    title: plainText(title.text),
    description: firstParagraph(own),
    scopes: scopes.length > 0 ? scopes : null,
    ...(scopesSource ? { scopesSource } : {}),
    options,
    source: srcOf(title),
  };
}

/** Whether the section from heading `at` (of `depth`) says in words that the placement has no keys of its own. */
function saysNoKeys(blocks: readonly YfmBlock[], at: number, depth: number): boolean {
  for (let i = at + 1; i < blocks.length; i++) {
    const b = blocks[i] as YfmBlock;
    if (b.kind === "heading" && b.depth <= depth) return false;
    // "no own keys", "no keys of its own".
    if (b.kind === "text" && /\bno (?:own )?keys\b/i.test(b.text)) return true;
  }
  return false;
}
