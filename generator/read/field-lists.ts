import type { Field, TypeRef } from "../model/types.js";
import type { Text } from "../parse/markdown.js";
import { type ReadContext, collapse, report, reportTypeWord, sourceOf, spanOfText, splitTop } from "./inline.js";
import { readBareValues } from "./facts.js";
import { UNKNOWN, field, readEnumValues, readTypePhrase, suspiciousTypeWord } from "./types.js";

/**
 * The field lists and typing rules of "Resources and their fields" (spec-source/README.md#resources,
 * #typing-rules): a comma list of names with annotations ("ID (string), NAME, LAST_LOGIN (ISO 8601)"), the keyed
 * objects ("object keyed by user id; value is …"), and the typing sentence that types the names a list leaves bare
 * ("Identifiers and counters are decimal strings; flags are strings `Y`/`N`"). read/resources.ts reads the sections.
 */

const FLAG: TypeRef = { kind: "primitive", type: "string", format: "yn", enum: ["Y", "N"] };
const STRING: TypeRef = { kind: "primitive", type: "string" };
const DECIMAL: TypeRef = { kind: "primitive", type: "string", format: "decimal" };
const DATE: TypeRef = { kind: "primitive", type: "string", format: "date-time" };

/** The typing sentence of a resource ("Identifiers and counters are decimal strings; flags ...; dates ... or null"). */
export interface TypingRules {
  identifiers: boolean;
  counters: boolean;
  flags: boolean;
  dates: boolean;
  datesNullable: boolean;
}

export function readTypingRules(written: string): TypingRules | null {
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
export function mergeRules(a: TypingRules | null, b: TypingRules): TypingRules {
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
export function annotationType(
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
export function keysObject(keys: string, type: TypeRef = { kind: "primitive", type: "boolean" }): TypeRef {
  const names = keys.split(/\s*,\s*|\s+and\s+/).map((k) => k.replace(/[`.]$/g, "").replace(/`/g, "").trim()).filter(Boolean);
  return {
    kind: "object",
    members: names.map((n) => field({ name: n, type, required: false, description: "", source: NO_SOURCE })),
  };
}

export const booleanObject = (keys: string) => keysObject(keys);

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

export interface FieldListResult {
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

export function fillFieldSources(fields: Field[], source: Field["source"]): void {
  for (const f of fields) {
    if (f.source.line === 0) f.source = source;
    const t = f.type;
    if (t.kind === "object") {
      fillFieldSources(t.members, source);
      if (t.additional?.kind === "object") fillFieldSources(t.additional.members, source);
    }
  }
}
