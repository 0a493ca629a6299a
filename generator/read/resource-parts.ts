import type { Table } from "mdast";
import type { Field, Resource, ResourceLink, TypeRef } from "../model/types.js";
import { type Text, sliceText, trimText } from "../parse/markdown.js";
import { type ReadContext, addGap, collapse, notShownSubject, report, reportTypeWord, sourceOf, spanOfText } from "./inline.js";
import { readTitleLinks } from "./links.js";
import { pascal, tableRows } from "./tables.js";
import { defaultFromCell, fieldColumns, readMeaning, readNameCell } from "./facts.js";
import { UNKNOWN, field, formatOnly, readTypePhrase, suspiciousTypeWord } from "./types.js";
import { withoutTrailingParens } from "../util/parens.js";
import { pushAll } from "../util/arrays.js";
import { type TypingRules, annotationType, booleanObject, fillFieldSources, readFieldList, readKeyedObject } from "./field-lists.js";

/**
 * The parts of "Resources and their fields" that its section reader (read/resources.ts) and the bodies of titled
 * resources (read/resource-body.ts) both read: a resource and its links, field tables and group tables, shape and
 * group bullets, a field-list bullet, and a gap sentence ("Full field list: not shown").
 */

/**
 * "- **Identity:** `id`, `parentId`": a group of fields written as a labelled bullet (the group table's row in
 * another layout). The label is the group, as a Group cell is.
 */
export function readGroupBullet(ctx: ReadContext, r: Resource, t: Text, rules: TypingRules | null): boolean {
  const m = /^\*\*([A-Za-z][\w ,+-]*?):?\*\*:?\s*(?=`)/.exec(t.text);
  if (!m) return false;
  const list = sliceText(t, m[0].length);
  const read = readFieldList(list.text, rules, m[1]?.trim(), list, ctx);
  if (read.fields.length === 0) return false;
  pushAll(fieldsOf(ctx, r, t), read.fields);
  return true;
}

/** A resource's links, and the methods they name in `returnedBy` (once each; a per-version link repeats a name). */
export function addLinks(r: Resource, links: ResourceLink[]): void {
  pushAll(r.links, links);
  for (const l of links) if (!r.returnedBy.includes(l.method)) r.returnedBy.push(l.method);
}

/** A resource named by its title, with the links its title's parenthesis gives (`(\`m\` item; notes)`). */
export function titledResource(ctx: ReadContext, title: string, at: Text): Resource {
  const r = newResource(ctx, title, at);
  const fromTitle = readTitleLinks(title, r.source);
  addLinks(r, fromTitle.links);
  if (fromTitle.note) r.notes.push({ text: fromTitle.note, refs: [], source: r.source });
  return r;
}

export function newResource(ctx: ReadContext, title: string, at: Text): Resource {
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

export function members(r: Resource): Field[] {
  if (r.type.kind !== "object") throw new Error("resource type is not an object");
  return r.type.members;
}

/**
 * The fields of a resource, for a reader that adds more (a table, a group or shape bullet, a field list). A resource
 * whose first sentence made it something else ("see `m` in Endpoints", a pointer the model resolves) and that then
 * lists fields states both: the fields are read, the resource becomes their object, the pointer stays among its
 * notes, and the reading says so. A spec could make the reader throw here before (found by a mutated spec and the
 * second review: six layouts).
 */
export function fieldsOf(ctx: ReadContext, r: Resource, at: Text): Field[] {
  if (r.type.kind === "object") return r.type.members;
  report(ctx, "ambiguous-reading", spanOfText(ctx, at), {
    text: `${r.name}: ${collapse(at.text).slice(0, 60)}`,
    reading: "the fields it lists, as the resource's own; the pointer before them stays a note",
  });
  r.type = { kind: "object", members: [] };
  return r.type.members;
}

/**
 * `| Field | Type | Meaning |` tables (any header of the synonym lists, generator/read/facts.ts): the Type cell in the
 * resource forms (`Y/N`, "array of ids", keyed objects), the Meaning cells through the field grammar (values,
 * default, null).
 */
export function readFieldTable(ctx: ReadContext, table: Table, rules: TypingRules | null): Field[] {
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
export function nullableByPrefix(r: Resource, sentence: string): boolean {
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

export function readGroupTable(ctx: ReadContext, table: Table, rules: TypingRules | null): Field[] {
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
export function readShapeBullet(ctx: ReadContext, r: Resource, t: Text, rules: TypingRules | null): boolean {
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
  const ms = fieldsOf(ctx, r, t);
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

export function readGapSentence(ctx: ReadContext, t: Text, appliesTo: string[]): boolean {
  const s = collapse(t.text);
  const subject = notShownSubject(s);
  if (subject === null) return false;
  addGap(ctx, t, subject, appliesTo);
  return true;
}

/**
 * A bullet that is a list of the resource's fields: "ID, SITE_ID, ACTIVE (Y/N), SORT — all of these are strings." or
 * "SMTP_SERVER, SMTP_PORT, UPLOAD_OUTGOING (Y/N)." Every item must be a field name (with its annotation); the words
 * "— all of these are strings" type the names that have none, as "(all strings)" does. False when it is no such list.
 */
export function readFieldListBullet(ctx: ReadContext, r: Resource, t: Text, rules: TypingRules | null): boolean {
  const all = /\s+[—–-]\s+all (?:of )?(?:these |them )?(?:are )?(strings|integers|booleans|numbers)\.?$/i.exec(t.text);
  const list = all ? sliceText(t, 0, all.index) : t;
  const words = list.text.replace(/\.\s*$/, "");
  // Names in capitals or camelCase, each with an optional parenthesis, and nothing else.
  if (!/^[A-Za-z_][\w.]*(?:\s*\([^()]*\))?(?:\s*,\s*[A-Za-z_][\w.]*(?:\s*\([^()]*\))?)+$/.test(words)) return false;
  const read = readFieldList(words, rules, undefined, { text: words, start: list.start }, ctx);
  if (read.fields.length === 0) return false;
  const word = all ? readTypePhrase(all[1] ?? "")?.type : undefined;
  if (word) for (const f of read.fields) if (f.type.kind === "unknown") f.type = word;
  pushAll(fieldsOf(ctx, r, t), read.fields);
  return true;
}

/** Where the method reference is, in an author's words: "in Endpoints", "under Methods", "in the method reference". */
const REFERENCE_PLACE = String.raw`(?:in|under) (?:Endpoints|Methods|the method reference|the reference)`;

/** "see `m` in Endpoints" (also a link to the method's heading): the resource is that method's object parameter. */
export const SEE_METHOD = new RegExp(String.raw`^see (?:\x60([^\x60]+)\x60|\[[^\]]*?\b([a-z][\w]*(?:\.[\w]+)+)\]\([^)]*\)) ${REFERENCE_PLACE}\.?$`, "i");

/** "see Endpoints" after a field list (or "see `m` in the method reference"): the fields are a method's parameters. */
export const SEE_PARAMS = new RegExp(String.raw`^see (?:Endpoints|(?:\x60[^\x60]+\x60 |\[[^\]]*\]\([^)]*\) )?${REFERENCE_PLACE})\.?$`, "i");
