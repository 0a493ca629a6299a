import type { Table } from "mdast";
import type { DefaultValue, TypeRef } from "../model/types.js";
import { type Text, rowCells, sliceText, trimText } from "../parse/markdown.js";
import { type ReadContext, collapse, report, spanOfText } from "./inline.js";
import { type HeaderIndex, headerIndex } from "./tables.js";
import { literalFor, readDefault, readEnumValues, valuesFit } from "./types.js";
import { withoutParenGroups } from "../util/parens.js";

/**
 * The grammar of a field's facts after its name and type (spec-source/README.md#the-grammar-of-a-field): allowed
 * values, default, nullability. Every surface feeds it the same words: the rest of an inline clause or bullet
 * ("`mode` string `a` or `b`, default `a`"), the Meaning cell of a table row ("| mode | string | `a` or `b`, default
 * `a` |"), a member of an inline member list. A surface only decides where the words are; this module decides what
 * they say.
 *
 * Hand-written: the forms are English phrases of this dialect; no parser library knows them.
 */

export interface MeaningFacts {
  type: TypeRef;
  nullable: boolean;
  default?: DefaultValue;
  /** The meaning without a leading list of bare values (those are now the type's `enum`). */
  description: string;
}

/**
 * Allowed values at the start of a meaning, in any of the accepted forms:
 *
 *     `a`, `b`, `c` · `a` or `b` · `a`, `b` or `c` · `a`/`b` · `a` (default) or `b` · `1` enable (default), `0` disable
 *     (`min`, `hour`, `day`) · Y/N · CONTACT, LEAD (only an active lead) or COMPANY (bare upper-case values)
 */
export function readValues(meaning: string): { values: string[]; defaultValue?: string; rest: string | null } | null {
  const s = meaning.trim();
  const inParen = /^\((.*)\)$/.exec(s);
  const inner = inParen ? (inParen[1] ?? "").trim() : s;
  const listed = readEnumValues(inner);
  // A list with notes between its values is closed only where it ends the words ("`en` (English), `de` (German), and
  // any other language code" is an open list, its words kept).
  const closed = !listed?.noted || /^\s*(?:[.;]|$)/.test(inner.slice(listed.length));
  if (listed && closed && /^(?:$|[\s,;:.(]|[a-z])/.test(inner.slice(listed.length))) {
    // A list of bare values is a fact, not words: what follows it is the description ("`Y`/`N` hide ...").
    // With a note inside the list ("`LEAD` (only an active lead)"), the whole text stays the description.
    const rest = listed.noted ? inner : inner.slice(listed.length).replace(/^\s*[,;:.]?\s*/, "");
    return { values: listed.values, ...(listed.defaultValue !== undefined ? { defaultValue: listed.defaultValue } : {}), rest };
  }
  const bareFlag = /^Y\/N\b/.exec(inner);
  if (bareFlag) return { values: ["Y", "N"], rest: inner.slice(3).replace(/^\s*[,;:.]?\s*/, "") };
  // "`1` enable (default), `0` disable": every comma item of the first clause starts with a literal; the words
  // after each literal say what it means, so the whole text stays the description.
  const head = inner.split(/[;.]/)[0] ?? "";
  // "`1` — enable (default); `0` — disable": the items may be parted by semicolons, each opening with its literal.
  const bySemicolon = inner.replace(/\.$/, "").split(/\s*;\s*/).map((x) => x.trim()).filter(Boolean);
  const items = bySemicolon.length >= 2 && bySemicolon.every((x) => /^`[^`]{1,20}`\s+[—–-]\s+\S/.test(x)) ? bySemicolon : head.split(/,\s*(?:or\s+)?|\s+or\s+(?=`)/).map((x) => x.trim()).filter(Boolean);
  if (items.length >= 2 && items.every((x) => /^`[^`]+`/.test(x))) {
    const values = items.map((x) => /^`([^`]+)`/.exec(x)?.[1] ?? "");
    const def = items.find((x) => /\(default\)/.test(x));
    return { values, ...(def ? { defaultValue: /^`([^`]+)`/.exec(def)?.[1] ?? "" } : {}), rest: null };
  }
  const bare = readBareValues(head);
  return bare ? { values: bare, rest: null } : null;
}

/** "CONTACT, LEAD (only an active lead) or COMPANY" → the bare upper-case values, or null. */
export function readBareValues(text: string): string[] | null {
  const plain = text.replace(/\([^()]*\)/g, "").trim();
  const items = plain.split(/\s*,\s*|\s+or\s+/).map((x) => x.trim()).filter(Boolean);
  if (items.length < 2 || !items.every((x) => /^[A-Z][A-Z0-9_]*$/.test(x))) return null;
  return items;
}

/** "or null", "may be null", "null when unset": the field may hold null. "not null" is not. */
export function saysNullable(meaning: string): boolean {
  // "ID (integer), PHONE (strings or null)": a parenthesis speaks of members, not of the field.
  const own = withoutParenGroups(meaning);
  return /(?:^|[\s,;(])(?:or|may be|can be|else) null\b|^null\b|\bnull when\b/i.test(own) && !/\bnot null\b/i.test(own);
}

/**
 * Applies a meaning to a type: the values it lists (when the type has none yet), its default, whether it says null.
 * Values that do not fit the type are kept in the description only, with a warning that says so.
 */
export function readMeaning(ctx: ReadContext, type: TypeRef, meaning: string, at: Text | null, defaultFromType?: DefaultValue): MeaningFacts {
  let out = type;
  let def = defaultFromType;
  let description = meaning;
  if (type.kind === "primitive" && !type.enum) {
    const values = readValues(meaning);
    if (values && type.type !== "string" && !valuesFit(type, values.values)) {
      if (at) {
        report(ctx, "ambiguous-reading", spanOfText(ctx, at), {
          text: collapse(at.text).slice(0, 80),
          reading: `the type ${type.type}; the values ${values.values.join(", ")} do not fit it and stay in the description`,
        });
      }
    } else if (values) {
      out = { ...type, enum: values.values.map((v) => literalFor(type, v)) };
      if (values.rest !== null) description = values.rest;
      if (values.defaultValue !== undefined && !def) def = { value: literalFor(type, values.defaultValue), text: values.defaultValue };
    }
  } else if (type.kind === "primitive" && type.enum && at) {
    // Values in the type and other values in the meaning: the type's are read; the meaning's stay words.
    const values = readValues(meaning);
    const own = type.enum.map(String);
    if (values && values.values.join("\u0000") !== own.join("\u0000")) {
      report(ctx, "ambiguous-reading", spanOfText(ctx, at), {
        text: collapse(at.text).slice(0, 80),
        reading: `the values of the type (${own.join(", ")}); the values ${values.values.join(", ")} stay in the description`,
      });
    } else if (values && values.rest !== null) description = values.rest;
  }
  const said = readDefault(ownWords(meaning), out);
  if (def && said && at && said.value !== undefined && def.value !== undefined && said.value !== def.value) {
    // "`a` (default) or `b`, default `b`": two defaults; the one marked among the values is read.
    report(ctx, "ambiguous-reading", spanOfText(ctx, at), {
      text: collapse(at.text).slice(0, 80),
      reading: `the default ${JSON.stringify(def.value)} marked among the values; the default ${JSON.stringify(said.value)} stays in the description`,
    });
  }
  def ??= said;
  return { type: out, nullable: saysNullable(meaning), ...(def ? { default: def } : {}), description: collapse(description) };
}

/** A default inside a member's parenthesis ("member `minTimeout` (..., default 1)") is the member's, not ours. */
export function ownWords(description: string): string {
  return description.replace(/member `[^`]+`\s*\([^)]*\)/g, "");
}

/**
 * The columns of a field table, found by header synonyms so that a table may name and order them freely
 * (spec-source/README.md#tables). A header that is none of these is a warning naming the column; its text is kept
 * in the description, never read as a fact.
 */
export const COLUMN_SYNONYMS = {
  name: ["parameter", "param", "member", "field", "name", "key", "property", "attribute", "body param", "body parameter"],
  type: ["type", "data type", "value type", "type / values", "type / format", "type / notes", "type / meaning", "type and notes"],
  required: ["required", "mandatory", "req.", "required?", "req", "req?"],
  meaning: [
    "meaning",
    "description",
    "meaning / allowed values",
    "meaning and allowed values",
    "allowed values",
    "values",
    "notes",
    "note",
    "comment",
    "details",
    "values / notes",
    "allowed values / default",
  ],
  default: ["default", "default value"],
  // Where the value is sent (`| In | Name | Notes |`: `body`, `header`, `query`).
  location: ["in", "location", "sent in", "where"],
} as const;

export interface FieldColumns {
  name: number;
  type: number | null;
  required: number | null;
  /** Meaning-like columns in table order; their texts join into one description. */
  meaning: number[];
  default: number | null;
  /** Where each value is sent (`body`, `header`, `query`), when the table says. */
  location: number | null;
  /** The name column's header says each name cell carries the type on its next line (`**Name**<br>\`type\``). */
  typeInName?: boolean;
  /** Columns no synonym names: read into the description, after a warning. */
  other: number[];
  /** A Meaning-like column of allowed values (`Allowed values / default`): its values are read before the words. */
  values?: number;
}

/** The Meaning cells of a row in reading order: a values column's cell that opens with values comes first. */
export function meaningOrder(cols: FieldColumns, cells: readonly ({ text: string } | undefined)[]): number[] {
  const all = [...cols.meaning, ...cols.other];
  const v = cols.values;
  const cell = v === undefined ? undefined : cells[v];
  if (v === undefined || !cell || readValues(collapse(cell.text)) === null) return all;
  return [v, ...all.filter((i) => i !== v)];
}

const ROLES = Object.keys(COLUMN_SYNONYMS) as Array<keyof typeof COLUMN_SYNONYMS>;

function roleOf(header: string): keyof typeof COLUMN_SYNONYMS | null {
  // "Name<br>type": a name column whose cells carry the type on their second line (the platform's reference).
  const h = header.replace(/`/g, "").split(/<br\s*\/?>/i)[0]?.trim().toLowerCase() ?? "";
  for (const role of ROLES) if ((COLUMN_SYNONYMS[role] as readonly string[]).includes(h)) return role;
  return null;
}

/** Whether a table's header reads as a field table: its first column names the field. */
export function isFieldTable(ctx: ReadContext, table: Table): boolean {
  const header = table.children[0];
  if (!header) return false;
  const h = headerIndex(ctx, header);
  const first = roleOf(h.names[0] ?? "");
  return first === "name" || (first === "location" && roleOf(h.names[1] ?? "") === "name");
}

export function fieldColumns(ctx: ReadContext, table: Table): FieldColumns {
  const header = table.children[0];
  const h: HeaderIndex = header ? headerIndex(ctx, header) : { names: [], find: () => null };
  const cols: FieldColumns = { name: 0, type: null, required: null, meaning: [], default: null, location: null, other: [] };
  const cells = header ? rowCells(ctx.file, header, header.children.length) : [];
  let named = false;
  for (const [i, name] of h.names.entries()) {
    const role = roleOf(name);
    if (role === "name" && !named) {
      cols.name = i;
      named = true;
      if (/<br\s*\/?>\s*type\b/.test(name)) cols.typeInName = true;
    } else if (role === "type" && cols.type === null) cols.type = i;
    else if (role === "required" && cols.required === null) cols.required = i;
    else if (role === "default" && cols.default === null) cols.default = i;
    else if (role === "location" && cols.location === null) cols.location = i;
    else if (role === "meaning") {
      cols.meaning.push(i);
      if (cols.values === undefined && /^(?:allowed )?values\b/i.test(name.trim())) cols.values = i;
    }
    else {
      cols.other.push(i);
      const at = cells[i] ?? { text: name, start: 0 };
      report(ctx, "unknown-table-column", spanOfText(ctx, at), { header: collapse(at.text), known: ROLES.map((r) => COLUMN_SYNONYMS[r][0]).join(", ") });
    }
  }
  return cols;
}

/** A table's name cell, read the same way for parameters, members and resource fields. */
export interface NameCell {
  /** The name's own text (before a `<br>`), for positions and messages. */
  cell: Text;
  /** The name without its bold, backticks and star; null when the cell holds no single name. */
  name: string | null;
  /** A trailing `*` or `^*^`: the field is marked required. */
  starred: boolean;
  /** The type on the cell's second line, without its backticks, where the table has no Type column. */
  lineType: Text | null;
}

/**
 * The platform's reference writes `**name***<br>\`type\`` in one cell: the name (bold, a trailing `*` or `^*^` for
 * required), and the type on the cell's second line, read as a Type cell where the table has none. A plain
 * `name`, `` `name` `` or `**name**` is the same name with no type.
 */
export function readNameCell(whole: Text, hasTypeColumn: boolean): NameCell {
  const br = /<br\s*\/?>/i.exec(whole.text);
  const cell = br ? trimText(sliceText(whole, 0, br.index)) : whole;
  const line = br && !hasTypeColumn ? trimText(sliceText(whole, br.index + br[0].length)) : null;
  const m = /^(?:\*\*)?`?([A-Za-z_][A-Za-z0-9_.]*)`?(?:\*\*)?(\*|\^\*\^)?(?:\*\*)?$/.exec(cell.text);
  // "`array` of integers": the type word in backticks and its words after it, read as one phrase (the backticks
  // become spaces, so every offset stays where it is).
  // "`string` or `object`": type words each in backticks, parted by "or" (also the backticks become spaces).
  const words = line && /^`[a-z]+(?:\[\])?`(?:\s+(?:or|\|)\s+`[a-z]+(?:\[\])?`)+$/.test(line.text);
  const lineType =
    line && words
      ? trimText({ text: line.text.replace(/`/g, " "), start: line.start })
      : line && /^`[^`]*`$/.test(line.text)
        ? sliceText(line, 1, line.text.length - 1)
        : line && /^`[a-z]+`\s/.test(line.text)
          ? trimText({ text: line.text.replace(/^`([a-z]+)`/, " $1 "), start: line.start })
          : line;
  return { cell, name: m ? (m[1] ?? null) : null, starred: !!m?.[2], lineType };
}

/** A Required cell: `yes`, `required`, `*`, `true`, `Y`, `req`, a check mark. */
export function saysRequired(cell: string): boolean {
  return /^(yes|required|\*|true|y|mandatory|req|✓|✔)$/i.test(cell.replace(/\*\*/g, "").trim());
}

/** "obsolete, use attachRecord", "deprecated": the field is deprecated, in the spec's words. */
export function deprecationOf(description: string): { text: string } | undefined {
  return /\b(obsolete|deprecated)\b/i.test(description) ? { text: description } : undefined;
}

/** "extensions `wav`, `mp3`" (a developer's "exts `wav`, `mp3`"): the file extensions a file field accepts. */
export function extensionsOf(description: string): string[] | undefined {
  const m = /\b(?:extensions?|exts?\.?)\s+((?:`[^`]+`(?:,\s*|\s+or\s+|\s+and\s+)?)+)/i.exec(description);
  return m ? [...(m[1] ?? "").matchAll(/`([^`]+)`/g)].map((x) => x[1] ?? "") : undefined;
}

/** A Default cell: "`Y`", "Y", "1" (a literal of the field's type), or words ("the current user"). */
export function defaultFromCell(cell: string, type: TypeRef): DefaultValue {
  const literal = /^`([^`]+)`$/.exec(cell)?.[1] ?? (/^[\w.-]+$/.test(cell) ? cell : null);
  return literal !== null ? { value: literalFor(type, literal), text: literal } : { text: cell };
}
