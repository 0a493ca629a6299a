import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";
import type { Field, Source, TypeRef } from "../model/types.js";
import type { YfmCell } from "../yfm/tables.js";
import { nearest } from "../util/distance.js";
import { BASIC_WORDS, arrayOf, basicType, readTypeWords } from "./type-words.js";
import { keyForm } from "./keys.js";

/**
 * Field tables of the reference (parameters, returned data, the members of a nested object), the dialect's most
 * common table (spec-source/README-reference.md#field-tables):
 *
 *     || **Name**
 *     `type` | **Description** ||
 *     || **id***
 *     [`integer`](../data-types.md) | Task identifier ||
 *
 * The first cell holds the bold name, a `*` (or `^*^`) when required, and the type on its next line; some tables
 * give the type a column of its own (`|| **Field** | **Type** | **Description** ||`).
 */

/** What a field table's reader asks of the page: the table an anchor of the page names, and a type word's meaning. */
export interface FieldScope {
  file: string;
  diagnostics: Diagnostic[];
  /** The table under the heading whose anchor is `anchor`, on this page or the type catalogue's. */
  tableAt(anchor: string): AnchoredTable | null;
  /**
   * The table a link names in another page of the folder (`../../entities.md#user`), read relative to `from`, the
   * file of the cell that links; `#anchor` alone is `from`'s own section. `key` names it for `seen`. Optional: a
   * scope without other pages (the type catalogue) follows none.
   */
  tableIn?(from: string, link: string, word?: string): (AnchoredTable & { key: string }) | null;
  /**
   * Whether a cell's file is the page being read (the page itself and the files it includes): its anchors are the
   * page's. A cell of another file came through a link (`tableIn`). Without it, only `file` is the page's.
   */
  own?(file: string): boolean;
  /**
   * The paragraph that opens the section an anchor of the page names, where the section has no table: a type said in
   * a sentence ("[`object`](…), where the key is the string identifier of the template, and the value is the object
   * [`template`](#template)"). Optional.
   */
  paragraphAt?(anchor: string): YfmCell | null;
  /** The words between an anchor's heading and its section's first table or next heading (the section's lead). */
  wordsBefore?(anchor: string): string | null;
  /** A type word of the catalogue (`crm_status`, `sale_order.id`), or null; `role` is where the word types a value. */
  typeWord(word: string, role?: "parameter"): TypeRef | null;
  /** The scope reads a method's parameters (a catalogue word that is an identifier and an object is the identifier). */
  parameters?: boolean;
  /**
   * The table of a sub-section that names a field (`### Parameter fields`, `#### FIELDS Parameter`, `### Object
   * result`), for an object field whose cells link nowhere; optional.
   */
  tableNamed?(name: string, within?: string): (AnchoredTable & { anchor: string }) | null;
  /** Of a parameter: the heading of a section named after it that stands in what the method answers, which
   * `tableNamed` does not give a parameter; null when there is none. */
  namedInAnswer?(name: string, within?: string): string | null;
  /**
   * The section named after a field that lies inside the section an anchor of this page opens (`#form`'s "Form
   * Operating Mode" holds "### Parameters Passed … in the FORM_DATA Array"); null when there is none inside it.
   */
  namedInside?(name: string, anchor: string): (AnchoredTable & { anchor: string }) | null;
  /** Every word the catalogue defines, for "did you mean" (decisions.md D31); optional. */
  knownWords?(): Iterable<string>;
  /**
   * Fields this page may still read through links: tables that name each other (not in a cycle, which `seen`
   * stops) would otherwise multiply with their depth. Past it, an object keeps no members, with a warning.
   */
  budget?: { left: number; size: number; warned: boolean };
  /** Every row this scope read into a field, for the page's ledger (no row read and then dropped in silence). */
  read?: Array<{ name: string; source: Source }>;
  /** Rows a reading merged into another (`X[]` as X's items), by position: held where that one is. */
  merged?: Set<string>;
  /**
   * The fields a page's `select` names (its linked table), for the returned data that depends on them
   * (returned.ts selected): `into` is "result" where `select` says its fields are "returned in `result`". Shared by
   * the page's scopes (an object, so that a copy of the scope holds the same).
   */
  selectable?: { fields: Field[]; into: "result" | null };
}

/** The fields one page reads at most, nested ones included; the reference's largest page reads a few hundred. */
const FIELD_BUDGET = 20_000;

/**
 * A page's budget of fields: 128 and 16 for each row of its tables, at most FIELD_BUDGET. No page of the reference
 * reads more than 9 fields a row (crm.item.get: 286 from 32 rows, through the tables it links). A budget
 * of 20,000 alone let a page of 3 KB whose sections link one another read 20,000 fields (50 MB written), and 28
 * such pages made a model.json too long for a string.
 */
export function fieldBudget(blocks: ReadonlyArray<{ kind: string; rows?: readonly unknown[] }>): { left: number; size: number; warned: boolean } {
  let rows = 0;
  for (const b of blocks) if (b.kind === "table") rows += b.rows?.length ?? 0;
  const size = Math.min(FIELD_BUDGET, 128 + 16 * rows);
  return { left: size, size, warned: false };
}

/**
 * The warnings that say how a row's type was read (several forms, a list in words, a link to no table): they speak
 * of the type, not of where the row went, so a row they are on that nothing holds is still said to be dropped
 * (page.ts warnDropped).
 */
export const TYPE_READINGS = new WeakSet<Diagnostic>();

/** An `ambiguous-reading` at the cell on how its type was read (TYPE_READINGS). */
function sayTypeReading(scope: FieldScope, cell: YfmCell, text: string, reading: string): void {
  const d = diagnostic("ambiguous-reading", at(cell, 1), { text, reading });
  TYPE_READINGS.add(d);
  scope.diagnostics.push(d);
}

/**
 * A table reached by an anchor, with `parts` when its section holds more field tables: each either continues the
 * same object (the contact's origin fields, then its address fields, each table under a paragraph of its own), or,
 * after a label that names a member ("**Object** `automatedSolution`:"), lists that member's fields (`label`).
 */
export interface AnchoredTable {
  rows: YfmCell[][];
  parts?: Array<{ rows: YfmCell[][]; label: string | null }>;
}

/**
 * The object a table (and the parts of its section) describes; null when it is no field table. Tables of fields of
 * their own are groups of one object (the contact's general fields, its origin fields, its address fields); tables
 * that name fields another table names too are cases of it (one table per entity type), each with the groups shared
 * by all (a table of common fields, then one per type: common + each type's). A table after a label that names a
 * member (`**Object** \`owner\`:`) gives that member's fields: an object, or the items of a list of objects, that
 * its row (or an earlier labelled table) left without members; a label that names no such member is said
 * (`unplaced`), its fields in no object. Until 2026-11-27 every part was a case, and a contact with a name and an
 * address matched neither option alone, or several (which `oneOf` refuses).
 */
function objectOf(scope: FieldScope, table: AnchoredTable, seen: readonly string[]): TypeRef | null {
  const forms = table.parts ? null : formsOf(scope, table.rows, seen);
  if (forms) return forms;
  const parts = table.parts ?? [{ rows: table.rows, label: null }];
  const groups: Field[][] = [];
  const nested: Array<{ label: string; members: Field[]; at: YfmCell | undefined }> = [];
  for (const part of parts) {
    const read = membersOf(scope, part.rows, seen);
    if (!read) continue;
    if (part.label === null) groups.push(read);
    else nested.push({ label: part.label, members: read, at: part.rows[0]?.[0] });
  }
  if (groups.length === 0 && nested.length === 0) return null;
  // Each labelled table in order, so that a chain (`owner`, then `owner`'s `address`) fills as it nests.
  for (const n of nested) {
    const target = openMember([...groups.flat(), ...nested.flatMap((x) => x.members)], n.label);
    if (target) target.type = target.type.kind === "array" ? { kind: "array", items: { kind: "object", members: n.members } } : { kind: "object", members: n.members };
    else if (n.at) scope.diagnostics.push(diagnostic("unplaced", at(n.at, 1), { what: `the table after the label '${n.label}': no member of that name is an object without members, so its ${n.members.length} fields are in no object` }));
  }
  if (groups.length === 0) return { kind: "object", members: [] };
  // A group whose names another group also has is a case; the others are shared by every case.
  const count = new Map<string, number>();
  for (const g of groups) for (const name of new Set(g.map((m) => m.name))) count.set(name, (count.get(name) ?? 0) + 1);
  const isCase = groups.map((g) => g.some((m) => (count.get(m.name) ?? 0) > 1));
  const shared = groups.filter((_, i) => !isCase[i]).flat();
  const cases = groups.filter((_, i) => isCase[i]);
  if (cases.length === 0) return { kind: "object", members: shared };
  const objects: TypeRef[] = cases.map((members) => ({ kind: "object", members: [...shared, ...members] }));
  return objects.length === 1 ? (objects[0] as TypeRef) : { kind: "union", options: objects };
}

/**
 * A table of the forms a value takes, not of its members (entity.get's "Type result": `` `object` `` and
 * [`entity`](#entity) "Returned if the `ENTITY` parameter is provided", then [`entity[]`](#entity) "Returned if …
 * not provided"): each row names a type, by a link to a table of the page, where a member's row has a bold name. The
 * value is one of the forms (read as members, the rows gave an object with a member called `object`).
 */
function formsOf(scope: FieldScope, rows: YfmCell[][], seen: readonly string[]): TypeRef | null {
  const [header, ...body] = rows;
  const cols = header ? fieldColumns(header) : null;
  if (!cols || body.length < 2) return null;
  const options: TypeRef[] = [];
  const when: string[] = [];
  for (const row of body) {
    const cell = row[cols.name];
    if (!cell || NAME.test(cell.text)) return null;
    const lines = cell.text.trim().split("\n").map((l) => l.trim());
    const link = lines[lines.length - 1] ?? "";
    // The link alone, or under the one word it stands for (`object`, `array`).
    if (!FORM_LINK.test(link) || lines.length > 2 || (lines.length === 2 && !/^`(?:object|array)`$/i.test(lines[0] ?? ""))) return null;
    options.push(readType(scope, link, cell, seen));
    const words = cols.description !== null ? plainText(row[cols.description]?.text ?? "") : "";
    // The form by its word (`entity[]`): a link's words with brackets in them are not a link to plainText.
    when.push(`\`${/`([^`\n]+)`/.exec(link)?.[1] ?? link}\`${words ? `: ${words}` : ""}`);
  }
  // Each form's condition ("Returned if the `ENTITY` parameter is provided") goes into the words of the row it types.
  const note = `One of: ${when.join("; ")}.`;
  for (const o of options) FORM_NOTES.set(o, note);
  return { kind: "union", options };
}

/**
 * The conditions of a table of forms, by each of its options (readType makes a union of its own of them): the row it
 * types says them (readFieldRow).
 */
const FORM_NOTES = new WeakMap<TypeRef, string>();

/** Words, then a note as a sentence of its own. */
function withNote(words: string, note: string | undefined): string {
  if (!note) return words;
  return words ? `${words}${/[.!?]$/.test(words) ? "" : "."} ${note}` : note;
}

/** The conditions of the forms a type's options came from, if any (formsOf). */
function formNote(t: TypeRef): string | undefined {
  return t.kind === "union" ? t.options.map((o) => FORM_NOTES.get(o)).find((n) => n !== undefined) : undefined;
}

/** A type cell that is one link to a table of the page: [`property[]`](#property). */
const FORM_LINK = /^\[`\w+(?:\[\])?`\]\(#[\w-]+\)$/;

/** The member named `name`, at any depth, that is an object (or a list of objects) with no members yet. */
export function openMember(fields: readonly Field[], name: string): Field | undefined {
  const bare = (t: TypeRef): boolean => (t.kind === "object" && t.members.length === 0) || (t.kind === "array" && (t.items.kind === "unknown" || bare(t.items)));
  const queue = [...fields];
  const seenTypes = new Set<TypeRef>();
  for (let i = 0; i < queue.length; i++) {
    const f = queue[i] as Field;
    if (f.name === name && bare(f.type)) return f;
    const inner = f.type.kind === "array" ? f.type.items : f.type;
    if (inner.kind === "object" && !seenTypes.has(inner)) {
      seenTypes.add(inner);
      for (const m of inner.members) queue.push(m);
    }
  }
  return undefined;
}

/** The columns of a field table, from its header row; null when it is not one. */
export interface FieldColumns {
  name: number;
  type: number | null;
  description: number | null;
}

const strip = (s: string) => s.replace(/[*`\\]/g, "").replace(/\s+/g, " ").trim().toLowerCase();

export function fieldColumns(header: YfmCell[]): FieldColumns | null {
  const words = header.map((c) => strip(c.text));
  // "Value `type`" names the members in the type catalogue's structures.
  const name = words.findIndex((w) => /^(name|field|parameter|title|key)\b|^value type$/.test(w));
  if (name < 0) return null;
  const type = words.findIndex((w, i) => i !== name && /^type\b/.test(w));
  const description = words.findIndex((w, i) => i !== name && /^(description|value|meaning)\b/.test(w));
  return { name, type: type >= 0 ? type : null, description: description >= 0 ? description : null };
}

const at = (c: YfmCell, length = 1) => ({ file: c.file, line: c.line, column: c.column, endLine: c.line, endColumn: c.column + length });
const sourceOf = (c: YfmCell): Source => ({ file: c.file, line: c.line, column: c.column });

/**
 * How deep nested objects are followed through anchors (a guard against tables that name each other; the page's
 * budget, fieldBudget, bounds the work). 8: the timeline's layout reaches a menu item's action 7 tables down.
 */
const DEPTH = 8;

/** How many `[]` a type word may take: the reference writes one at most. */
const MAX_LISTS = 8;

/** The fields of a field table's rows (the header row excluded). */
export function readFieldRows(scope: FieldScope, cols: FieldColumns, rows: YfmCell[][], seen: readonly string[] = [], skip?: ReadonlySet<string>): Field[] {
  const out: Field[] = [];
  for (const row of rows) {
    const cell = row[cols.name];
    if (!cell) continue;
    if (scope.budget && --scope.budget.left < 0) {
      if (!scope.budget.warned) scope.diagnostics.push(diagnostic("unplaced", at(cell, 1), { what: `the fields from here on: the page's tables, linked one into another, pass ${scope.budget.size} fields` }));
      scope.budget.warned = true;
      break;
    }
    if (skip?.has(boldName(cell.text))) continue;
    const field = readFieldRow(scope, cols, row, cell, seen);
    if (field) out.push(field);
    if (field) scope.read?.push({ name: field.name, source: field.source as Source });
  }
  return out;
}

// `[^*\n]*` then a trim, not a lazy `+?` between optional spaces: that form backtracks quadratically on long spaces.
// An escaped character belongs to the name (`**UF_\***` is the pattern `UF_*`, not `UF_\` starred); the three
// alternatives cannot match the same character (a `^` only where `*^` does not follow), so the scan stays linear.
// The required mark comes after the bold (`**id**^*^`, `**id***`) or inside it (`**id^*^**`, 12 rows: crm.item.update's
// `id`, crm.deal.recurring.*'s; read as a name with a `^`, they were unreadable and dropped): group 2 or group 3.
const NAME = /^\s*\*\*((?:[^*\\\n^]|\\[^\n]|\^(?!\*\^))*)(\^\*\^)?\*\*\s*(\\?\*|\^\*\^)?/;

/** The bold name a name cell starts with (`**UF_\***` is `UF_*`), or "" when it starts with none. */
export function boldName(text: string): string {
  return unescaped(NAME.exec(text)?.[1] ?? "").trim();
}

/** A name cell's Markdown escapes (`\_`, `\*`) as the characters they stand for. */
function unescaped(s: string): string {
  return s.replace(/\\([_*\\])/g, "$1");
}

function readFieldRow(scope: FieldScope, cols: FieldColumns, row: YfmCell[], cell: YfmCell, seen: readonly string[]): Field | null {
  const m = NAME.exec(cell.text) ?? /^\s*`([^`\n]+)`\s*(\\?\*|\^\*\^)?/.exec(cell.text);
  if (!m) {
    scope.diagnostics.push(diagnostic("unreadable-parameter", at(cell, cell.text.split("\n")[0]?.length ?? 1), { text: cell.text.split("\n")[0] ?? "" }));
    return null;
  }
  const name = unescaped(m[1] ?? "").trim();
  // A name of several words is a label ("Settings for all OFDs", "Keys from `params`") or a member of another row
  // ("LANGUAGE_ID (LANG)": of each entry of the array `LANG`, which the page types only as `Array(...)`), never a
  // member's name as written: read as one, it made a property no request or response has.
  if (!name || /\s/.test(name)) {
    scope.diagnostics.push(diagnostic("unreadable-parameter", at(cell, cell.text.split("\n")[0]?.length ?? 1), { text: cell.text.split("\n")[0] ?? "" }));
    return null;
  }
  // The mark inside the bold (`**id^*^**`, NAME's group 2) or after it (group 3; the backticked form's group 2).
  const required = m[2] !== undefined || m[3] !== undefined;
  const typeText = cols.type !== null ? (row[cols.type]?.text ?? "") : cell.text.slice(m[0].length);
  const description = cols.description !== null ? (row[cols.description]?.text ?? "") : "";
  let type = readType(scope, typeText, cell, seen);
  type = wordsSay(scope, cell, name, description, identifierRead(scope, cell, name, typeText, description, type));
  // An object whose members the description places elsewhere: "described [below](#fields)", or a section named after
  // it; or one option of a union that is that object (`undefined|object` of the event pages, "described [below](#fields_after)").
  const bareOptions = type.kind === "union" ? type.options.filter(isBareObject) : [];
  // `object` and `array` both bare, one structure linked (im.user.list.get: "an object with identifier keys …; when
  // `RESULT_TYPE = 'array'`, an array", "the user object is described [below](#user-object)"): each option is of
  // that structure, the object keyed by identifiers where the words say so, the array its list.
  const pair = bareOptions.length === 2 && bareOptions.some((o) => o.kind === "object") && bareOptions.some((o) => o.kind === "array") && !alternatives(description);
  if (pair && type.kind === "union") {
    const object = bareOptions.find((o) => o.kind === "object") as TypeRef;
    const linked = linkedObject(scope, object, cell, name, description, seen);
    if (linked !== object && linked.kind === "object") {
      const keyed = KEYED_BY_ID.test(plainText(description));
      const asObject: TypeRef = keyed ? { kind: "object", members: [], additional: linked, keyDescription: "identifier" } : linked;
      type = { ...type, options: type.options.map((o) => (o.kind === "object" && bareOptions.includes(o) ? asObject : o.kind === "array" && bareOptions.includes(o) ? { kind: "array", items: linked } : o)) };
      sayTypeReading(scope, cell, `${name}: ${plainText(description).slice(0, 80)}`, `the linked structure for both options: ${keyed ? "an object keyed by identifier whose values are it" : "the structure itself"}, or a list of it`);
    }
  }
  const bare = pair ? null : isBareObject(type) ? type : bareOptions.length === 1 ? (bareOptions[0] as TypeRef) : null;
  if (bare && alternatives(description)) {
    // "When `USER_DATA = 'N'`, contains user IDs; when 'Y', user objects (link)": the link is one form of several.
    const forms = conditionForms(scope, cell, bare, description, seen);
    if (!forms) sayTypeReading(scope, cell, `${name}: ${plainText(description).slice(0, 80)}`, "its members unknown: the description gives several forms by condition");
    else {
      const read = forms.type;
      type = type.kind === "union" ? { ...type, options: type.options.flatMap((o) => (o !== bare ? [o] : read.kind === "union" ? read.options : [read])) } : read;
      sayTypeReading(scope, cell, `${name}: ${plainText(description).slice(0, 80)}`, `either form by its condition, ${forms.said}`);
    }
  } else if (bare) {
    const linked = linkedObject(scope, bare, cell, name, description, seen);
    if (linked !== bare) type = type.kind === "union" ? { ...type, options: type.options.map((o) => (o === bare ? linked : o)) } : linked;
  }
  // The list parameters (decisions.md D7): `select` names fields, `order` (`sort`) maps a field to its direction. Their
  // link to the fields' table ("An array containing the [list of fields](#result)") gives the names, never the
  // values' types: read as the table's objects, `SELECT: ["ID"]` and `order: {"ID": "desc"}` were refused.
  // Only where the words say what the parameter does: a nested `order` can be the sale's order (sale.propertyvalue
  // .modify's `fields.order`, with its `id` and `propertyValues`), not a sorting.
  // The words as read, not a link's address (`(#fields)` is no word of them).
  if (scope.parameters && /^select$/i.test(name) && /\bfields?\b/i.test(plainText(description)) && type.kind === "array" && type.items.kind === "object" && type.items.members.length > 0) {
    if (scope.selectable) {
      scope.selectable.fields = type.items.members;
      scope.selectable.into = /\breturned in `result`/i.test(description) ? "result" : null;
    }
    type = { kind: "array", items: { kind: "primitive", type: "string", enum: [...new Set(type.items.members.map((f) => f.name))], openEnum: true } };
  } else if (scope.parameters && /^(?:order|sort)$/i.test(name) && SORT_WORDS.test(plainText(description)) && type.kind === "object" && type.members.length > 0) {
    type = { kind: "object", open: true, members: type.members.map((f) => ({ ...f, type: DIRECTION, required: false, nullable: false, description: `Sorting direction by ${f.name}.` })) };
  } else if (scope.parameters && /^filter$/i.test(name) && type.kind === "object" && type.members.some((f) => f.required)) {
    // A `filter` linked to the entity's fields takes their types, not their stars: a star says what creating one
    // requires (crm.requisite.userfield.list's `FIELD_NAME^*^`), and a filter names any of the fields or none.
    type = { ...type, members: type.members.map((f) => ({ ...f, required: false })) };
  }
  // "An object where the key is the counter name and the value is an object with [counter description](#counter)":
  // a map by those keys, each value the linked table's object (read as that object itself, `counters.counter` was
  // typed where `counters["tasks_total"].counter` is).
  // A link in the key's clause ("where `field_N` is the identifier of the [object field](#fields), and `value` is …",
  // crm.category.fields) names the keys, not the values: not read so. "For each field, an object with a description
  // is returned [(detailed description)](#field-description)" (tasks.template.fields): each value is the linked object.
  if (type.kind === "object" && type.members.length > 0 && !type.additional) {
    const map = MAP_WORDS.exec(description);
    if ((map && !/\]\(/.test(map[1] ?? "")) || EACH_WORDS.test(description) || keyedWords(description)) type = { kind: "object", members: [], additional: type };
    else if (!type.open && !/^(?:filter|order|sort|select)$/i.test(name) && !type.members.some((f) => keyForm(f.name) !== null) && keyedByIdentifier(plainText(description))) {
      // "The key of the object is the user ID", "the top-level key is `BOT_ID`", "Key — attachment file identifier",
      // "with stage IDs as keys": the rows describe each value of a map by those keys, not one object (read as one,
      // `QUEUE_FULL["12"]` was checked as the queue itself). "The value is an array of objects, each …": each value a
      // list of them (calendar.accessibility.get). Rows named as forms of keys (`<userId>`) are that map already.
      const list = /\bvalues? (?:is|are) an? (?:array|list) of\b/i.test(plainText(description));
      type = { kind: "object", members: [], additional: list ? { kind: "array", items: type } : type, keyDescription: "identifier" };
    }
    else if (map) {
      // The keys' clause links the structure whose fields are the keys ("where `field` is the identifier of the object
      // field [catalog_price](…#catalog_price), and `value` is an object of type [rest_field_description](…)", the
      // catalog's and sale's getFields): each of its fields is a key, valued as the value's clause says (its linked
      // word, else any value), and the map stays open to the portal's own fields. Read as the linked structure itself,
      // a field's description was checked as the field's value.
      const valueWord = VALUE_LINK.exec(description.slice((map.index ?? 0) + map[0].length - 30))?.[1];
      const value: TypeRef = (valueWord ? (basicType(valueWord) ?? scope.typeWord(valueWord)) : null) ?? { kind: "unknown", note: "the words name no type of the values" };
      type = { kind: "object", members: type.members.map((f) => ({ ...f, type: value, required: false, nullable: false })), additional: value };
    }
  }
  // "Array of user settings", "Root element of the response, contains a list of custom fields" on a row typed
  // `object`: the type cell and the words disagree, since the platform's "array" is PHP's, a list or a map by names
  // alike. Both are taken, the object and a list of such objects (for `result`, once its members are read:
  // returned.ts), and the reading says so; words that give the object keys ("Keys are parameter codes", "in the
  // format `{…}`") agree with the cell and are not said.
  // A list the words name as result's member ("Contains an array of [`numerators`](#numerators)", read so above) is
  // the member's, not the row's.
  if ((type.kind === "object" || type.kind === "ref") && saysList(typeText, description) && !(/^result$/i.test(name) && holdsNamed(type, description))) {
    sayTypeReading(scope, cell, `${name}: ${plainText(description).slice(0, 80)}`, "an object or a list of them: its type cell names an object, its words an array or a list, which the platform's PHP arrays may be either; both are taken");
    if (name !== "result") type = objectOrList(type);
  }
  // The platform's `array` is PHP's: one whose words give it keys is an object (a JSON object on the wire), not a
  // list: "in the form `array("field"=>"value"[, ...])`", "Array format:" or "in the following structure:" and a block
  // `{ field_1: value_1, … }`, "in the format `{'sort_field': 'sort_direction'}`", "An array with the field `NAME`".
  // "Array of objects in the format `{…}`", "An array of files. Each file is passed as an array of the form …": a list
  // of such keyed items ("An array of values for the fields in the following structure: {…}" is one of them).
  if (type.kind === "array" && (type.items.kind === "unknown" || isBareObject(type.items)) && KEYED_ARRAY.test(description)) {
    const keyed: TypeRef = { kind: "object", members: [] };
    type = LIST_OF.test(description) && !OBJECT_FORM.test(description) ? { kind: "array", items: keyed } : keyed;
  } else if (type.kind === "array" && type.items.kind === "object" && type.items.members.length > 0 && FIELD_KEYED.test(description) && !LIST_OF.test(description) && !ITEMS_OF.test(description)) {
    // "An array in the following format: { field_1: value_1, … }" over a table of the fields it filters by: the
    // fields are the object's keys, which may carry an operation's prefix (`>=ID`), so other keys are allowed.
    type = { ...type.items, open: true };
  } else if (type.kind === "array" && type.items.kind === "object" && type.items.members.length > 0 && !type.items.additional && KEYED_ARRAY.test(description) && ((!LIST_OF.test(description) && !ITEMS_OF.test(description)) || OBJECT_FORM.test(description))) {
    // "An array of values for the [activity fields](#fields) in the following structure: {…}", "an object of the form
    // `{"field": "value"[, ...]}`" over the fields' table: PHP's keyed array, one object of those fields, not a list.
    type = type.items;
  }
  // "Contains an object with the key `result` and the value `true` if the message was sent successfully" (the 3.0
  // task methods that answer a flag): that object, its one member a boolean, as the page's example shows it. A cell
  // typed `boolean` with those words (tasks.task.delete's and .update's 3.0 pages) names the flag's type, not the
  // value's: the words' object is taken, and said, since the cell alone would read the bare flag.
  const flagCell = BOOLEAN_CELL.test(typeText.trim());
  const flag = (type.kind === "object" && type.members.length === 0) || flagCell ? ONE_FLAG.exec(description) : null;
  if (flag?.[1] && flagCell) sayTypeReading(scope, cell, `${name}: boolean, "${flag[0]}"`, `an object whose member \`${flag[1]}\` is the flag, as the words say; not the bare flag the type cell names`);
  if (flag?.[1]) {
    // Its words: the value and what it says ("`true` if the message was sent successfully").
    const when = (description.slice(flag.index + flag[0].length).split(/[.\n]/)[0] ?? "").trim();
    const words = plainText(`\`${flag[2] ?? "true"}\`${when ? ` ${when}` : ""}`);
    type = { kind: "object", members: [{ name: flag[1], type: { kind: "primitive", type: "boolean" }, required: true, nullable: false, description: words, source: sourceOf(cell) }] };
  }
  // "Can be `null`", "`null` for system messages", "or `false`": the description gives the value another form the
  // type cell leaves out (the table's statement is its row, both cells); read for returned values, where pages say it.
  if (!scope.parameters && FALSE_WORDS.test(description) && !TRUE_OR_FALSE.test(description) && !acceptsFalse(type)) type = { kind: "union", options: [...(type.kind === "union" ? type.options : [type]), { kind: "primitive", type: "boolean", enum: [false] }] };
  // "Possible values:" and a list of one backticked value per item: the row's values (a string, an integer or the
  // catalogue's `enum`, whose values the row lists: data-types.md leaves them to the page).
  // A list whose items are forms, not values ("- `string` — the name is set", "- `null` — it is not"), names the
  // value's forms: read as values, USER_NAME took only the words "string" and "null". `null` among values (`Y`, `N`,
  // `null`) is the empty value, not the string "null": a returned value is then nullable (a parameter's words are not
  // read for null, as below).
  const listed = possibleValues(description);
  // Only a list of nothing but forms: `string`, `integer`, … beside `date` and `file` are a field type's codes (values).
  const formsListed = (listed?.every((v) => Object.hasOwn(FORM_TYPES, v) || v === "null") ?? false) && (listed?.some((v) => Object.hasOwn(FORM_TYPES, v)) ?? false);
  const nullListed = !scope.parameters && (listed?.includes("null") ?? false);
  const kept = formsListed ? [] : (listed?.filter((v) => v !== "null") ?? []);
  const values = kept.length > 0 ? kept : null;
  if (values) type = withValues(type, values, ENUM_CELL.test(typeText.trim()));
  // A `boolean` whose values are written as strings (`"1"`, `"0"`: crm.*.details.configuration's `optionFlags`): the
  // row's values are those strings too, beside the forms data-types.md gives the word.
  const takesAll = (t: TypeRef): boolean => t.kind === "union" && t.options.some((o) => o.kind === "primitive" && o.type === "string" && (!o.enum || values?.every((v) => o.enum?.includes(v))));
  if (values && flagCell && type.kind === "union" && !takesAll(type) && values.every((v) => description.includes(`\`"${v}"\``) || description.includes(`\`'${v}'\``))) {
    type = { kind: "union", options: [...type.options, { kind: "primitive", type: "string", enum: values }] };
  }
  // "Can be a string, number, or `null`", "Can be a string or an array": the words name the value's forms; the cell's
  // type is one of them (read so only then), and `null` makes a returned value nullable (a parameter's words are not
  // read for null, as below).
  const forms = FORM_WORDS.exec(description);
  let saysNull = nullListed;
  if (forms && type.kind === "primitive" && !type.enum && !type.format) {
    const cell = type;
    const words = (forms[1] ?? "").toLowerCase().split(/\s*,\s*(?:or\s+)?|\s+or\s+/).map((w) => w.replace(/^(?:an?\s+)|`/g, "").trim());
    if (words.includes(cell.type)) {
      // The cell's type, then each other form named once.
      const others = [...new Set(words)].filter((w) => w !== cell.type).map((w) => FORM_TYPES[w]).filter((t): t is TypeRef => t !== undefined);
      type = others.length === 0 ? cell : { kind: "union", options: [cell, ...others] };
      saysNull = !scope.parameters && words.includes("null");
    }
  }
  const nullable = (type.kind === "union" && type.options.some((o) => o.kind === "null")) || saysNull || (!scope.parameters && type.kind !== "null" && NULL_WORDS.test(description));
  return {
    name,
    type: nullable && type.kind === "union" ? withoutNull(type) : type,
    required,
    nullable,
    description: withNote(plainText(description), formNote(type)),
    ...(/\bdeprecated\b/i.test(description) ? { deprecated: { text: firstSentence(description) } } : {}),
    source: sourceOf(cell),
  };
}

/**
 * Words that make an object a map: "where the key is X and the value is Y", "where `field` is the field identifier
 * and `value` is the object with [field attributes](#attributes)", "Where `field` — …, and `value` — …". A link's
 * target may hold dots (`../data-types.md#catalog_price`): a link is one step of the key's clause, and no other step
 * takes its `]`, so a text matches one way only; the clause is bounded (200 steps), linear in the description.
 */
const MAP_WORDS = /\bwhere (?:the key|`field(?:_N)?`) (?:is\b|—)((?:\]\([^)\n]{0,200}\)|[^.\n\]]){0,200}?)\band (?:the value|`value(?:_N)?`) (?:is\b|—)/i;
/**
 * Words that make an object a map without "where": "The keys are the names of the settings, and the values are objects
 * whose structure is described [below](#…)" (sale.paysystem.settings.update), "The key is the setting code, the value
 * is the description of the setting" (sale.cashbox.handler.add), "The key is the field code used as the field name in
 * the form. The values are the field parameter objects." (a section's words before its table), "Keys are parameter
 * codes (`string`), values are parameter descriptions" (its `CODES`). The keys' clause is
 * words only (a link there names the keys' structure) and bounded, so the text matches one way, in linear time.
 */
const KEYS_ARE = /\b(?:the )?keys? (?:is|are)\b([^.\n[\]]{0,200}?)[.,]? (?:and )?(?:the )?values? (?:is|are)\b/i;

/** Whether the words say the object is a map ("The keys are …, and the values are …"), links and emphasis aside. */
export function keyedWords(words: string): boolean {
  return KEYS_ARE.test(plainText(words));
}

/**
 * Words that say an object's keys are identifiers, codes or names, so that its rows describe each value: "The key of
 * the object is the user ID", "The key of each element equals the user identifier", "the object's key is the `code`
 * of the region", "Key — user identifier, value — …", "the key is the section code", "the top-level key is
 * `BOT_ID`", "with the top-level key being `MODULE_ID`", "with stage IDs as keys", "Key — template field, value —
 * field description". Not "contains a single key `item`" nor "the key `result` and the value `true`" (a member), nor
 * "Keys within `permissions` are case-sensitive". Each clause is bounded, so the words match in linear time.
 */
const KEYED_WORDS = new RegExp(
  [
    /\b(?:top-level )?key(?: of (?:the|each) \w+| of the `?\w+`? object)? (?:is|equals|being|must match|—|-|:)(?: the| an?)? [^.]{0,60}?\b(?:identifiers?|IDs?|codes?|names?)\b/.source,
    /\b(?:top-level )?key(?: of [^.`]{0,30})? (?:is|equals|being|—) ?`[A-Z][A-Z_]*_ID`/.source,
    /\b(?:identifiers?|IDs?|codes?) as keys\b/.source,
    /\bkey ?— ?[^.,—]{1,60}, ?values? ?—/.source,
  ].join("|"),
  "i",
);

/**
 * KEYED_WORDS, unless the words say the object has one key ("Contains a single key — `id`", crm.item.import and the
 * calendar's events: a member, review). A key named in backticks is no member by that alone: "the object's key is the
 * `code` of the region" and "The object key is the bot identifier `BOT_ID`" are maps by those values.
 */
export function keyedByIdentifier(words: string): boolean {
  return KEYED_WORDS.test(words) && !/\b(?:a )?(?:single|one|only) key\b/i.test(words);
}

/** A data-types page, whose tables are the type catalogue's (reference/catalogue.ts). */
const CATALOGUE_FILE = /(?:^|\/)data-types\.md$/;

/** The value's clause of MAP_WORDS with its type linked: "and `value` is an object of type [rest_field_description](…)". */
const VALUE_LINK = /\band (?:the value|`value(?:_N)?`) (?:is\b|—)[^.\n[]{0,80}\[`?([A-Za-z_][\w.]*)`?\]\(/i;

/** Words of a sorting parameter: "An object for sorting …", "sorting direction", "`asc` or `desc`". */
const SORT_WORDS = /\bsort(?:s|ing|ed)?\b|\bdirection\b|`(?:asc|desc)`/i;

/** Words that give each key of an object the same kind of value: "For each field, an object with a description …". */
const EACH_WORDS = /\bfor each (?:field|key|element), an object with\b/i;

/** "Can be a string, number, or `null`": the forms a value takes, in words (one clause, bounded). */
const FORM_WORDS = /\bcan be ((?:an? )?(?:string|number|integer|boolean|array|object)(?:,? (?:or )?(?:an? )?(?:string|number|integer|boolean|array|object|`?null`?)){1,5})\b/i;
const FORM_TYPES: Record<string, TypeRef> = {
  string: { kind: "primitive", type: "string" },
  number: { kind: "primitive", type: "number" },
  integer: { kind: "primitive", type: "integer" },
  boolean: { kind: "primitive", type: "boolean" },
  array: { kind: "array", items: { kind: "unknown" } },
  object: { kind: "object", members: [], open: true },
};

/** A sorting direction: the pages write `asc`/`desc` and `ASC`/`DESC`; the platform takes either (an open set). */
const DIRECTION: TypeRef = { kind: "primitive", type: "string", enum: ["asc", "desc"], openEnum: true };

/** A type cell of the one word `enum`, as a link or bare. */
const ENUM_CELL = /^\[?`enum`\]?(?:\([^()\s]*\))?$/;

/**
 * The values of "Possible values:" (a line of its own or the end of the row's words, at the cell's left edge) and
 * the list under it, each item opening with one backticked value and its meaning ("- `Y` — group is visible"): two or more,
 * without repeats. Null when an item opens with anything else or with several values ("- `Y`, `N` — …"), or the
 * words say the list is not all ("for example", "and others", "etc."). An indented "Possible values:" is a member's,
 * inside another item, and is not the row's. Line by line: linear in the cell.
 */
export function possibleValues(description: string): string[] | null {
  const lines = description.split("\n");
  // On a line of its own or ending the row's first words ("Access level to settings. Possible values:"); never in a
  // list item's line ("- `FIELD` — … Possible values:"), nor indented.
  const at = lines.findIndex((l) => /(?:^|[.:;][ \t]+)Possible values:[ \t]*$/.test(l) && !/^(?:[ \t]|[-*][ \t])/.test(l));
  if (at < 0) return null;
  const values: string[] = [];
  let i = at + 1;
  while (i < lines.length && (lines[i] ?? "").trim() === "") i++;
  for (; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line.trim() === "") break;
    // A line of the item above (its words wrapped, or its own indented list) belongs to it.
    if (/^[ \t]/.test(line)) continue;
    const item = /^[-*][ \t]+`([^`\n]+)`(.*)$/.exec(line);
    // Several values in an item ("`Y`, `N`", "`Y` or `N`") or a range of them ("`1`–`5`") are not one value each.
    if (!item || /^\s*(?:,|\/|or\b|and\b|to\b|[–—-]|\.\.)\s*`/.test(item[2] ?? "")) return null;
    // `""` is the empty string and `'P'` the letter P; a value with a placeholder (`U{id}`, `SG<id>`, `PROPERTY_N`
    // "where `N` is the property's identifier") is a pattern of values, not one.
    const value = (item[1] as string).replace(/^(['"])(.*)\1$/, "$2");
    if (/[{}<>]|\.\.\./.test(value) || /\bwhere `[^`\n]+` is\b/.test(item[2] ?? "")) return null;
    values.push(value);
  }
  if (values.length < 2 || new Set(values).size !== values.length) return null;
  if (/\b(?:for example|e\.g\.|etc\.|and others|among others|other values)\b/i.test(description)) return null;
  return values;
}

/**
 * `t` with the listed values as its `enum`, where they fit it: a plain string takes them as written, an integer
 * when every value is one, the catalogue's `enum` (unknown until its row lists them) as strings unless every value
 * is digits (the wire may carry those as numbers or strings: left as it was). Anything else is left as it was.
 */
function withValues(t: TypeRef, values: string[], enumWord: boolean): TypeRef {
  const digits = values.every((v) => /^-?\d{1,15}$/.test(v));
  if (t.kind === "primitive" && !t.enum && !t.format && !t.pattern) {
    if (t.type === "string") return { ...t, enum: values };
    if (t.type === "integer" && digits) return { ...t, enum: values.map(Number) };
  }
  if (t.kind === "unknown" && enumWord && !digits) return { kind: "primitive", type: "string", enum: values };
  return t;
}

/**
 * The words of an `array` that has keys (see readFieldRow): `=>` pairs, a `{…}` block or span after "format", "form"
 * or "structure", named fields ("An array with the field `NAME`", or the words' first: "Array with the field `NAME`").
 */
const KEYED_ARRAY = /`array\([^`]*=>|\b(?:format|form|structure)\b[^`\n]{0,40}?(?:`\s*\{|\n\s*```[a-z]*\n(?:\s*\w+:)?\s*\{)|(?:^|\bAn )array with the fields? `/i;

/** Whether a row typed `object` is called a list by its words (and not given keys): see readFieldRow. */
export function saysList(typeText: string, description: string): boolean {
  return ONE_WORD_CELL.test(typeText.trim()) && (LIST_WORDS.test(description.trimStart()) || LIST_PHRASE.test(description)) && !KEY_WORDS.test(description);
}


/** An object, or a list of such objects (of anything, where the object has no members of its own). */
export function objectOrList(t: Extract<TypeRef, { kind: "object" | "ref" }>): TypeRef {
  return { kind: "union", options: [t, { kind: "array", items: t.kind === "ref" || t.members.length > 0 ? t : { kind: "unknown" } }] };
}

/** Words that call the value one object of a form: "Set of template fields — an object of the form `{…}`". */
const OBJECT_FORM = /\ban object (?:of|in) the (?:form|format)\b/i;

/** A type cell of the one word `boolean`, as a link or bare. */
const BOOLEAN_CELL = /^\[?`boolean`\]?(?:\([^()\s]*\))?$/;

/**
 * A type cell of one word, as a link or bare: `object`, or a word the catalogue or the page defines as an object
 * (`sale_order_property_relation`, "An array of objects with information about the selected property bindings"); the
 * callers ask that the word read as an object.
 */
const ONE_WORD_CELL = /^\[?`\w+`\]?(?:\([^()\s]*\))?$/;

/**
 * Words that begin by calling the value a list: "Array of …", "A list of …", "Root element of the response, contains a
 * list of …", "The response root element, which contains the filtered list of users", "The root element of the
 * response." and on the cell's next line "Contains an array of objects …". The root's words up to its
 * comma or full stop are taken whole (a lookahead and its back-reference: no backtracking into them, linear).
 */
const LIST_WORDS = /^(?:(?:the )?(?:response )?root (?:element|object)(?=([^.,\n]*))\1[.,]?\s*)?(?:(?:which |it )?contains |returns )?(?:an? |the )?(?:filtered )?(?:array|list) of\b/i;

/** "A set of contacts represented as an array of objects": a list, said after the words' start. */
const LIST_PHRASE = /\brepresented as an? (?:array|list) of\b/i;

/** Words that give an object its keys: "Keys are …", "the object's key is …", "in the format `{…}`". */
const KEY_WORDS = /\bkeys?\b|\b(?:format|form)\b[ \t]*`?\{/i;

/** An object of one flag, said in words: "an object with the key `result` and the value `true`". */
const ONE_FLAG = /\ban object with the key `(\w+)` and the value `(true|false)`/i;

/** The keyed block of a filter, its keys named by placeholders: `{ field_1: value_1, … }`. */
const FIELD_KEYED = /\{\s*["']?field_1["']?\s*:\s*["']?value_1\b/i;

/** "Product rows. An array of objects in the following format": a list, wherever in the words it is said. */
const ITEMS_OF = /\b(?:array|list) of (?:objects|items|elements|rows|records|entries)\b/i;

/** Words that make an `array` with keys a list of keyed items ("Array of objects in the format …", "Each file is …"). */
const LIST_OF = /^\s*(?:an? )?(?:array|list|set) of (?!values\b|fields\b)|\beach (?:file|item|element|object|entry|record)\b/i;

/** A description that says the value may be `null` ("Can be `null`", "`null` if not set", "or `null`"). */
const NULL_WORDS = /\b(?:can|may)(?: also)? (?:be|return|contain) `null`|\bor `null`|`null` (?:if|when|for)\b|, `null`|\b(?:will )?returns? `null`(?: in the following cases)?:/i;
/** A description that says the value may be `false` ("… in ISO 8601 format, or `false`", "If not set, `false`"). */
const FALSE_WORDS = /\bor `false`|`false` (?:if|when)\b|, `false`|\breturns `false`(?: in the following cases)?:/i;

/** "`true` or `false`", "`true`/`false`": the words name a boolean's values (of the value or of a map's), no `false` form. */
const TRUE_OR_FALSE = /`true`\s*(?:or|\/|,)\s*`false`|`false`\s*(?:or|\/|,)\s*`true`/i;

/** Whether `false` is already a value of `t` (a boolean, or the `Y`/`N`/`0`/`1` union of `boolean`). */
function acceptsFalse(t: TypeRef): boolean {
  if (t.kind === "union") return t.options.some(acceptsFalse);
  return t.kind === "unknown" || (t.kind === "primitive" && t.type === "boolean" && (!t.enum || t.enum.includes(false)));
}

/** A description that gives the value several forms, each under a condition: two or more "When …"/"If …" list items. */
function alternatives(description: string): boolean {
  // The items of a list under "Returns `false`:" are when that value comes (tasks.template.get: "- if `templateId`
  // is passed empty"), not forms of the row's own value. One pass over the lines.
  let count = 0;
  let under = false;
  for (const line of description.split("\n")) {
    // Spaces and tabs only before the marker: `\s*` would cross line ends from every line's start (quadratic in lines).
    const item = /^[ \t]*[-*][ \t]+/.exec(line);
    if (!item) {
      if (line.trim() !== "") under = OTHER_VALUE_LIST.test(line.trim());
      continue;
    }
    if (!under && /^(?:when|if)\b/i.test(line.slice(item[0].length))) count++;
  }
  return count >= 2;
}

/**
 * The forms of a value by condition, where each "When …"/"If …" item names its form plainly: objects a link of the
 * item describes ("contains an array of objects describing users [(detailed description)](#user-object)"), or
 * identifiers as what the item gives ("contains user IDs", ", an array of manager identifiers"; not "if the IDs are
 * not found"), which are the linked objects' `id` (its row's type; unknown when the objects have none). One item of
 * each form; lists where every item says its form is one ("an array of …") or the row is one, null when only some
 * items do; a map of them for a row typed `object` (below). Items under "Returns `false`:" say when that value comes,
 * as `alternatives` reads them. Null when an item names neither form or both, or no item links the objects (the
 * identifiers' type would be a guess): the value's members stay unknown, as before. Everything is decided before the
 * link is followed, so a reading given up reads no table. One pass over the lines.
 */
function conditionForms(scope: FieldScope, cell: YfmCell, bare: TypeRef, description: string, seen: readonly string[]): { type: TypeRef; said: string } | null {
  const items: string[] = [];
  let lead = "";
  let under = false;
  for (const line of description.split("\n")) {
    const item = /^[ \t]*[-*][ \t]+/.exec(line);
    if (!item) {
      if (line.trim() !== "") under = OTHER_VALUE_LIST.test(line.trim());
      if (items.length === 0) lead += `${line}\n`;
      continue;
    }
    if (!under && /^(?:when|if)\b/i.test(line.slice(item[0].length))) items.push(line.slice(item[0].length));
  }
  let link: string | null = null;
  let ids = false;
  let lists = 0;
  for (const text of items) {
    if (/\b(?:array|list) of\b/i.test(text)) lists++;
    const linked = anchorLinks(text)[0];
    const saysIds = ID_FORM.test(text);
    if (linked && !saysIds && link === null) link = linked;
    else if (saysIds && !linked && !ids) ids = true;
    else return null;
  }
  if (link === null || !ids || (lists > 0 && lists < items.length)) return null;
  // A row typed `object` is a map of the forms, where the words before the items key it by identifiers ("The root
  // object where the key is the department ID, and the value:"), not words inside one item; else it stays unread:
  // identifiers or a list are no object.
  const keyed = bare.kind === "object" && keyedByIdentifier(plainText(lead));
  if (bare.kind === "object" && !keyed) return null;
  const key = keyOf(scope, cell, link);
  const table = !seen.includes(key) && seen.length < DEPTH ? anchored(scope, cell, link) : null;
  const object = table ? objectOf(scope, table, [...seen, key]) : null;
  if (!object || object.kind !== "object") return null;
  const idRow = object.members.find((f) => /^id$/i.test(f.name));
  const id: TypeRef = idRow?.type ?? { kind: "unknown", note: "identifiers the page does not type" };
  // Each case is a whole value: a list of identifiers, or a list of the objects, where the row or every item says so.
  const value: TypeRef = { kind: "union", options: bare.kind === "array" || lists === items.length ? [id, object].map((e): TypeRef => ({ kind: "array", items: e })) : [id, object] };
  return {
    type: keyed ? { kind: "object", members: [], additional: value, keyDescription: "identifier" } : value,
    said: `as a union: identifiers (${idRow ? `the objects' \`${idRow.name}\`` : "untyped"}) or the objects the item links`,
  };
}

/**
 * The anchors of a text's links into its own page (`](#user-object)`), in order. The anchor stops at a bracket too:
 * `](#a` repeated without its `)` is then one scan, not one per opening.
 */
export function anchorLinks(text: string): string[] {
  return [...text.matchAll(/\]\(#([^()[\]\s]+)\)/g)].map((m) => m[1] as string);
}

/** Identifiers as what a condition's item gives: "contains user IDs", "an array of manager identifiers", ", ids". */
const ID_FORM = /(?:\bcontains|\breturns|,)[ \t]+(?:an? )?(?:(?:array|list) of )?(?:[\w-]+ ){0,3}(?:IDs|identifiers)\b/i;

/** "an object with identifier keys", "keyed by identifier", "where the key is the … ID". */
const KEYED_BY_ID = /\bobject with (?:\w+ )?(?:identifier|ID) keys\b|\bkeyed by (?:the )?(?:\w+ )?(?:identifier|ID)\b|\bkeys? (?:is|are) (?:the )?(?:\w+ )?(?:identifiers?|IDs?)\b/i;

/**
 * "Returns `false`:", "The method will return `null`:", "… in the following cases:": a list of when that value comes
 * follows (FALSE_WORDS adds `false`, NULL_WORDS makes a returned value nullable). Only these two: a list under another
 * value's words is left to say its forms, since nothing adds that value.
 */
const OTHER_VALUE_LIST = /\b(?:will )?returns? `(?:false|null)`(?: in the following cases| if| when)?:$/i;

/**
 * A bare object (or list of them) given its members by the table its description links to ("described
 * [below](#fields)") or, failing a link, by a section named after the field; `type` itself when there is none.
 */
function linkedObject(scope: FieldScope, type: TypeRef, cell: YfmCell, name: string, description: string, seen: readonly string[]): TypeRef {
  // "Contains the object [`template`](#template)" where the row is `result`: the object is result's member of that
  // name (crm.documentgenerator.template.get answers `{"template": {…}}`), not result itself; "Contains the object
  // [`result`](#result)" on the row `result` is the row's own type. So are "Contains the `attach` object …, structure
  // described [below](#attach)" and "Contains an array `list`, which includes objects with [event
  // descriptions](#lists)" (a list under that name). Read as result itself, the examples' nesting went unseen: the
  // object's members were all optional and it was open. Only on `result`: on another row ("`owner` object: Contains
  // the [`user`](#user) object") the words may as well say what the row is.
  const holder = type.kind === "object" && /^result$/i.test(name) && !foreign(scope, cell) ? heldMember(description) : null;
  if (holder && holder.name.toLowerCase() !== name.toLowerCase() && seen.length < DEPTH) {
    // The row's own section ("Result Type" under `result`) that lists the member is the row's type: its link may
    // name the member's items instead (crm.documentgenerator.template.getfields links `templateFields` to the
    // `templateField` each of its keys holds).
    const own = scope.tableNamed?.(name);
    const ownObject = own && !seen.includes(own.anchor) ? objectOf(scope, own, [...seen, own.anchor]) : null;
    if (ownObject?.kind === "object" && ownObject.members.some((f) => f.name === holder.name)) return ownObject;
    const member = heldObject(scope, cell, holder, seen);
    if (member) return { kind: "object", members: [member] };
  }
  // A link to a broader section that holds one named after the field (`FORM_DATA` linked to `#form`, "Form Operating
  // Mode", whose first table lists the keys the platform sends, not FORM_DATA's, which its sub-section "Parameters
  // Passed When Adding a Handler in the FORM_DATA Array" lists): that sub-section is the field's type. Asked before the
  // link's own table is, which counts that table as read (review: the keys' tables were then dropped without a word).
  let inner: (AnchoredTable & { anchor: string }) | null = null;
  let link: string | undefined;
  for (const a of anchorLinks(description)) {
    if (seen.includes(keyOf(scope, cell, a))) continue;
    const within = foreign(scope, cell) ? null : (scope.namedInside?.(name, a) ?? null);
    if (within && !seen.includes(within.anchor)) inner = within;
    if (inner || anchored(scope, cell, a) !== null) {
      link = a;
      break;
    }
  }
  // A section named after the field is looked for on the page being read, not in a page its rows came from.
  // A row of a named section's table ("Fields of the result object") looks for its path first ("Fields of the
  // result.state object").
  const via = inner ? null : link;
  const named = via || foreign(scope, cell) ? null : (inner ?? scope.tableNamed?.(name, seen[seen.length - 1]));
  // A parameter whose section of its name stands only in what the method answers: said, since that section is not
  // read as the parameter's (review: tasks.template.checklist.add's `MEMBERS` became an open object without a word).
  // Not where the row links a section itself (one it has been through: bizproc.task.list's `PARAMETERS`, whose
  // fields link back to it).
  if (!named && !/\]\(#/.test(description) && !foreign(scope, cell) && scope.namedInAnswer) {
    const there = scope.namedInAnswer(name, seen[seen.length - 1]);
    if (there) sayTypeReading(scope, cell, `${name}: ${plainText(description).slice(0, 80)}`, `its own words alone, not the section '${there}' named after it, which stands in what the method answers`);
  }
  const anchor = via ? keyOf(scope, cell, via) : named && !seen.includes(named.anchor) ? named.anchor : null;
  const table = anchor && seen.length < DEPTH ? (via ? anchored(scope, cell, via) : named) : null;
  const read = table ? objectOf(scope, table, [...seen, anchor as string]) : null;
  if (!read) return type;
  // The section's own words before its table say its rows are each value of a map ("The key is the field code …. The
  // values are the field parameter objects."): a map by those keys (sale.paysystem.handler.add's `FIELDS`).
  const section = via ?? (named ? named.anchor : null);
  const lead = section && !foreign(scope, cell) ? scope.wordsBefore?.(section) : null;
  const object: TypeRef = lead && keyedWords(lead) && read.kind === "object" && !read.additional ? { kind: "object", members: [], additional: read } : read;
  return type.kind === "array" ? { kind: "array", items: object } : object;
}

/** A member a row's words say its object holds: its name, whether it is a list, and the anchor of its type. */
export interface Held {
  name: string;
  list: boolean;
  anchor: string | null;
  /** A link into another page of the folder (`./crm-timeline-logo-add.md#logo`), where the words give no anchor. */
  page: string | null;
}

/**
 * The member a row's words name in its object: "Contains the object [`template`](#template)", "Contains the
 * [`numerator`](#numerator) object", "The `result` field contains the [logMessage](#logMessage) object" (its link's
 * words the name, its anchor the type); "Contains the `attach` object", "Contains an array `list`", "contains an
 * array of `logos`" (the name in backticks; the type the first link of the same sentence, if any); "Contains an array
 * of [`numerators`](#numerators)". Null for any other words, and for a type word as the name (an unquoted "Contains
 * an array of numerators" is a list of them, fields.ts LIST_WORDS).
 */
export function heldMember(description: string): Held | null {
  const linked = HOLDS_LINKED.exec(description);
  if (linked) {
    const name = (linked[1] ?? linked[3] ?? linked[5]) as string;
    const target = (linked[2] ?? linked[4] ?? linked[6]) as string;
    // `#logMessage` on this page, or `./crm-timeline-logmessage-add.md#logMessage` on another (….get links the add's).
    const own = target.startsWith("#");
    return basicType(name) ? null : { name, list: linked[5] !== undefined, anchor: own ? target.slice(1) : null, page: own ? null : target };
  }
  const named = HOLDS_NAMED.exec(description);
  const name = named ? ((named[1] ?? named[2] ?? named[3]) as string) : "";
  // "Contains an array of `integer` identifiers": a type word, not a member's name.
  if (!named || basicType(name)) return null;
  // The type is a link of the same sentence ("…, structure described [below](#attach)"), not of a later one ("On
  // failure, see [errors](#errors)").
  const rest = description.slice(named.index);
  const sentence = rest.slice(0, SENTENCE_END.exec(rest)?.index ?? rest.length);
  const anchor = /\]\(#([\w-]+)\)/.exec(sentence)?.[1] ?? null;
  const page = anchor ? null : (/\]\(([^()\s#]+\.md#[\w-]+)\)/.exec(sentence)?.[1] ?? null);
  return { name, list: named[1] === undefined, anchor, page };
}

/**
 * Whether a row's type is the one member its words name (heldMember, applied): then the words' "array of" is the
 * member's, and the row itself is no list (saysList).
 */
export function holdsNamed(type: TypeRef, description: string): boolean {
  if (type.kind !== "object" || type.members.length !== 1) return false;
  return heldMember(description)?.name === type.members[0]?.name;
}

const HOLDS_LINKED = /\bcontains the (?:object \[`?(\w+)`?\]\(((?:[^()\s#]+\.md)?#[\w-]+)\)|\[`?(\w+)`?\]\(((?:[^()\s#]+\.md)?#[\w-]+)\) object\b)|\bcontains an array of \[`(\w+)`\]\(((?:[^()\s#]+\.md)?#[\w-]+)\)/i;
const HOLDS_NAMED = /\bcontains the `(\w+)` object\b|\bcontains an array `(\w+)`|\bcontains an array of `(\w+)`/i;

/** The end of a sentence: a full stop before a space, a line's end or the text's. */
const SENTENCE_END = /\.(?=\s|$)/;

/**
 * The member a row's words say its object holds, typed by the section its anchor names: its table (an object of its
 * rows, a list of them for a list), or, where it has none, the sentence that opens it read as the member's type cell
 * and words ("[`object`](…), where the key is the string identifier of the template, and the value is the object
 * [`template`](#template)": a map of templates, fields.ts MAP_WORDS). Without an anchor, or one that gives neither:
 * an object (a list) whose members are not given. Null when the anchor was followed already (a loop).
 */
function heldObject(scope: FieldScope, cell: YfmCell, held: Held, seen: readonly string[]): Field | null {
  const { name, list, anchor, page } = held;
  if (anchor && seen.includes(anchor)) return null;
  const member = (type: TypeRef): Field => ({ name, type: list ? { kind: "array", items: type } : type, required: false, nullable: false, description: "", source: sourceOf(cell) });
  const table = anchor ? scope.tableAt(anchor) : null;
  const object = table && anchor ? objectOf(scope, table, [...seen, anchor]) : null;
  if (object) return member(object);
  // Another page's table, as a type cell's link to it is read (readWord).
  const found = page ? (scope.tableIn?.(cell.file, page) ?? null) : null;
  const there = found && !seen.includes(found.key) ? objectOf(scope, found, [...seen, found.key]) : null;
  if (there) return member(there);
  const said = anchor && !list ? scope.paragraphAt?.(anchor) : null;
  const typed = said ? TYPE_SENTENCE.exec(said.text) : null;
  if (said && typed?.[1] && anchor) {
    const cells: YfmCell[] = [
      { ...said, text: `**${name}**` },
      { ...said, text: typed[1] },
      { ...said, text: said.text.slice(typed[0].length).trim() },
    ];
    return readFieldRow(scope, { name: 0, type: 1, description: 2 }, cells, cells[0] as YfmCell, [...seen, anchor]);
  }
  return member({ kind: "object", members: [], open: true });
}

/** A sentence that opens with a type link and a comma: "[`object`](../data-types.md), where the key is …". */
const TYPE_SENTENCE = /^(\[`\w+`\]\([^()\s]*\)),/;

/** `object`, `object[]` or `array` with no members read. */
function isBareObject(t: TypeRef): boolean {
  if (t.kind === "array") return isBareObject(t.items) || t.items.kind === "unknown";
  return t.kind === "object" && t.members.length === 0 && !t.additional;
}

function membersOf(scope: FieldScope, rows: YfmCell[][], seen: readonly string[]): Field[] | null {
  const [header, ...body] = rows;
  const cols = header ? fieldColumns(header) : null;
  return cols ? readFieldRows(scope, cols, body, seen) : null;
}

function withoutNull(t: Extract<TypeRef, { kind: "union" }>): TypeRef {
  const rest = t.options.filter((o) => o.kind !== "null");
  return rest.length === 1 ? (rest[0] as TypeRef) : { kind: "union", options: rest };
}

/**
 * A row named or described as an identifier (`CURRENCY_ID` "Currency", `deliveryId` "Delivery service identifier")
 * whose type cell names a catalogue word that is only an object's structure (`crm_currency`: "Object describing
 * currency."; `sale_delivery_service`: "Object of the delivery service"): the page means the object's identifier, as
 * its requests write (`"CURRENCY_ID": "USD"`, `"deliveryId": 3`). Read as the structure's identifying member, `id`,
 * else the member named after the word's last part (crm_currency's `CURRENCY`, "Currency identifier"), and said; read
 * as the object, 40 rows typed an identifier as a whole currency or service (a wrong type, not an unknown one). A word
 * the table of words calls an identifier is typed so by the catalogue already (no `ref`).
 */
function identifierRead(scope: FieldScope, cell: YfmCell, name: string, typeText: string, description: string, type: TypeRef): TypeRef {
  if (type.kind !== "ref" || !(ID_NAME.test(name) || ID_WORDS.test(firstSentence(plainText(description))))) return type;
  const words = readTypeWords(typeText);
  const only = words?.options.length === 1 ? words.options[0] : undefined;
  if (!only || only.arrays > 0 || only.word.includes(".")) return type;
  const word = only.word.toLowerCase();
  const last = word.slice(word.lastIndexOf("_") + 1);
  // The first of `id` and the member named after the word's last part that the structure has.
  for (const member of last !== word ? ["id", last] : ["id"]) {
    const id = scope.typeWord(`${word}.${member}`);
    if (!id) continue;
    if (id.kind !== "primitive") return type;
    sayTypeReading(scope, cell, `${name}: ${only.word}, ${plainText(description).slice(0, 60)}`, `the identifier of the object '${only.word}' (its member \`${member}\`, ${id.type}), as the row's name and words say, not the whole object its structure describes`);
    return id;
  }
  return type;
}

/** What the row's words say of the type its cell names: "Multiple", "Associative array of objects", "Value `x`". */
function wordsSay(scope: FieldScope, cell: YfmCell, name: string, description: string, type: TypeRef): TypeRef {
  const words = plainText(description).trim();
  const said = (reading: string) => sayTypeReading(scope, cell, `${name}: ${words.slice(0, 80)}`, reading);
  // "Phone. Multiple", "Linked contact identifier. Multiple.": the platform's multiple field holds a list of what the
  // cell names (crm.company.update writes the same row `crm_multifield[]`, crm.lead.add `crm_multifield`; the pages'
  // requests pass `"PHONE": [{…}]`). A row whose words are "Multiple" alone describes the attribute (a flag), not this.
  if (type.kind !== "array" && type.kind !== "unknown" && MULTIPLE.test(words)) {
    said("a list of them: its type cell names one value, its words say the field is multiple");
    return { kind: "array", items: type };
  }
  // "Associative array of objects describing tags" (`TagDto[]`), "… dropdown menu items" (`MenuItemDto`): PHP's keyed
  // array of those objects, a JSON object whose keys the caller chooses (the timeline's examples key them: `"items":
  // {"confirm": {…}}`), whether the cell names one object or a list of them. Said where the cell names a list.
  const associative = ASSOCIATIVE.test(words) ? (type.kind === "array" ? type.items : type) : null;
  if (associative && (associative.kind === "object" || associative.kind === "ref") && !isBareObject(associative)) {
    if (type.kind === "array") said("an object keyed by the caller's keys whose values are the items: its type cell names a list, its words an associative array");
    return { kind: "object", members: [], additional: associative, keyDescription: "key" };
  }
  // "Value `redirect`" alone (the timeline action's `type`): the one value the field takes, which tells its cases apart.
  const only = type.kind === "primitive" && type.type === "string" && !type.enum ? ONE_VALUE.exec(words) : null;
  return only?.[1] && type.kind === "primitive" ? { ...type, enum: [only[1]] } : type;
}

/** Words that say the one value a field takes: "Value `redirect`" (also how front-end.ts finds a table's cases). */
export const ONE_VALUE = /^value `([^`\n]+)`\.?$/i;

/** Words that open by calling the value PHP's keyed array of objects: "An associative array of objects describing …". */
const ASSOCIATIVE = /^(?:an? )?associative array of objects\b/i;

/** Words that end by calling the field multiple, after words of their own: "Phone. Multiple", "… identifier. Multiple." */
const MULTIPLE = /\S[.!]\s+Multiple\.?$/;

/** A row's name that says it holds an identifier: `CURRENCY_ID`, `deliveryId`, `ownerID`. */
const ID_NAME = /(?:_ID|[a-z]Id|[a-z]ID)$/;
/**
 * A first sentence that calls the value an identifier: "Identifier of the …", "Identifier for the …", or a sentence that
 * ends at the word ("Delivery service identifier", "Item currency identifier"). Not "Object with the identifier, name
 * and logo of …" nor "Not an identifier" (review).
 */
const ID_WORDS = /^(?:identifier (?:of|for)\b|(?!(?:not|no)\b)(?:[\w'-]+ ){0,3}identifier\.?$)/i;

/** The type a cell names: its words, each a basic word, a catalogue word, or an anchor to a table of the page. */
export function readType(scope: FieldScope, text: string, cell: YfmCell, seen: readonly string[]): TypeRef {
  const words = readTypeWords(text);
  if (!words) return { kind: "unknown", note: "the reference gives no type" };
  const read = words.options.flatMap((o) => {
    if (o.arrays > MAX_LISTS) {
      // The reference writes one `[]` at most; thousands made a type as deep, and the emitters' recursion overflowed
      // the stack (review).
      scope.diagnostics.push(diagnostic("unplaced", at(cell, 1), { what: `the type '${o.word.slice(0, 40)}' with ${o.arrays} '[]': lists nested more than ${MAX_LISTS} deep` }));
      return [{ kind: "unknown", note: `the reference's type '${o.word.slice(0, 40)}' nested ${o.arrays} lists deep` } as TypeRef];
    }
    const t = arrayOf(readWord(scope, o, cell, seen), o.arrays);
    return t.kind === "union" ? t.options : [t];
  });
  // `catalog_product.id | catalog_product_offer.id` are both integers: one option, not two the same; and `integer |
  // boolean` needs no "0 or 1" beside `integer`. The options stay disjoint, as one-of-them needs. Each key's first
  // place found once (`indexOf` per option was quadratic in a cell of many options).
  const keys = read.map((t) => JSON.stringify(t));
  const first = new Map<string, number>();
  keys.forEach((k, i) => first.has(k) || first.set(k, i));
  const plain = new Set(read.filter((t) => t.kind === "primitive" && !t.enum && !t.format && !t.pattern).map((t) => (t.kind === "primitive" ? t.type : "")));
  const options = read.filter((t, i) => first.get(keys[i] as string) === i && !(t.kind === "primitive" && (t.enum || t.format) && plain.has(t.type)));
  return options.length === 1 ? (options[0] as TypeRef) : { kind: "union", options };
}

/**
 * The table an anchor names, for a cell of this page (its sections, then the catalogue's) or of a page whose table
 * this one follows (that page's sections: `#user` in entities.md is entities.md's, whichever page links to it).
 */
function anchored(scope: FieldScope, cell: YfmCell, anchor: string): AnchoredTable | null {
  return foreign(scope, cell) ? (scope.tableIn?.(cell.file, `#${anchor}`) ?? null) : scope.tableAt(anchor);
}

/** How `seen` names an anchor's table: its own word on this page, the file's path and the anchor on another. */
function keyOf(scope: FieldScope, cell: YfmCell, anchor: string): string {
  return foreign(scope, cell) ? `${cell.file}#${anchor.toLowerCase()}` : anchor;
}

/**
 * A cell of a page this reading reached by a link (`entities.md#user`): its anchors are that page's. A cell of the
 * page itself, of a file it includes, or of a scope that follows no links (the type catalogue) is the page's own.
 */
function foreign(scope: FieldScope, cell: YfmCell): boolean {
  if (!scope.tableIn) return false;
  return scope.own ? !scope.own(cell.file) : cell.file !== scope.file;
}

function readWord(scope: FieldScope, option: { word: string; link: string | null; page: string | null }, cell: YfmCell, seen: readonly string[]): TypeRef {
  const { word, link, page } = option;
  // A link to a table (`[`deal`](#deal)`, `[`User[]`](../entities.md#user)`) gives the object its members: the
  // table the link names is the type, before a catalogue word of the same spelling (`user` is also an identifier).
  const key = page ? `${cell.file}>${page}` : link ? keyOf(scope, cell, link) : null;
  if (key && !seen.includes(key) && seen.length >= DEPTH) {
    scope.diagnostics.push(diagnostic("unplaced", at(cell, 1), { what: `the members of '${word}' (${page ?? `#${link}`}): its tables nest more than ${DEPTH} deep` }));
  }
  const follow = key !== null && !seen.includes(key) && seen.length < DEPTH;
  // `catalog_catalog.id` linked to `#catalog_catalog`: the word names a member of the structure the link leads to (its
  // identifier), not the structure. The catalogue's word first (its table of words says what an identifier is), else
  // that member of the linked table; never the whole object, which a request's `"id": 1` would not match.
  const dotted = /^[A-Za-z_]\w*\.([A-Za-z_]\w*)$/.exec(word);
  if (dotted) {
    const known = scope.typeWord(word, scope.parameters ? "parameter" : undefined);
    if (known) return known;
    const table = !follow ? null : page ? (scope.tableIn?.(cell.file, page, word) ?? null) : link ? anchored(scope, cell, link) : null;
    const object = table ? objectOf(scope, table, [...seen, key as string]) : null;
    const member = object?.kind === "object" ? object.members.find((f) => f.name === dotted[1]) : undefined;
    if (member) return member.type;
  }
  // The page's own section for the word ("Fields of the Chat Object") before the shared one a link leads to: the
  // page says which of its forms this method gives (bot-get.md: the owner's extended form).
  const ownFirst = follow && page && !foreign(scope, cell) ? scope.tableNamed?.(word.toLowerCase()) : null;
  const ownObject = ownFirst && !seen.includes(ownFirst.anchor) ? objectOf(scope, ownFirst, [...seen, ownFirst.anchor]) : null;
  if (ownObject) return ownObject;
  // A link to a whole page (`./object-fields.md#`, type-words.ts pageLink) types a word of its own, not a basic word:
  // `[string](./some-method.md)` links the method, and is a string (review).
  const whole = page?.endsWith("#") === true && basicType(word) !== null;
  const found = follow && page && !whole ? (scope.tableIn?.(cell.file, page, word) ?? null) : null;
  const table = found ?? (follow && link ? anchored(scope, cell, link) : null);
  // A word of the type catalogue whose link reaches its structure on a data-types page (`[shop_item](../data-types.md
  // #shop_item)`, the table of words calling it an identifier and the heading its structure): the catalogue's reading
  // of the word, which knows both (an identifier, or either, said once at the definition), not the heading alone.
  if (table && !found && CATALOGUE_FILE.test(table.rows[0]?.[0]?.file ?? "") && !basicType(word)) {
    const known = scope.typeWord(word, scope.parameters ? "parameter" : undefined);
    if (known) return known;
  }
  const object = table && !(found && seen.includes(found.key)) ? objectOf(scope, table, [...seen, key as string, ...(found ? [found.key] : [])]) : null;
  if (object) return word.toLowerCase() === "array" ? { kind: "array", items: object } : object;
  if (follow && page && !found) {
    // The link says which structure the word is; where it leads to no table, a catalogue word of the same spelling
    // may be another thing (`user` is the catalogue's identifier, `entities.md#user` an object): say so.
    const known = !basicType(word) && scope.typeWord(word, scope.parameters ? "parameter" : undefined);
    if (known) sayTypeReading(scope, cell, `${word} (${page})`, `the catalogue's '${word}': the link leads to no field table`);
  }
  const basic = basicType(word);
  if (basic) return basic;
  if (word.toLowerCase() === "undefined") return { kind: "unknown", note: "undefined" };
  const known = scope.typeWord(word, scope.parameters ? "parameter" : undefined);
  if (known) return known;
  // A word the page defines itself: `Chat` described under "#### Chat Object" or "### Fields of the Chat Object".
  const named = seen.length < DEPTH ? scope.tableNamed?.(word.toLowerCase()) : null;
  const own = named && !seen.includes(named.anchor) ? objectOf(scope, named, [...seen, named.anchor]) : null;
  if (own) return own;
  // D31: a near miss of a known word (4 letters or more) says which; in the reference it is a warning.
  const near = word.length >= 4 ? nearest(word.toLowerCase(), [...BASIC_WORDS, ...(scope.knownWords?.() ?? [])]) : null;
  if (near && near !== word.toLowerCase()) scope.diagnostics.push(diagnostic("near-type-word", at(cell, 1), { word, near }));
  else scope.diagnostics.push(diagnostic("unknown-type-word", at(cell, 1), { word }));
  return { kind: "unknown", note: `the reference's type '${word}'` };
}

/** Markdown links as their words (`[\`crm\`](../x.md)` is `` `crm` ``), the rest of the text as it is. */
export function linkWords(s: string): string {
  // Bounded and on one line: `[](` repeated over a long line must not make every `[` scan to the line's end.
  return s.replace(/\[([^\]\n]{0,500})\]\([^)\s]{0,500}\)/g, "$1");
}

/** The cell's text without Markdown links' targets and emphasis, one line. */
export function plainText(s: string): string {
  return linkWords(s)
    .replace(/\*\*([^*]+)\*\*/g, "$1")
    .replace(/\{\.[\w-]+\}/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

function firstSentence(s: string): string {
  const t = plainText(s);
  const end = t.search(/\.\s/);
  return end > 0 ? t.slice(0, end + 1) : t;
}
