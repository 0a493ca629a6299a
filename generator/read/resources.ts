import type { Table } from "mdast";
import type { Field, Resource, ResourceLink, TypeRef } from "../model/types.js";
import { type Section, type Text, listItemText, sliceText, textOf, trimText } from "../parse/markdown.js";
import {
  NOT_SHOWN,
  type ReadContext,
  addGap,
  collapse,
  report,
  reportTypeWord,
  sentences,
  sourceOf,
  spanOfText,
  splitTop,
  statement,
} from "./inline.js";
import { readReturnedBy, readTitleLinks, readVersionKey } from "./links.js";
import { headerIndex, pascal, tableRows } from "./tables.js";
import { defaultFromCell, fieldColumns, readBareValues, readMeaning, readNameCell } from "./facts.js";
import { UNKNOWN, field, formatOnly, readEnumValues, readTypePhrase, suspiciousTypeWord } from "./types.js";
import { balancedParenGroup, withoutTrailingParens } from "../util/parens.js";
import { pushAll } from "../util/arrays.js";

/**
 * Reads the sections of "Resources and their fields" (spec-source/README.md#resources): field tables
 * (`| Field | Type | Meaning |`), grouped tables (`| Group | Fields |`), keyed objects ("`allowedActions`: object
 * keyed by user id; value is ..."), nested shapes as bullets, and the "Other resources" bullet list:
 *
 *     - Signed document (`sign.b2e.personal.tail` item): id (integer), title (string), file_url (string, download link).
 */

const FLAG: TypeRef = { kind: "primitive", type: "string", format: "yn", enum: ["Y", "N"] };
const STRING: TypeRef = { kind: "primitive", type: "string" };
const DECIMAL: TypeRef = { kind: "primitive", type: "string", format: "decimal" };
const DATE: TypeRef = { kind: "primitive", type: "string", format: "date-time" };

/** The typing sentence of a resource ("Identifiers and counters are decimal strings; flags ...; dates ... or null"). */
interface TypingRules {
  identifiers: boolean;
  counters: boolean;
  flags: boolean;
  dates: boolean;
  datesNullable: boolean;
}

function readTypingRules(written: string): TypingRules | null {
  // A developer's shorthand: "ids + counters = decimal strs", "flags = strs `Y`/`N`", "dates = ISO 8601 w/ offset".
  const s = written
    .replace(/^ids\b/i, "Identifiers")
    .replace(/\s\+\s/g, " and ")
    .replace(/\s=\s/g, " are ")
    .replace(/\bstrs\b/g, "strings")
    .replace(/\bw\//g, "with");
  if (!/\b(decimal strings|strings `?Y`?\/`?N`?|ISO 8601)\b/.test(s)) return null;
  return {
    identifiers: /\bIdentifiers\b[^;]*decimal strings/i.test(s),
    counters: /\bcounters\b[^;]*decimal strings/i.test(s),
    flags: /\bflags are (?:the )?strings `?Y`?\/`?N`?/i.test(s),
    dates: /\bdates are ISO 8601\b/i.test(s),
    datesNullable: /\bdates are ISO 8601[^;]*\bor null\b/i.test(s),
  };
}

/** Typing rules written over several sentences or bullets ("Identifiers … decimal strings." "Flags are …") add up. */
function mergeRules(a: TypingRules | null, b: TypingRules): TypingRules {
  if (!a) return b;
  return {
    identifiers: a.identifiers || b.identifiers,
    counters: a.counters || b.counters,
    flags: a.flags || b.flags,
    dates: a.dates || b.dates,
    datesNullable: a.datesNullable || b.datesNullable,
  };
}

/**
 * "- **Identity:** `id`, `parentId`": a group of fields written as a labelled bullet (the group table's row in
 * another layout). The label is the group, as a Group cell is.
 */
function readGroupBullet(ctx: ReadContext, r: Resource, t: Text, rules: TypingRules | null): boolean {
  const m = /^\*\*([A-Za-z][\w ,+-]*?):?\*\*:?\s*(?=`)/.exec(t.text);
  if (!m) return false;
  const list = sliceText(t, m[0].length);
  const read = readFieldList(list.text, rules, m[1]?.trim(), list, ctx);
  if (read.fields.length === 0) return false;
  pushAll(members(r), read.fields);
  return true;
}

/**
 * Applies a typing sentence to a field the spec lists without a type. Which rule applies is read from the
 * group ("dates", "switches" are flags, "text" holds strings) and from the name (`id`, `...Id`, `...By` are
 * identifiers, `...Count` counters, `is...` flags): see spec-source/README.md#typing-rules.
 */
function typeByRule(rules: TypingRules, name: string, group: string | undefined): { type: TypeRef; nullable: boolean } | null {
  const g = (group ?? "").toLowerCase();
  if (rules.dates && (g === "dates" || /Date$/.test(name))) return { type: DATE, nullable: rules.datesNullable };
  if (rules.flags && (g === "switches" || g === "flags" || /^is[A-Z]/.test(name))) return { type: FLAG, nullable: false };
  if (rules.counters && /Count$/.test(name)) return { type: DECIMAL, nullable: false };
  if (rules.identifiers && (/^id$|Id$|By$/.test(name) || g === "identity")) {
    return { type: /^(guid|xmlId|siteId)$/.test(name) ? STRING : DECIMAL, nullable: false };
  }
  if (g === "text") return { type: STRING, nullable: false };
  return null;
}

/** "Y/N", "array of ids", "booleans", "strings or null", "ISO 8601 string", "object, or empty array when none". */
function annotationType(
  annotation: string,
  rules: TypingRules | null,
): { type: TypeRef; nullable: boolean; rest: string; plural: boolean; all: boolean; emptyArray: boolean } | null {
  let a = annotation.trim();
  const all = /^all\s+/.test(a);
  if (all) a = a.replace(/^all\s+/, "");
  if (/^`?Y`?\/`?N`?$/.test(a)) return { type: FLAG, nullable: false, rest: "", plural: false, all, emptyArray: false };
  const ids = /^array of ids$/.exec(a);
  if (ids) return { type: { kind: "array", items: rules?.identifiers ? DECIMAL : UNKNOWN }, nullable: false, rest: "", plural: false, all, emptyArray: false };
  const keyed = readKeyedObject(a, rules);
  if (keyed) return { type: keyed, nullable: false, rest: "", plural: false, all, emptyArray: false };
  // Also a developer's "bools: a, b".
  const booleans = /^(?:object of )?(?:booleans?|bools?):?\s+(?:with keys\s+)?(.+)$/.exec(a);
  // Keys are names: "bool (`Y` or `N`, default `Y`)" is a flag's words, not an object of booleans.
  const keys = (booleans?.[1] ?? "").split(",").map((k) => k.trim());
  if (booleans && keys.length > 1 && keys.every((k) => /^(?:and\s+)?`?[A-Za-z_][\w.]*`?$/.test(k))) {
    return { type: booleanObject(booleans[1] ?? ""), nullable: false, rest: "", plural: false, all, emptyArray: false };
  }
  const bare = readBareValues(a);
  if (bare) return { type: { kind: "primitive", type: "string", enum: bare }, nullable: false, rest: "", plural: false, all, emptyArray: false };
  // "one of `OPENED`, `CLOSED`, `PAUSED`" in a Type cell: the values, the whole cell (numbers alone say no type).
  const ticked = a.replace(/^one of\s+(?=`)/i, "");
  const listed = readEnumValues(ticked);
  // Type words in backticks (`` `string` or `integer` ``) are types, not values.
  const typeWords = listed ? listed.values.every((v) => readTypePhrase(v)?.length === v.length || /^date(?:time)?$/i.test(v)) : false;
  if (listed && !listed.noted && !typeWords && listed.length === ticked.length && !listed.values.every((v) => /^-?\d+$/.test(v))) {
    return { type: { kind: "primitive", type: "string", enum: listed.values }, nullable: false, rest: "", plural: false, all, emptyArray: false };
  }
  const tp = readTypePhrase(a);
  if (!tp) return null;
  const rest = a.slice(tp.length).replace(/^[\s,;:]+/, "");
  const emptyArray = /\bor empty array\b/.test(rest);
  return {
    type: tp.type,
    nullable: tp.nullable,
    rest: emptyArray ? rest.replace(/^or empty array\s*/, "") : rest,
    plural: /^(integers|numbers|strings|booleans|objects|arrays)\b/i.test(a),
    all,
    emptyArray,
  };
}

/** "object of booleans with keys a, b" / "object of localized strings with keys A, B": every key, one type. */
function keysObject(keys: string, type: TypeRef = { kind: "primitive", type: "boolean" }): TypeRef {
  const names = keys.split(/\s*,\s*|\s+and\s+/).map((k) => k.replace(/[`.]$/g, "").replace(/`/g, "").trim()).filter(Boolean);
  return {
    kind: "object",
    members: names.map((n) => field({ name: n, type, required: false, description: "", source: NO_SOURCE })),
  };
}
const booleanObject = (keys: string) => keysObject(keys);

const NO_SOURCE = { file: "", line: 0, column: 0 };

/**
 * "object keyed by user id; value is an object of booleans with keys A, B", "object keyed by item id; item fields
 * a, b", "object keyed by question id, each with A, B", "object keyed by language code; (each) value has A, B",
 * "keyed by answer id".
 */
export function readKeyedObject(s: string, rules: TypingRules | null = null): TypeRef | null {
  // "keyed by question id; each: A, B" and "keyed by question id. Each question has A, B" say "each with A, B".
  const spelled = s.trim().replace(/^(object\s+)?(keyed by [^;,.]+?)(?:;\s*each:|\.\s*Each \w+ has:?)\s+/i, "$1$2, each with ");
  const m = /^(?:object\s+)?keyed by ([^;,]+?)(?:(?:;\s*|,\s*)(value is an object of booleans with keys|item fields|each with|(?:each )?value has):?\s+(.*))?$/i.exec(spelled);
  if (!m) return null;
  const key = collapse(m[1] ?? "");
  // "each value has A, B" says what "value has A, B" says.
  const how = m[2]?.toLowerCase().replace(/^each value has$/, "value has");
  const list = m[3] ?? "";
  let value: TypeRef = UNKNOWN;
  if (how === "value is an object of booleans with keys") value = booleanObject(list);
  else if (how) {
    // Read without a context (no positions here): a list with an item that is no field name is not this form, so
    // the text stays for the caller's own reading and warning, never a value with fields left out.
    const read = readFieldList(list, rules, undefined);
    if (read.unread > 0 || read.fields.length === 0) return null;
    value = { kind: "object", members: read.fields, ...(how === "item fields" ? { name: "Item" } : {}) };
  }
  return { kind: "object", members: [], additional: value, keyDescription: key };
}

interface FieldListResult {
  fields: Field[];
  /** Items that are no field name (each a warning where the list has a context; counted either way). */
  unread: number;
}

/**
 * A comma list of field names with optional annotations: "ID (string), ACTIVE (boolean), NAME, LAST_LOGIN
 * (ISO 8601), PERSONAL_GENDER, WORK_POSITION (strings)". A plural annotation types the run of names before it
 * that have none; "(all strings)" types every name before it that has none.
 */
export function readFieldList(s: string, rules: TypingRules | null, group: string | undefined, at?: Text, ctx?: ReadContext): FieldListResult {
  const t: Text = at ?? { text: s, start: 0 };
  const items = splitTop(t, (x, i) => (x[i] === "," ? (x[i + 1] === " " ? 2 : 1) : 0));
  const fields: Field[] = [];
  let unread = 0;
  let runStart = 0;
  for (const item of items) {
    // "…, `IMAGE`, and `ANSWERS` (keyed by answer id)": the last of a list after "and" (a name: backticked, upper case,
    // or with its annotation; "and others" stays words); "(keyed by …)" as "keyed by …".
    const text = item.text.replace(/\.$/, "").replace(/^and\s+(?=`|[A-Z_]|[a-z]\w*\s*\(|[a-z]\w*\s+keyed by )/, "").replace(/^(`?[A-Za-z_~][A-Za-z0-9_.~]*`?)\s*\((keyed by [^()]*)\)$/, "$1 $2");
    const m = /^`?([A-Za-z_~][A-Za-z0-9_.~]*)`?(?:\s*\((.*)\))?(?:\s+(keyed by .*))?$/.exec(text);
    const source = ctx ? sourceOf(ctx, item) : NO_SOURCE;
    if (!m) {
      if (ctx) report(ctx, "unread-text", spanOfText(ctx, item), { what: "field", text: collapse(text).slice(0, 80) });
      unread += 1;
      continue;
    }
    const name = m[1] ?? "";
    const annotation = m[2] ?? "";
    const keyedBy = m[3] ? readKeyedObject(m[3]) : null;
    const f = field({ name, type: keyedBy ?? UNKNOWN, required: true, description: "", source, ...(group ? { group } : {}) });
    if (annotation) {
      const a = annotationType(annotation, rules);
      if (a) {
        f.type = a.type;
        f.nullable = a.nullable;
        f.description = collapse(a.rest);
        if (a.emptyArray) f.mayBeEmptyArray = true;
        const back = a.all ? fields : a.plural ? fields.slice(runStart) : [];
        for (const prev of back) {
          if (prev.type.kind === "unknown") {
            prev.type = a.type;
            prev.nullable = a.nullable;
          }
        }
      } else {
        const word = suspiciousTypeWord(annotation);
        if (word && ctx && !/\s/.test(annotation.trim())) reportTypeWord(ctx, spanOfText(ctx, item), word);
        f.description = collapse(annotation);
      }
      runStart = fields.length + 1;
    }
    if (f.type.kind === "unknown" && rules) {
      const byRule = typeByRule(rules, name, group);
      if (byRule) {
        f.type = byRule.type;
        f.nullable = byRule.nullable;
      }
    }
    fields.push(f);
  }
  // Members read out of an annotation ("keyed by ..., each with ID, ACTIVE") stand where their field stands.
  for (const f of fields) {
    const t = f.type;
    if (t.kind === "object") {
      fillFieldSources(t.members, f.source);
      if (t.additional?.kind === "object") fillFieldSources(t.additional.members, f.source);
    }
  }
  return { fields, unread };
}

function fillFieldSources(fields: Field[], source: Field["source"]): void {
  for (const f of fields) {
    if (f.source.line === 0) f.source = source;
    const t = f.type;
    if (t.kind === "object") {
      fillFieldSources(t.members, source);
      if (t.additional?.kind === "object") fillFieldSources(t.additional.members, source);
    }
  }
}

/** A resource's links, and the methods they name in `returnedBy` (once each; a per-version link repeats a name). */
function addLinks(r: Resource, links: ResourceLink[]): void {
  pushAll(r.links, links);
  for (const l of links) if (!r.returnedBy.includes(l.method)) r.returnedBy.push(l.method);
}

/** A resource named by its title, with the links its title's parenthesis gives (`(\`m\` item; notes)`). */
function titledResource(ctx: ReadContext, title: string, at: Text): Resource {
  const r = newResource(ctx, title, at);
  const fromTitle = readTitleLinks(title, r.source);
  addLinks(r, fromTitle.links);
  if (fromTitle.note) r.notes.push({ text: fromTitle.note, refs: [], source: r.source });
  return r;
}

function newResource(ctx: ReadContext, title: string, at: Text): Resource {
  // A section number ("5.6 Current user") is no part of the name.
  const clean = withoutTrailingParens(title).replace(/\s+item$/i, "").replace(/^\d+(?:\.\d+)*\.?\s+/, "");
  return {
    name: pascal(clean),
    title,
    description: "",
    returnedBy: [],
    links: [],
    type: { kind: "object", members: [] },
    typingRules: [],
    notes: [],
    source: sourceOf(ctx, at),
  };
}

function members(r: Resource): Field[] {
  if (r.type.kind !== "object") throw new Error("resource type is not an object");
  return r.type.members;
}


/**
 * `| Field | Type | Meaning |` tables (any header of the synonym lists, generator/read/facts.ts): the Type cell in the
 * resource forms (`Y/N`, "array of ids", keyed objects), the Meaning cells through the field grammar (values,
 * default, null).
 */
function readFieldTable(ctx: ReadContext, table: Table, rules: TypingRules | null): Field[] {
  const cols = fieldColumns(ctx, table);
  const { rows } = tableRows(ctx, table);
  const meaningCols = [...cols.meaning, ...cols.other];
  const out: Field[] = [];
  for (const cells of rows) {
    const whole = cells[cols.name];
    if (!whole || !whole.text) continue;
    // `**name**<br>\`type\``, `` `name` ``, or several names of one type in one cell (`A, B, C`).
    const cell = readNameCell(whole, cols.type !== null);
    const nameCell = cell.cell;
    const names = cell.name !== null ? [cell.name] : namesIn(nameCell.text);
    if (names.length === 0) {
      report(ctx, "unread-text", spanOfText(ctx, nameCell), { what: "field name", text: collapse(nameCell.text).slice(0, 80) });
      continue;
    }
    const typeCell = cell.lineType ?? (cols.type === null ? null : (cells[cols.type] ?? null));
    // A dash alone (`—`, `–`, `-`) is an empty cell: no type is given.
    const typeText = collapse(typeCell?.text ?? "").replace(/^[—–-]$/, "");
    const meaningCells = meaningCols.map((i) => cells[i]).filter((c): c is Text => !!c && !!c.text.trim());
    const meaning = collapse(meaningCells.map((c) => c.text).join("; "));
    // A Type cell left as a dash or blank, its type opening the Notes ("| SMTP_LOGIN_AS_IMAP | — | Y/N |"): as a
    // parameter's row reads it (params.ts), the Notes' first clause is the type.
    const notesType = !typeText && meaningCells[0] ? annotationType(collapse(meaningCells[0].text), rules) : null;
    const a = typeText ? annotationType(typeText, rules) : notesType && !notesType.rest ? notesType : null;
    if (!a && typeText && typeCell) {
      const word = suspiciousTypeWord(typeText) ?? (/\s/.test(typeText) ? null : typeText);
      if (word) reportTypeWord(ctx, spanOfText(ctx, typeCell), word);
    }
    const words = [a?.rest ?? (a ? "" : typeText), meaning].filter(Boolean).join("; ");
    // A `Type / notes` cell's words after the type ("str, Y/N") are read as the Meaning's: values, default, null.
    const typeRest = a?.rest && typeCell && !cell.lineType ? a.rest : "";
    const typeWords = typeRest ? "" : (a?.rest ?? (a ? "" : typeText));
    let type = a?.type ?? UNKNOWN;
    // "object | ID (integer), TIMEMAN_STATUS (OPENED, CLOSED), PHONE (strings or null)": the members of an object.
    // Also with a verb before the list: "Contains ID (integer), TIMEMAN_STATUS (…), and USER_PHONE_INNER, … (strings or null)".
    const verb = /^(?:Contains|Holds|Has)\s+(?=[A-Z_]+ \()/.exec(meaning);
    if (type.kind === "object" && type.members.length === 0 && !type.additional && (verb || /^[A-Z_]+ \(/.test(meaning))) {
      const list = verb && meaningCells[0] ? trimText(sliceText(meaningCells[0], meaningCells[0].text.indexOf(verb[0]) + verb[0].length)) : meaningCells[0];
      type = { kind: "object", members: readFieldList(verb ? meaning.slice(verb[0].length) : meaning, rules, undefined, list, ctx).fields };
    }
    // "object | Keyed by user id. Each value is an object of booleans with the keys A, B": a map. A cell with no type
    // that says so in words ("Object keyed by question id. Each question has ID, …") is the same map.
    const untypedMap = type.kind === "unknown" && /^(?:an? )?object keyed by /i.test(meaning);
    if (untypedMap || (type.kind === "object" && type.members.length === 0 && !type.additional && /^keyed by /i.test(meaning))) {
      const keyed = readKeyedObject(meaning.replace(/^(?:an? )?object keyed/i, "keyed").replace(/\.\s*Each value is an object of booleans with (?:the |these )?keys:?\s*/i, "; value is an object of booleans with keys ").replace(/^Keyed/, "keyed").replace(/\.$/, ""));
      if (keyed) type = keyed;
    }
    // "CONTACT, LEAD (...) or COMPANY", "`Y`/`N`", "`a`, `b`", "..., or null", "default `x`": the field grammar.
    const facts = typeRest && typeCell ? readMeaning(ctx, type, [typeRest, meaning].filter(Boolean).join("; "), typeCell) : readMeaning(ctx, type, meaning, meaningCells[0] ?? null);
    // "| handler | string | URL |": the format the bullet's "string URL" gives (types.ts formatOnly).
    const formatted = formatOnly(facts.type, facts.description);
    if (formatted) Object.assign(facts, { type: formatted, description: "" });
    const defaultCell = cols.default === null ? "" : collapse(cells[cols.default]?.text ?? "");
    for (const name of names) {
      const f = field({
        name,
        type: names.length > 1 ? structuredClone(facts.type) : facts.type,
        required: true,
        nullable: (a?.nullable ?? false) || facts.nullable,
        description: collapse([typeWords, facts.description].filter(Boolean).join("; ")),
        ...(defaultCell ? { default: defaultFromCell(defaultCell, facts.type) } : facts.default ? { default: facts.default } : {}),
        source: sourceOf(ctx, nameCell),
      });
      if (/\bmay come as an empty object\b/.test(words)) f.mayBeEmptyObject = true;
      if (/\bonly when\b|\babsent in some\b|\bmay be absent\b/.test(words)) {
        f.required = false;
        f.optional = true;
      }
      out.push(f);
    }
  }
  return out;
}

/**
 * "The SMTP fields may be null when they are not set.": the resource's fields named `SMTP_…` are nullable. False when
 * the sentence says no such thing or the resource has no field of that prefix.
 */
function nullableByPrefix(r: Resource, sentence: string): boolean {
  const m = /^(?:The )?([A-Za-z]\w*) fields may be null\b/.exec(sentence);
  const prefixed = m && r.type.kind === "object" ? r.type.members.filter((f) => f.name.startsWith(`${m[1]}_`)) : [];
  for (const f of prefixed) f.nullable = true;
  return prefixed.length > 0;
}

/** "`A`, `B` and `C`" in one name cell: the names, or none when any piece is not a single name. */
function namesIn(text: string): string[] {
  const pieces = text
    .split(/\s*(?:,|\band\b|\/)\s*/)
    .map((p) => p.replace(/^(?:\*\*)?`?|`?(?:\*\*)?$/g, "").trim())
    .filter(Boolean);
  return pieces.length > 1 && pieces.every((p) => /^[A-Za-z_][A-Za-z0-9_.]*$/.test(p)) ? pieces : [];
}

function readGroupTable(ctx: ReadContext, table: Table, rules: TypingRules | null): Field[] {
  const { h, rows } = tableRows(ctx, table);
  const out: Field[] = [];
  for (const cells of rows) {
    const group = collapse(cells[h.find(/^(?:field )?group$/) ?? 0]?.text ?? "");
    const list = cells[h.find(/^fields$/) ?? 1];
    if (!list) continue;
    pushAll(out, readFieldList(list.text, rules, group, list, ctx).fields);
  }
  return out;
}

/**
 * A shape's words in the forms the readers take: "an object of booleans with the keys: a" is "object of booleans
 * with keys a"; "objects with the fields `id`" is "objects with `id`"; "an object keyed by item id. Each item has
 * the fields a, b" is "object keyed by item id; item fields a, b".
 */
function shapeWords(body: string): string {
  return body
    .replace(/^an?\s+/i, "")
    .replace(/^objs?:\s*/, "objects with ")
    .replace(/^obj\b/, "object")
    .replace(/\bof bools\b,?\s*(?:keys:?)?/, "of booleans with keys")
    .replace(/\bitem fields:/, "item fields")
    .replace(/\bwith the (fields|keys)\b:?/, (_all, what: string) => (what === "keys" ? "with keys" : "with"))
    .replace(/\bwith keys:/, "with keys")
    .replace(/\.\s*Each item has (?:the )?(?:fields\s*)?/i, "; item fields ");
}

/** "- `creator` and `responsible`: objects with `id`, `name`." / "- `action`: object of booleans with keys a, b." */
function readShapeBullet(ctx: ReadContext, r: Resource, t: Text, rules: TypingRules | null): boolean {
  // Names in code or bold (`**creator**, **responsible** — objects with …`), then a colon or a dash.
  const m = /^((?:(?:`[A-Za-z_]\w*`|\*\*[A-Za-z_]\w*\*\*)(?:\s*,\s*|\s+and\s+)?)+)(?::|\s+(?:—|–|-))\s*(.*)$/.exec(collapse(t.text));
  if (!m) return false;
  const names = [...(m[1] ?? "").matchAll(/`([^`]+)`|\*\*([^*]+)\*\*/g)].map((x) => x[1] ?? x[2] ?? "");
  const body = shapeWords((m[2] ?? "").replace(/\.$/, ""));
  let type: TypeRef | null = null;
  const objects = /^objects? with (.*)$/.exec(body);
  if (objects) type = { kind: "object", members: readFieldList(objects[1] ?? "", rules, undefined).fields };
  const booleans = /^objects? of booleans (?:with keys|keyed by):?\s*(.*)$/.exec(body);
  if (booleans) type = booleanObject(booleans[1] ?? "");
  type ??= readKeyedObject(body, rules);
  if (!type) return false;
  const shapeName = `${r.name}${pascal(names[0] ?? "")}`;
  if (type.kind === "object" && type.members.length > 0) type = { ...type, name: shapeName };
  if (type.kind === "object" && type.additional?.kind === "object" && type.additional.name === "Item") {
    type = { ...type, additional: { ...type.additional, name: `${shapeName}Item` } };
  }
  const ms = members(r);
  for (const n of names) {
    const f = ms.find((x) => x.name === n);
    if (f) {
      f.type = type;
      f.description = collapse(body);
    } else ms.push(field({ name: n, type, required: true, description: collapse(body), source: sourceOf(ctx, t) }));
  }
  fillFieldSources(ms, sourceOf(ctx, t));
  return true;
}

function readGapSentence(ctx: ReadContext, t: Text, appliesTo: string[]): boolean {
  const s = collapse(t.text);
  const m = NOT_SHOWN.exec(s);
  if (!m) return false;
  addGap(ctx, t, (m[1] ?? s).trim(), appliesTo);
  return true;
}

/** "`x` is an object keyed by K. Each value is an object of booleans with these keys: A, B" (the keys may follow). */
const KEYED_SENTENCES = /^`([A-Za-z_]\w*)` is an? (object keyed by [^.;]+)[.;]\s*Each value is an object of booleans with (?:these |the )?keys:?\s*(.*)$/;

/** A section under "Resources and their fields" other than the envelope and "Other resources". */
export function readResourceSection(ctx: ReadContext, section: Section): Resource[] {
  const at: Text = { text: section.title, start: section.start };
  const r = newResource(ctx, section.title, at);
  ctx.subject = { resource: r.name };
  addLinks(r, readTitleLinks(section.title, r.source).links);
  let rules: TypingRules | null = null;
  const extra: Resource[] = [];
  /** A map's sentences that end in "with these keys:": the next paragraph lists the keys. */
  let keysFollow: string | null = null;
  /** "Fields:" ending a sentence: the next sentence or paragraph is the field list. */
  let listFollows = false;
  /** "Members of `ASSIGNED_BY`:" (or "`ASSIGNED_BY`:") before a table: the table lists that field's members. */
  let membersOf: Field | null = null;
  for (const block of section.blocks) {
    const t = textOf(ctx.file, block);
    if (block.type === "table") {
      const header = block.children[0];
      const h = header ? headerIndex(ctx, header) : null;
      if (h && h.find(/^(?:structure|shape)$/) !== null) {
        // "| Field | Structure |": each row is a shape bullet ("`creator`, `responsible`: object with …").
        const { rows } = tableRows(ctx, block);
        const name = h.find(/^(?:field|fields|member|name)$/) ?? 0;
        const shape = h.find(/^(?:structure|shape)$/) ?? 1;
        for (const cells of rows) {
          const a = cells[name];
          const b = cells[shape];
          if (!a || !b) continue;
          // The row as the bullet "NAMES: SHAPE", its start moved so that the shape's offsets stay right.
          const joined: Text = { text: `${a.text}: ${b.text}`, start: b.start - a.text.length - 2 };
          if (!readShapeBullet(ctx, r, joined, rules)) report(ctx, "unread-text", spanOfText(ctx, b), { what: "table row", text: collapse(b.text).slice(0, 80) });
        }
        continue;
      }
      const fields = h?.find(/^(?:field )?group$/) !== null ? readGroupTable(ctx, block, rules) : readFieldTable(ctx, block, rules);
      if (membersOf?.type.kind === "object") pushAll(membersOf.type.members, fields);
      else pushAll(members(r), fields);
      membersOf = null;
      continue;
    }
    // "Members of `X`:" holds for the table right after it, not past another block.
    if (block.type !== "paragraph") membersOf = null;
    if (block.type === "blockquote") {
      // "> **Not shown:**" and a list: each item is a gap of the resource.
      for (const child of block.children) {
        if (child.type === "list") for (const item of child.children) addGap(ctx, listItemText(ctx.file, item), collapse(listItemText(ctx.file, item).text).replace(/[;.]$/, ""), [`resource:${r.name}`]);
        else if (!/^\**(?:Not shown|Note|Warning|Info)\**:?\**$/i.test(collapse(textOf(ctx.file, child).text))) {
          const ct = textOf(ctx.file, child);
          if (!readGapSentence(ctx, ct, [`resource:${r.name}`])) report(ctx, "unread-text", spanOfText(ctx, ct), { what: child.type, text: collapse(ct.text).slice(0, 80) });
        }
      }
      continue;
    }
    if (block.type === "list") {
      for (const item of block.children) {
        const it = listItemText(ctx.file, item);
        if (readGroupBullet(ctx, r, it, rules)) continue;
        const typingBullet = readTypingRules(collapse(it.text));
        if (typingBullet) {
          rules = mergeRules(rules, typingBullet);
          r.typingRules.push(statement(ctx, it));
          continue;
        }
        if (readShapeBullet(ctx, r, it, rules)) continue;
        if (readGapSentence(ctx, it, [`resource:${r.name}`])) continue;
        if (r.type.kind === "object" && readFieldListBullet(ctx, r, it, rules)) continue;
        r.notes.push(statement(ctx, it));
        report(ctx, "unread-text", spanOfText(ctx, it), { what: "bullet", text: collapse(it.text).slice(0, 80) });
      }
      continue;
    }
    if (block.type !== "paragraph") {
      report(ctx, "unread-text", spanOfText(ctx, t), { what: block.type, text: collapse(t.text).slice(0, 80) });
      continue;
    }
    const holderWords = /^(?:(?:Members|Fields) of )?`([A-Za-z_]\w*)`(?: (?:members|fields|has))?:$/.exec(collapse(t.text));
    const holder = holderWords && r.type.kind === "object" ? r.type.members.find((f) => f.name === holderWords[1]) : undefined;
    if (holder && holder.type.kind === "object" && holder.type.members.length === 0 && !holder.type.additional) {
      membersOf = holder;
      r.notes.push(statement(ctx, t));
      continue;
    }
    membersOf = null;
    // "**Field labels** (`mailservice.fields`): an object of …" inside a resource's section: a resource of its own,
    // titled in bold with the method it comes from, as under "Other resources".
    if (/^\*\*[^*]+\*\*\s*\(`[a-z][\w.]*`[^)]*\)\s*(?::|—|–)/.test(t.text)) {
      const titled = readTitledParagraph(ctx, t);
      ctx.subject = { resource: r.name };
      if (titled) {
        extra.push(titled);
        continue;
      }
    }
    // "`allowedActions`: object keyed by user id; value is ..." makes the resource a map. So does "`allowedActions` is
    // an object keyed by user id. Each value is an object of booleans with these keys:" and the keys' paragraph.
    let words = collapse(t.text);
    if (keysFollow) {
      words = `${keysFollow} ${words}`;
      keysFollow = null;
    }
    // A developer's shorthand of the same: "`allowedActions` = obj keyed by user id → value = obj of bools, keys:".
    words = words
      .replace(/^(`[A-Za-z_]\w*`) = obj(?:ect)? keyed by /, "$1 is an object keyed by ")
      .replace(/\s*(?:→|->|;)\s*value = obj(?:ect)? of bools?(?:eans)?,? (?:with )?(?:these )?keys:?/, ". Each value is an object of booleans with these keys:");
    const spelled = KEYED_SENTENCES.exec(words);
    if (spelled) {
      words = `\`${spelled[1]}\`: ${spelled[2]}; value is an object of booleans with keys ${spelled[3] ?? ""}`.trim();
      if (!spelled[3]) {
        keysFollow = words;
        continue;
      }
    }
    const keyed = /^`([A-Za-z_]\w*)`:\s*(.*)$/.exec(words);
    if (keyed) {
      const type = readKeyedObject((keyed[2] ?? "").replace(/\.$/, ""));
      if (type) {
        if (type.kind === "object" && type.additional?.kind === "object") type.additional = { ...type.additional, name: `${r.name}Value` };
        r.type = type;
        r.description = words;
        if (type.kind === "object" && type.additional?.kind === "object") fillFieldSources(type.additional.members, sourceOf(ctx, t));
        continue;
      }
    }
    // "**Returned by:** …" reads as "Returned by: …"; a later "In 3.0, `x` uses the key `item`" belongs to it.
    const unbold = t.text.startsWith("**") ? { text: t.text.replace(/^\*\*([^*]+)\*\*/, "  $1  "), start: t.start } : t;
    const whole = collapse(unbold.text);
    const wholeReturned = unbold !== t && /^Returned by:?\s*`/.test(whole) ? readReturnedBy(whole, sourceOf(ctx, unbold)) : null;
    if (wholeReturned) {
      addLinks(r, wholeReturned);
      r.notes.push(statement(ctx, unbold));
      continue;
    }
    for (const sentence of sentences(unbold)) {
      const s = collapse(sentence.text);
      // "Item of the `m` result." / "Item of: `m`": the resource is an item of that method's result.
      const itemOf = /^Item of:?\s*(?:the\s+)?`([^`]+)`(?:\s+result)?\.?(?:\s*Fields:?)?$/i.exec(s);
      if (itemOf) {
        addLinks(r, [{ method: itemOf[1] ?? "", version: null, key: null, many: true, source: sourceOf(ctx, sentence) }]);
        r.notes.push(statement(ctx, sentence));
        listFollows = /\bFields:?$/i.test(s);
        continue;
      }
      if (/^(?:the )?fields(?: are)?\s*:$/i.test(s)) {
        listFollows = true;
        r.notes.push(statement(ctx, sentence));
        continue;
      }
      // "Fields: ID, NAME, …" (or the list after "Fields:"): the resource's fields, as a resource bullet's.
      if (listFollows || /^(?:the )?fields(?: are)?\s*:?\s+[`A-Z_]/i.test(s)) {
        listFollows = false;
        readResourceBody(ctx, r, sentence);
        continue;
      }
      // "Returned by `m`: an object of localized strings with the keys …": the link, then the resource's shape.
      const shaped = /^((?:The [\w ]+? (?:is|are) )?[Rr]eturned by:?\s*`[^`]+`)\s*:\s*(\S.*)$/.exec(s);
      if (shaped) {
        const links = readReturnedBy(shaped[1] ?? "", sourceOf(ctx, sentence));
        const colon = sentence.text.indexOf(":", sentence.text.indexOf("`", sentence.text.indexOf("`") + 1));
        if (links && colon > 0) {
          addLinks(r, links);
          readResourceBody(ctx, r, trimText(sliceText(sentence, colon + 1)));
          continue;
        }
      }
      // "The result of adding an external line is an object with `ID` (integer)."
      if (/^(?:the )?result of \w+ing\b.* is an object (?:with|containing) /i.test(s)) {
        readResourceBody(ctx, r, sentence);
        continue;
      }
      if (nullableByPrefix(r, s)) {
        r.notes.push(statement(ctx, sentence));
        continue;
      }
      // "See [Set Calendar Settings calendar.user.settings.set](#…) under Methods.": the resource is that method's object parameter.
      const pointer = SEE_METHOD.exec(s);
      if (pointer && r.type.kind === "object" && r.type.members.length === 0) {
        r.type = { kind: "unresolved", by: "see", text: pointer[1] ?? pointer[2] ?? "" };
        r.notes.push(statement(ctx, sentence));
        continue;
      }
      // "Fields CODE, HANDLER, NAME, DESCRIPTION. See [… messageservice.sender.update](#…) under Methods.": the fields
      // listed are that method's parameters, as "CODE, …; see Endpoints" says.
      if ((pointer || SEE_PARAMS.test(s)) && r.type.kind === "object" && !r.fieldsAreParams && r.type.members.length > 0 && r.type.members.every((f) => f.type.kind === "unknown")) {
        r.fieldsAreParams = true;
        r.notes.push(statement(ctx, sentence));
        continue;
      }
      // "Each entry of `QUESTIONS` has: `ID`, `ACTIVE`, … and `ANSWERS` (keyed by answer id).": the values of the
      // member `QUESTIONS`, a map the table keyed, have these fields.
      const entries = /^Each (?:entry|value|item|element) of `([A-Za-z_]\w*)` has:?\s+(.+)$/.exec(s);
      const holder = entries && r.type.kind === "object" ? r.type.members.find((f) => f.name === entries[1]) : undefined;
      if (entries && holder && holder.type.kind === "object" && holder.type.members.length === 0 && (!holder.type.additional || holder.type.additional.kind === "unknown")) {
        const has = /\bhas:?\s+/.exec(sentence.text);
        const at = trimText(sliceText(sentence, has ? has.index + has[0].length : 0));
        const list = readFieldList(at.text, rules, undefined, at, ctx).fields;
        holder.type = { ...holder.type, additional: { kind: "object", members: list } };
        r.notes.push(statement(ctx, sentence));
        continue;
      }
      const returned = readReturnedBy(s, sourceOf(ctx, sentence)) ?? readVersionKey(s, sourceOf(ctx, sentence));
      if (returned) {
        addLinks(r, returned);
        r.notes.push(statement(ctx, sentence));
        continue;
      }
      const typing = readTypingRules(s);
      if (typing) {
        rules = mergeRules(rules, typing);
        r.typingRules.push(statement(ctx, sentence));
        continue;
      }
      if (readGapSentence(ctx, sentence, [`resource:${r.name}`])) continue;
      r.notes.push(statement(ctx, sentence));
    }
  }
  // A table whose one row is the resource's own member (`allowedActions` of "Allowed actions") describes that
  // member's value: the resource is it, as "`allowedActions`: object keyed by …" says.
  const only = r.type.kind === "object" && r.type.members.length === 1 ? r.type.members[0] : undefined;
  if (only && only.name.toLowerCase() === r.name.toLowerCase() && only.type.kind === "object") {
    const type = only.type;
    if (type.additional?.kind === "object") {
      type.additional = { ...type.additional, name: `${r.name}Value` };
      fillFieldSources(type.additional.members, only.source);
    }
    r.type = type;
    r.description = collapse(`\`${only.name}\`: ${only.description}`);
  }
  ctx.subject = undefined;
  return [r, ...extra];
}

/**
 * A bullet that is a list of the resource's fields: "ID, SITE_ID, ACTIVE (Y/N), SORT — all of these are strings." or
 * "SMTP_SERVER, SMTP_PORT, UPLOAD_OUTGOING (Y/N)." Every item must be a field name (with its annotation); the words
 * "— all of these are strings" type the names that have none, as "(all strings)" does. False when it is no such list.
 */
function readFieldListBullet(ctx: ReadContext, r: Resource, t: Text, rules: TypingRules | null): boolean {
  const all = /\s+[—–-]\s+all (?:of )?(?:these |them )?(?:are )?(strings|integers|booleans|numbers)\.?$/i.exec(t.text);
  const list = all ? sliceText(t, 0, all.index) : t;
  const words = list.text.replace(/\.\s*$/, "");
  // Names in capitals or camelCase, each with an optional parenthesis, and nothing else.
  if (!/^[A-Za-z_][\w.]*(?:\s*\([^()]*\))?(?:\s*,\s*[A-Za-z_][\w.]*(?:\s*\([^()]*\))?)+$/.test(words)) return false;
  const read = readFieldList(words, rules, undefined, { text: words, start: list.start }, ctx);
  if (read.fields.length === 0) return false;
  const word = all ? readTypePhrase(all[1] ?? "")?.type : undefined;
  if (word) for (const f of read.fields) if (f.type.kind === "unknown") f.type = word;
  pushAll(members(r), read.fields);
  return true;
}

/** Where the method reference is, in an author's words: "in Endpoints", "under Methods", "in the method reference". */
const REFERENCE_PLACE = String.raw`(?:in|under) (?:Endpoints|Methods|the method reference|the reference)`;
/** "see `m` in Endpoints" (also a link to the method's heading): the resource is that method's object parameter. */
const SEE_METHOD = new RegExp(String.raw`^see (?:\x60([^\x60]+)\x60|\[[^\]]*?\b([a-z][\w]*(?:\.[\w]+)+)\]\([^)]*\)) ${REFERENCE_PLACE}\.?$`, "i");
/** "see Endpoints" after a field list (or "see `m` in the method reference"): the fields are a method's parameters. */
const SEE_PARAMS = new RegExp(String.raw`^see (?:Endpoints|(?:\x60[^\x60]+\x60 |\[[^\]]*\]\([^)]*\) )?${REFERENCE_PLACE})\.?$`, "i");

/**
 * "Other resources": one bullet a resource, or one paragraph a resource that opens with its title in bold
 * (`**Pay system item** (\`sale.paysystem.list\`) — fields: ID, NAME`), whose fields may follow as a table.
 */
export function readOtherResources(ctx: ReadContext, section: Section): Resource[] {
  const out: Resource[] = [];
  /** The resource of the last bold-titled paragraph: a table right after it holds its fields. */
  let open: Resource | null = null;
  /** The resource whose table was the last block: a sentence after it may still speak of its fields. */
  let tabled: Resource | null = null;
  for (const block of section.blocks) {
    if (block.type === "list") {
      open = null;
      for (const item of block.children) {
        const t = listItemText(ctx.file, item);
        // "- **Calendar user settings** — see `m` in the method reference": a bold title, read as a titled paragraph.
        const r = /^\*\*[^*]+\*\*(?!\s*:)/.test(t.text) ? readTitledParagraph(ctx, t) : readResourceBullet(ctx, t);
        if (r) out.push(r);
      }
      continue;
    }
    const t = textOf(ctx.file, block);
    if (block.type === "table" && open) {
      ctx.subject = { resource: open.name };
      pushAll(members(open), readFieldTable(ctx, block, null));
      ctx.subject = undefined;
      tabled = open;
      open = null;
      continue;
    }
    const titled = block.type === "paragraph" ? readTitledParagraph(ctx, t) : null;
    if (titled) {
      out.push(titled);
      open = titled;
      tabled = null;
      continue;
    }
    open = null;
    // "SMTP fields may be null when unset." right after a resource's table, one sentence: as in the resource's own section.
    if (block.type === "paragraph" && tabled && /^[^.]*\.?$/.test(collapse(t.text)) && nullableByPrefix(tabled, collapse(t.text))) {
      tabled.notes.push(statement(ctx, t));
      continue;
    }
    tabled = null;
    report(ctx, "unread-text", spanOfText(ctx, t), { what: block.type, text: collapse(t.text).slice(0, 80) });
  }
  return out;
}

/**
 * A paragraph that opens with a resource's title in bold and its parentheses: `**Title** (\`m\` item)`, then its
 * fields after a colon or a dash (read as a resource bullet's), or sentences after a full stop (its notes).
 */
function readTitledParagraph(ctx: ReadContext, t: Text): Resource | null {
  const bold = /^\*\*([^*]+?):?\*\*/.exec(t.text);
  // A bold label of a note is no resource's title: the paragraph stays unread, with its warning.
  if (!bold || /^(?:notes?|warnings?|important|tip|info|not shown|see also|examples?)$/i.test((bold[1] ?? "").trim())) return null;
  let end = bold[0].length;
  let title = bold[1] ?? "";
  // The parentheses after the bold title belong to it: "(`user.current`)", "(`placement.get` item; camelCase)".
  for (;;) {
    const space = /^\s*/.exec(t.text.slice(end))?.[0].length ?? 0;
    if (t.text[end + space] !== "(") break;
    const group = balancedParenGroup(t.text, end + space);
    if (!group) break;
    title = `${title} ${t.text.slice(end + space, group.end)}`;
    end = group.end;
  }
  const r = titledResource(ctx, collapse(title), t);
  ctx.subject = { resource: r.name };
  const after = trimText(sliceText(t, end));
  const sep = /^(?::|—|–|→|-(?=\s))\s*/.exec(after.text);
  if (sep) {
    const body = trimText(sliceText(after, sep[0].length));
    if (body.text) readResourceBody(ctx, r, body);
  } else {
    const notes = trimText(sliceText(after, /^\.\s*/.exec(after.text)?.[0].length ?? 0));
    for (const sentence of sentences(notes)) {
      if (readGapSentence(ctx, sentence, [`resource:${r.name}`])) continue;
      r.notes.push(statement(ctx, sentence));
    }
  }
  ctx.subject = undefined;
  return r;
}

function titleEnd(s: string): number {
  let depth = 0;
  let inCode = false;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "`") inCode = !inCode;
    if (inCode) continue;
    if (s[i] === "(") depth++;
    else if (s[i] === ")") depth--;
    else if (s[i] === ":" && depth === 0) return i;
  }
  return -1;
}

/**
 * "Title (`method` item; notes): fields. Sentences." / "Title: see `method` in Endpoints." /
 * "External line: result of add is an object with `ID` (integer)."
 */
export function readResourceBullet(ctx: ReadContext, t: Text): Resource | null {
  const colon = titleEnd(t.text);
  if (colon < 0) {
    report(ctx, "unread-text", spanOfText(ctx, t), { what: "resource bullet", text: collapse(t.text).slice(0, 80) });
    return null;
  }
  const title = collapse(t.text.slice(0, colon));
  const r = titledResource(ctx, title, t);
  readResourceBody(ctx, r, trimText(sliceText(t, colon + 1)));
  return r;
}

/**
 * What a resource bullet says after its title, read into `r`: a field list ("ID, NAME (strings)"), "object of
 * localized strings with keys …", "result of add is an object with `ID` (integer)", "see `m` in Endpoints", and
 * sentences of the field properties. Another author's lead-in words come off first: "Fields:", "obj of localized
 * strs, keys:", "an object of … with the keys …".
 */
export function readResourceBody(ctx: ReadContext, r: Resource, written: Text): void {
  const lead = /^(?:(?:the )?fields(?: are)?\s*:?\s+|—\s*|-\s+)/i.exec(written.text);
  const body = lead ? trimText(sliceText(written, lead[0].length)) : written;
  const [first, ...rest] = sentences(body);
  if (!first) return;
  const s = collapse(first.text)
    .replace(/^an? /, "")
    .replace(/^obj of (?:localized )?strs,? keys:?/, "object of localized strings with keys")
    // A developer's "add result = obj w/ `ID` (int)": "the result of adding is an object with …".
    .replace(/^([a-z]+) result\s*=\s*obj(?:ect)?\s+(?:w\/|with)\s+/, "result of $1ing is an object with ")
    .replace(/ with the keys:? /, " with keys ")
    // "keyed by `ID`, `SITE_ID`": a list of the keys themselves, not what the keys are.
    .replace(/^(object of [a-z ]*?(?:strings|integers|numbers|booleans)) keyed by (?=`[^`]+`\s*,\s*`)/, "$1 with keys ");
  const see = SEE_METHOD.exec(s);
  const typedKeys = /^object of ([a-z ]*?)(strings|integers|numbers|booleans) with keys (.*)$/.exec(s);
  if (typedKeys) {
    const word = readTypePhrase(typedKeys[2] ?? "")?.type ?? UNKNOWN;
    r.type = keysObject(typedKeys[3] ?? "", word);
    fillFieldSources(members(r), sourceOf(ctx, first));
    r.description = collapse(first.text);
    for (const f of members(r)) f.required = true;
    for (const sentence of rest) r.notes.push(statement(ctx, sentence));
    return;
  }
  // "The result of adding an external line is an object with `ID` (integer)"; also "of adding a line
  // (`telephony.externalLine.add`)", which names the method, and "an object containing".
  const resultOf = /^(?:the )?result of (\w+?)(?:ing)?(?: an? [\w ]+?)?(?: \(`([a-z][\w.]*)`\))? is an object (?:with|containing) (.*)$/i.exec(s);
  if (see) {
    r.notes.push(statement(ctx, first));
    r.type = { kind: "unresolved", by: "see", text: see[1] ?? see[2] ?? "" };
  } else if (resultOf) {
    r.notes.push(statement(ctx, first));
    if (resultOf[2]) r.returnedBy.push(resultOf[2]);
    else r.returnedByVerb = resultOf[1] ?? "";
    // Words first, spaces after them: a pattern that opens with spaces would rescan a long run of them at each place.
    const joint = /\bis\s+an\s+object\s+(?:with|containing)\s+|=\s*obj(?:ect)?\s+(?:w\/|with)\s+/.exec(first.text);
    const listAt = joint ? joint.index + joint[0].length : first.text.length;
    pushAll(members(r), readFieldList(resultOf[3] ?? "", null, undefined, trimText(sliceText(first, listAt)), ctx).fields);
  } else {
    // "CODE, HANDLER, NAME, DESCRIPTION; see Endpoints" keeps the pointer as a note; so does "… → see Endpoints".
    // The arrow first, then the spaces around it: a pattern that starts with spaces would rescan a long run of them.
    const arrow = /(?:→|->|—)[ \t\n]*(?=see\b)/i.exec(first.text);
    const parts = splitTop(first, (x, i) => (x[i] === ";" ? 1 : 0));
    const [list, ...tail] = arrow && parts.length === 1 ? [trimText({ text: first.text.slice(0, arrow.index), start: first.start }), trimText(sliceText(first, arrow.index + arrow[0].length))] : parts;
    if (list) pushAll(members(r), readFieldList(list.text, null, undefined, list, ctx).fields);
    for (const x of tail) {
      r.notes.push(statement(ctx, x));
      if (SEE_PARAMS.test(collapse(x.text))) {
        r.type = { kind: "object", members: members(r) };
        r.fieldsAreParams = true;
      }
    }
  }
  for (const sentence of rest) {
    const x = collapse(sentence.text);
    nullableByPrefix(r, x);
    if (/\bdepends on\b/.test(x)) for (const f of members(r)) f.required = false;
    if (readGapSentence(ctx, sentence, [`resource:${r.name}`])) continue;
    r.notes.push(statement(ctx, sentence));
  }
}
