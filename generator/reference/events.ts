import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";
import type { EventPayload, Field, TypeRef } from "../model/types.js";
import type { YfmBlock, YfmPage } from "../yfm/blocks.js";
import type { YfmCell } from "../yfm/tables.js";
import { FIELD_BUDGET, type FieldScope, fieldColumns, plainText, readFieldRows } from "./fields.js";
import { type HeadingIndex, headingIndex, tableAt } from "./page.js";

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
  typeWord(word: string): TypeRef | null;
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
  const scopes = own
    .filter((b) => b.kind === "quote")
    .flatMap((b) => (b.kind === "quote" ? [...(/Scope\s*:\s*(.*)/i.exec(b.text)?.[1] ?? "").matchAll(/`([^`]+)`/g)].map((m) => m[1] as string) : []));
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
    fields,
    source: srcOf(title),
  };
}

/** `data` and `data.FIELDS` as one field `data` whose member is `FIELDS`; a dotted row with no parent row is a warning. */
function nest(rows: Field[], diagnostics: Diagnostic[]): Field[] {
  const top: Field[] = [];
  const byPath = new Map<string, Field>();
  // A row's parent: a row of the table, or a member a row's linked table gave (`data.FIELDS` when `data` links to it).
  const lookup = (path: string): Field | undefined => {
    const direct = byPath.get(path);
    if (direct) return direct;
    const dot = path.lastIndexOf(".");
    if (dot < 0) return undefined;
    const up = lookup(path.slice(0, dot));
    const object = up ? objectOf(up) : null;
    return object?.members.find((m) => m.name === path.slice(dot + 1));
  };
  for (const f of rows) {
    const path = f.name.replace(/\[\]/g, "");
    const dot = path.lastIndexOf(".");
    if (dot < 0) {
      top.push(f);
      byPath.set(path, f);
      continue;
    }
    const parent = lookup(path.slice(0, dot));
    const member = { ...f, name: path.slice(dot + 1) };
    const object = parent ? objectOf(parent) : null;
    if (!object) {
      diagnostics.push(diagnostic("unplaced", { ...f.source, endLine: f.source.line, endColumn: f.source.column + 1 }, { what: `the row '${f.name}': no row of the table is the object it extends` }));
      continue;
    }
    // A member the parent has already (from its linked table) is the one deeper rows extend.
    const existing = object.members.find((m) => m.name === member.name);
    if (!existing) object.members.push(member);
    byPath.set(path, existing ?? member);
  }
  return top;
}

/** The object a field holds (or holds items of), made an object when the page typed it as a bare one. */
function objectOf(f: Field): Extract<TypeRef, { kind: "object" }> | null {
  if (f.type.kind === "object") return f.type;
  if (f.type.kind === "array" && f.type.items.kind === "object") return f.type.items;
  if (f.type.kind === "array" && f.type.items.kind === "unknown") {
    f.type = { kind: "array", items: { kind: "object", members: [] } };
    return f.type.items as Extract<TypeRef, { kind: "object" }>;
  }
  return null;
}
