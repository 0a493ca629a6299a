import type { Field, TypeRef } from "../model/types.js";
import { type Text, sliceText, trimText } from "../parse/markdown.js";
import { type ReadContext, clauses, collapse, report, reportTypeWord, sentences, sourceOf, spanOfText, splitTop } from "./inline.js";
import { type FieldColumns, defaultFromCell, readNameCell, deprecationOf, extensionsOf, ownWords, meaningOrder, readMeaning, readValues, saysNullable, saysRequired } from "./facts.js";
import { UNKNOWN, field, formatOnly, literalFor, readDefault, readTypePhrase, suspiciousTypeWord } from "./types.js";
import { balancedParenGroup } from "../util/parens.js";
import { fillSources, objectDetails } from "./object-details.js";

/**
 * Reads parameter clauses (spec-source/README.md#parameters):
 *
 *     `taskId`* integer, the task id.
 *     `NAME`, `DESCRIPTION`, `KEYWORDS` (comma separated) strings.
 *     `status` integer, `1` enable (default), `0` disable.
 *     `CRM_AUTO_CREATE` string `Y` or `N`, default `Y` (auto-creates CRM objects on outgoing calls).
 *     `VISIBLE` (visibility in the list), `OPENED` (open for free joining)
 *
 * A clause is a parameter when it starts with one or more backticked identifiers (each may carry `*` and a
 * parenthesis) followed by a type phrase, punctuation, a parenthesis or a description, but not by a verb
 * ("`CHAT_ID` is returned by default" is a note).
 */

const NAME_ITEM = /^`([A-Za-z_][A-Za-z0-9_.]*)`(\*)?(\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\))?/;
const VERB_AFTER_NAME =
  /^(is|are|was|were|must|plus|means|holds|has|have|gives|returns|becomes|may|can|and|or|with|as|to|in|on|of|from)\b/;

interface NameItem {
  name: string;
  required: boolean;
  /** The text inside the name's parenthesis ("`ID` (integer)"), if any. */
  paren: Text | null;
  at: Text;
}

/** The backticked names at the start of a clause, or null when the clause does not start a parameter. */
export function readNameList(t: Text): { items: NameItem[]; rest: Text } | null {
  const items: NameItem[] = [];
  let pos = 0;
  const s = t.text;
  for (;;) {
    const m = NAME_ITEM.exec(s.slice(pos));
    if (!m) break;
    const open = m[3] ? pos + m[0].length - (m[4] ?? "").length - 1 : -1;
    const paren = m[3] ? sliceText(t, open, open + (m[4] ?? "").length) : null;
    items.push({ name: m[1] ?? "", required: m[2] === "*", paren, at: sliceText(t, pos, pos + m[0].length) });
    pos += m[0].length;
    const sep = /^(\s*,\s*|\s+and\s+)(?=`)/.exec(s.slice(pos));
    if (!sep) break;
    pos += sep[0].length;
  }
  if (items.length === 0) return null;
  // "`settings` — object, required": a dash between the name and its type parts them as a space does.
  const dash = /^\s+[—–]\s+/.exec(s.slice(pos));
  if (dash) pos += dash[0].length;
  const rest = trimText(sliceText(t, pos));
  if (VERB_AFTER_NAME.test(rest.text) || /^[a-z]+\s+(are|is)\b/.test(rest.text)) return null;
  return { items, rest };
}

/**
 * "`type` string (`min`, `hour`), `count` integer": a comma before a name and a type word starts a new parameter,
 * unless everything before it is names ("`PROJECT_DATE_START`, `PROJECT_DATE_FINISH` ISO 8601").
 */
function splitParamCommas(t: Text): Text[] {
  if (startsMemberList(t)) return [t];
  let from = 0;
  return splitTop(t, (s, i) => {
    if (s[i] !== "," && !(s[i] === " " && s.startsWith(" and `", i))) return 0;
    const m = /^(?:,\s*(?:and\s+)?|\s+and\s+)(?=`[A-Za-z_]\w*`\*?\s+(?:integers?|numbers?|strings?|booleans?|objects?|arrays?|ISO 8601|Base64|date-time)\b)/.exec(s.slice(i));
    if (!m) return 0;
    if (/^(\s*`[^`]+`\*?\s*(\([^()]*\))?\s*,?)*$/.test(s.slice(from, i))) return 0;
    from = i + m[0].length;
    return m[0].length;
  });
}

/** "(from `x`)" → "from `x`": a description that is one parenthesis loses it. */
function unwrap(s: string): string {
  const t = s.trim();
  const group = balancedParenGroup(t, 0);
  return group && group.end === t.length ? group.inner.trim() : s;
}

export interface ParamReadResult {
  params: Field[];
  /** Sentences of the text that are not parameters, for the caller to classify. */
  others: Text[];
}

/** The meaning a clause or a row adds after its type: a further cell's text, with its place for positions. */
interface Meaning {
  text: string;
  at: Text;
}

/**
 * Where an object's members are written (spec-source/README.md#members): "object: `a` string, `b` integer",
 * "object with `a` string and `b` integer", "object (members: `a` string, `b` integer)". The member list runs to the
 * end of its clause; a `;` or a new sentence ends it.
 */
function memberList(after: Text): { members: Text; rest: Text; bounded: boolean } | null {
  const intro = /^\s*(?::|(?:with|w\/)(?:\s+members?:?)?|,\s*members?:?|members?:)\s*(?=`[A-Za-z_])/.exec(after.text);
  if (intro) return { members: sliceText(after, intro[0].length), rest: sliceText(after, after.text.length), bounded: false };
  const paren = /^\s*\(members?:\s*/.exec(after.text);
  if (!paren) return null;
  const open = after.text.indexOf("(");
  const group = balancedParenGroup(after.text, open);
  if (!group) return null;
  return { members: trimText(sliceText(after, paren[0].length, group.end - 1)), rest: sliceText(after, group.end), bounded: true };
}

/** Whether a clause's names are followed by an object type whose member list runs to the end of the clause. */
function startsMemberList(t: Text): boolean {
  const names = readNameList(t);
  if (!names) return false;
  const rest = names.rest.text.replace(/^:\s*/, "");
  const tp = readTypePhrase(rest);
  if (!tp || tp.type.kind !== "object") return false;
  // A parenthesis ends its own list; a list after ':' or 'with' runs to the end of the clause.
  const list = memberList(sliceText(names.rest, names.rest.text.length - rest.length + tp.length));
  return list !== null && !list.bounded;
}

/** An object the words have not shaped: no members, no values. */
const bareObject = (t: TypeRef) => t.kind === "object" && t.members.length === 0 && !t.additional;

/**
 * Turns the rest of a parameter clause (after its names) into type, description, default and members. A table row
 * passes its Type cell as `rest` and its Meaning cells as `meaning`: both surfaces go through the same grammar.
 */
function readClauseRest(
  ctx: ReadContext,
  rest: Text,
  meaning: Meaning | null = null,
): { type: TypeRef; nullable: boolean; description: string; default?: Field["default"]; plural: boolean } {
  // "`taskId`: integer", and "`taskId`, integer" when a type follows the comma (else the comma starts the meaning).
  const colon = /^:\s*/.exec(rest.text)?.[0].length ?? 0;
  const comma = colon === 0 ? (/^,\s*/.exec(rest.text)?.[0].length ?? 0) : 0;
  const lead = comma > 0 && readTypePhrase(rest.text.slice(comma)) ? comma : colon;
  const t = sliceText(rest, lead);
  const s = t.text;
  const tp = readTypePhrase(s);
  const words = (after: string) => collapse([after.replace(/^\s*[,;:]?\s*/, ""), meaning?.text ?? ""].filter(Boolean).join("; "));
  if (!tp) {
    const word = suspiciousTypeWord(s);
    if (word) reportTypeWord(ctx, spanOfText(ctx, rest), word);
    // No type word, but the words say the encoding: "Avatar in Base64" is a Base64 string, as "Base64 avatar" is.
    const said = words(s);
    if (/^[^,;.()]{1,60} in Base64\.?$/i.test(said)) return { type: { kind: "primitive", type: "string", format: "byte" }, nullable: false, description: said, plural: false };
    return { type: UNKNOWN, nullable: false, description: said, plural: false };
  }
  let type = tp.type;
  let after = sliceText(t, tp.length);
  let members: Field[] | null = null;
  if (type.kind === "object") {
    const list = memberList(after) ?? (meaning && !after.text.trim() ? memberList(meaning.at) : null);
    if (list) {
      members = readParams(ctx, list.members).params;
      if (meaning && list.members.start >= meaning.at.start && list.members.start <= meaning.at.start + meaning.at.text.length) {
        meaning = list.rest.text.trim() ? { text: collapse(list.rest.text), at: list.rest } : null;
      } else after = list.rest;
    }
  }
  if (members && type.kind === "object") type = { ...type, members: [...type.members, ...members] };
  // "`o` object (more words):" introduces nested bullets or a table: the colon is no part of the description.
  const description = words(after.text).replace(/\s*:$/, "");
  // "integer, `1` enable (default), `0` disable" · "string (`min`, `hour`, `day`)" · a Meaning cell "`Y`/`N` hide".
  const facts = readMeaning(ctx, type, description, meaning?.at ?? (after.text.trim() ? after : rest), tp.default);
  type = facts.type;
  // "`string` or `object` | A string, or an object of language code to string": the words say what the bare object
  // of the union is, as the type phrase "string or object of language code to string" would.
  if (type.kind === "union" && type.options.some(bareObject)) {
    const phrase = /\b(object (?:of|mapping) [a-z ]{1,60}? to [a-z]+)\b/i.exec(facts.description);
    const said = phrase ? readTypePhrase(phrase[1] ?? "") : null;
    // The phrase read whole as that type, a map ("object of language code to string"), not the start of other words.
    if (said && said.type.kind === "object" && said.type.additional && said.length === (phrase?.[1] ?? "").length) {
      type = { ...type, options: type.options.map((o) => (bareObject(o) ? said.type : o)) };
    }
  }
  // A string whose whole meaning is "URL" (`| HANDLER | string | | URL |`) is the bullet's "string URL".
  const formatted = formatOnly(type, facts.description);
  if (formatted) type = formatted;
  const plural = /^(integers|numbers|strings|booleans|objects|arrays)\b/i.test(s);
  return {
    type,
    nullable: tp.nullable || facts.nullable,
    description: formatted ? "" : facts.description,
    ...(facts.default ? { default: facts.default } : {}),
    plural,
  };
}

/**
 * Reads the parameter clauses of a run of text (a bullet, a paragraph or the `Optional:` list). Clauses that
 * do not start a parameter continue the description of the last one when they name no other parameter, and are
 * returned in `others` otherwise.
 */
export function readParams(ctx: ReadContext, t: Text, options: { optional?: boolean } = {}): ParamReadResult {
  const params: Field[] = [];
  const others: Text[] = [];
  for (const sentence of sentences(t)) {
    let paramInSentence = false;
    for (const clause of clauses(sentence).flatMap(splitParamCommas)) {
      const names = /^at least one of\b/i.test(clause.text) ? null : readNameList(clause);
      if (!names) {
        const last = params[params.length - 1];
        const known = new Set(params.map((p) => p.name));
        const mentioned = [...clause.text.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "");
        const namesOther = mentioned.some((n) => known.has(n) && n !== last?.name);
        const continues =
          last &&
          !/\bat least one of\b/i.test(clause.text) &&
          !/^Parameters\b/.test(clause.text) &&
          (paramInSentence || !namesOther);
        if (last && continues) {
          last.description = collapse(`${last.description}${last.description ? "; " : ""}${clause.text}`);
          const def = last.default ?? readDefault(ownWords(clause.text), last.type);
          if (saysNullable(clause.text)) last.nullable = true;
          if (def) last.default = def;
        } else {
          others.push(clause);
        }
        continue;
      }
      paramInSentence = true;
      const restInfo = readClauseRest(ctx, names.rest);
      for (const [i, item] of names.items.entries()) {
        const isLast = i === names.items.length - 1;
        // "`ID` (integer)", "`view` (string `day` or `week`)": a parenthesis that starts with a type is the whole rest.
        const fromParen = item.paren && readTypePhrase(item.paren.text) ? readClauseRest(ctx, item.paren) : null;
        let type = restInfo.type;
        let nullable = restInfo.nullable;
        let description = isLast ? unwrap(restInfo.description) : "";
        let def = isLast ? restInfo.default : undefined;
        if (fromParen) {
          type = fromParen.type;
          nullable = fromParen.nullable;
          description = fromParen.description;
          def = fromParen.default;
        } else if (item.paren) {
          // "`VISIBLE` (`Y`, `N`)": values in the parenthesis; "`VISIBLE` (visibility in the list)": a description.
          const values = readValues(item.paren.text);
          if (values && type.kind === "primitive") {
            const t0 = type;
            type = { ...t0, enum: values.values.map((v) => literalFor(t0, v)) };
          } else description = collapse([item.paren.text, description].filter(Boolean).join("; "));
          description = unwrap(description);
        }
        // "`settings` — object, required": a last clause "required" is the star in words.
        const said = /(?:^|[,;]\s*)required\.?$/i.exec(description);
        if (said) description = description.slice(0, said.index).trim();
        const deprecated = deprecationOf(description);
        params.push(
          field({
            name: item.name,
            type: fillSources(type, sourceOf(ctx, item.at)),
            required: (item.required || !!said) && !options.optional,
            nullable,
            description,
            ...(def ? { default: def } : {}),
            ...(deprecated ? { deprecated } : {}),
            source: sourceOf(ctx, item.at),
          }),
        );
      }
    }
  }
  // An object's shape is told across its clauses ("object: key is the setting name; value is an object with ...").
  for (const p of params) {
    if (p.type.kind === "object") p.type = fillSources(objectDetails(p.type, p.description), p.source);
    const extensions = extensionsOf(p.description);
    if (extensions) p.fileExtensions = extensions;
  }
  return { params, others };
}

/**
 * A row of a field table (spec-source/README.md#tables): `| Parameter | Type | Required | Meaning |`,
 * `| Member | Type | Meaning / allowed values |`, or any headers of the synonym lists, in any order. The Type cell and
 * the Meaning cells go through the same grammar as an inline clause.
 */
export function paramFromRow(ctx: ReadContext, cols: FieldColumns, cells: Text[], others: Text[] = []): Field | null {
  const whole = cells[cols.name];
  if (!whole || !whole.text.trim()) return null;
  const { cell: nameCell, name, starred, lineType: bareType } = readNameCell(whole, cols.type !== null);
  if (name === null) {
    report(ctx, "unreadable-parameter", spanOfText(ctx, nameCell), { text: nameCell.text });
    return null;
  }
  const written = bareType ?? (cols.type === null ? null : (cells[cols.type] ?? null));
  // A dash alone (`—`, `–`, `-`) is an empty cell: no type is given.
  const typeCell = written && /^[—–-]$/.test(written.text.trim()) ? { text: "", start: written.start } : written;
  // The Meaning cells are read as the rest of a bullet: their sentences and clauses are the description, except the
  // ones that state something of the method ("at least one of `a`, `b` is required"), which go to `others`.
  const meaningCells: Text[] = [];
  for (const i of meaningOrder(cols, cells)) {
    const cell = cells[i];
    if (!cell || !cell.text.trim()) continue;
    for (const sentence of sentences(cell)) {
      for (const clause of clauses(sentence)) (/\bat least one of\b/i.test(clause.text) ? others : meaningCells).push(clause);
    }
  }
  const first = meaningCells[0];
  const meaning = first ? { text: collapse(meaningCells.map((c) => c.text).join("; ")), at: first } : null;
  const typeText = typeCell?.text ?? "";
  const typed = typeCell !== null && readTypePhrase(typeText) !== null;
  if (typeCell && typeText && !typed) {
    const word = suspiciousTypeWord(typeText) ?? (typeText.trim().includes(" ") ? null : typeText.trim());
    if (word) reportTypeWord(ctx, spanOfText(ctx, typeCell), word);
  }
  // A Type cell with no type in it ("id of a file") is words: they go before the Meaning cells.
  // A table that says where each value goes and has no Type column (`| In | Name | Notes |`) gives the type at the
  // start of Notes, as a bullet gives it after the name ("obj w/ `title`, `creatorId`").
  // So does a Type cell left as a dash or blank: "| `SITE_ID` | — | no | list of sites |" is "`SITE_ID` list of sites".
  const untyped =
    (cols.type === null && cols.location !== null) ||
    (cols.type !== null && typeCell !== null && typeCell.text.trim() === "") ||
    // `**Name**<br>\`type\`` with no type under a name: "| **PROJECT_DATE_START** | ISO 8601 |".
    (cols.type === null && cols.typeInName === true && bareType === null);
  // The type ends its clause, or opens a member list ("obj w/ …"): "object id of the element", "number of records"
  // are words about the value, not its type.
  const opening = untyped && first ? readTypePhrase(first.text) : null;
  const notesTyped = opening && first && /^\s*(?:$|[,;(.:]|with\b|w\/)/.test(first.text.slice(opening.length)) ? first : null;
  const rest = typed && typeCell ? typeCell : (notesTyped ?? { text: "", start: nameCell.start });
  const after = meaningCells[1];
  const restOfNotes = after ? { text: collapse(meaningCells.slice(1).map((c) => c.text).join("; ")), at: after } : null;
  const r = readClauseRest(ctx, rest, notesTyped ? restOfNotes : typeCell && !typed && typeText ? joinMeaning(typeCell, meaning) : meaning);
  let type = r.type;
  if (type.kind === "object") type = fillSources(objectDetails(type, r.description), sourceOf(ctx, nameCell));
  else type = fillSources(type, sourceOf(ctx, nameCell));
  const requiredCell = cols.required === null ? "" : (cells[cols.required]?.text ?? "");
  const defaultCell = cols.default === null ? "" : collapse(cells[cols.default]?.text ?? "");
  const def = defaultCell ? defaultFromCell(defaultCell, type) : r.default;
  const deprecated = deprecationOf(r.description);
  const extensions = extensionsOf(r.description);
  return field({
    name,
    type,
    required: starred || saysRequired(requiredCell),
    nullable: r.nullable,
    description: r.description,
    ...(def ? { default: def } : {}),
    ...(deprecated ? { deprecated } : {}),
    ...(extensions ? { fileExtensions: extensions } : {}),
    source: sourceOf(ctx, nameCell),
  });
}

/** A Type cell that holds no type ("id of a file") is description, before the Meaning cells. */
function joinMeaning(typeCell: Text, meaning: Meaning | null): Meaning {
  return { text: collapse([typeCell.text, meaning?.text ?? ""].filter(Boolean).join("; ")), at: typeCell };
}
