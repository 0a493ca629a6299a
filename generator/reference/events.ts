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

export interface EventScope {
  diagnostics: Diagnostic[];
  typeWord(word: string, role?: "parameter"): TypeRef | null;
  knownWords(): Iterable<string>;
  catalogueTable(anchor: string): { rows: YfmCell[][] } | null;
}

const srcOf = (b: { file: string; line: number; column: number }) => ({ file: b.file, line: b.line, column: b.column });

/** The event a page describes, or null when it is no event page. */
export function readEventPage(page: YfmPage, scope: EventScope): EventPayload | null {
  const own = page.blocks.filter((b) => b.file === page.file);
  const title = own.find((b): b is Extract<YfmBlock, { kind: "heading" }> => b.kind === "heading" && b.depth === 1);
  const last = title?.text.replace(/`/g, "").trim().split(/\s+/).at(-1);
  const name = last && EVENT_NAME.test(last) ? last : undefined;
  if (!title || !name) return null;
  const start = page.blocks.findIndex((b) => b.kind === "heading" && b.depth === 2 && RECEIVES.test(b.text.replace(/[`*]/g, "").trim()));
  if (start < 0) return null;
  let table: Extract<YfmBlock, { kind: "table" }> | null = null;
  for (const b of page.blocks.slice(start + 1)) {
    if (b.kind === "heading" && b.depth <= 2) break;
    if (b.kind === "table" && b.rows[0] && fieldColumns(b.rows[0])) {
      table = b;
      break;
    }
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

