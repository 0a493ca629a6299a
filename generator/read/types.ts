import type { DefaultValue, Field, Primitive, TypeRef } from "../model/types.js";
import { nearest } from "../util/distance.js";

/**
 * Reads the type phrases of the spec (see spec-source/README.md#types):
 *
 *     integer · strings · string or null · integer or array of integers · array of integers
 *     string `Y` or `N` · string `online` (default) or `offline` · ISO 8601 · Base64 · string URL
 *     object of language code to string · object keyed by user id · date-time
 *
 * Hand-written: the phrases are English fragments of this dialect, not a grammar any parser library knows.
 */

const TYPE_WORD =
  /^(integers?|ints?|numbers?|num|float|strings?|strs?|booleans?|bools?|objects?|objs?|arrays?|arrs?|null|date-time|datetime|ISO 8601|Base64|URL)(\[\])?(?![A-Za-z0-9_-])/i;

/**
 * Short forms a developer writes for the type words (spec-source/README.md#types: documented synonyms, read as the
 * word they name, decisions.md D31); `X[]` is an array of X.
 */
const ABBREVIATIONS: Readonly<Record<string, string>> = { int: "integer", num: "number", float: "number", str: "string", bool: "boolean", obj: "object", arr: "array", datetime: "date-time" };

export interface TypePhrase {
  type: TypeRef;
  nullable: boolean;
  /** Characters of the input the phrase took. */
  length: number;
  default?: DefaultValue;
}

function primitive(type: Primitive, extra: Partial<Extract<TypeRef, { kind: "primitive" }>> = {}): TypeRef {
  return { kind: "primitive", type, ...extra };
}

export const UNKNOWN: TypeRef = { kind: "unknown" };

function wordType(word: string): TypeRef | "null" {
  const bare = word.toLowerCase().replace(/s$/, "");
  const w = ABBREVIATIONS[bare] ?? bare;
  switch (w) {
    case "integer":
      return primitive("integer");
    case "number":
      return primitive("number");
    case "string":
      return primitive("string");
    case "boolean":
      return primitive("boolean");
    case "object":
      return { kind: "object", members: [] };
    case "array":
      return { kind: "array", items: UNKNOWN };
    case "null":
      return "null";
    case "date-time":
    case "iso 8601":
      return primitive("string", { format: "date-time" });
    case "base64":
      return primitive("string", { format: "byte" });
    case "url":
      return primitive("string", { format: "uri" });
    default:
      throw new Error(`unreachable type word ${word}`);
  }
}

/**
 * A string whose whole meaning is a format word: `| handler | string | URL |`, `| signed_date | string | ISO 8601 |`
 * say what the bullet's "string URL" and "ISO 8601 string" say. Only the whole meaning: "URL with the scheme `http`"
 * is words about a URL, and stays words.
 */
export function formatOnly(type: TypeRef, meaning: string): TypeRef | null {
  if (type.kind !== "primitive" || type.type !== "string" || type.format || type.enum) return null;
  const m = /^(?:an? )?(URL|ISO 8601|Base64)\.?$/i.exec(meaning.trim());
  if (!m) return null;
  const t = wordType((m[1] ?? "").toLowerCase());
  return t === "null" ? null : t;
}

/** Converts a backtick literal to the value of the given primitive type. */
export function literalFor(type: TypeRef, raw: string): string | number | boolean {
  if (type.kind === "primitive") {
    if ((type.type === "integer" || type.type === "number") && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
    if (type.type === "boolean" && (raw === "true" || raw === "false")) return raw === "true";
  }
  return raw;
}

/** `` `a` or `b` ``, `` `a` (default) or `b` ``, `` `a`, `b`, `c` ``, `` `a`/`b` `` right at the start of `s`. */
export function readEnumValues(s: string): { values: string[]; defaultValue?: string; length: number; noted?: boolean } | null {
  // A value may carry a note before the next one: "`CONTACT`, `LEAD` (only an active lead) or `COMPANY`".
  const re = /^`([^`]+)`(\s*\(default\))?(?:\s*(\((?!default\))[^()]*\))(?=\s*(?:,|or\s+`|\/)))?(\s*(?:,\s*or\s+|,\s*|\s+or\s+|\s*\/\s*))?/;
  const values: string[] = [];
  let defaultValue: string | undefined;
  let noted = false;
  let pos = 0;
  let lastGood = 0;
  for (;;) {
    const m = re.exec(s.slice(pos));
    if (!m) break;
    values.push(m[1] ?? "");
    if (m[2]) defaultValue = m[1];
    if (m[3]) noted = true;
    lastGood = pos + m[0].length - (m[4]?.length ?? 0);
    pos += m[0].length;
    if (!m[4]) break;
    // "`a`, `b` or `c`": the value after "or" is the last one ("`1` or `0`, `1` enable ..." is two lists).
    if (/\bor\s+$/.test(m[4])) {
      const last = re.exec(s.slice(pos));
      if (last) {
        values.push(last[1] ?? "");
        if (last[2]) defaultValue = last[1];
        if (last[3]) noted = true;
        lastGood = pos + last[0].length - (last[4]?.length ?? 0);
      }
      break;
    }
  }
  if (values.length < 2) return null;
  // With a note inside, the list's words say more than its values: the caller keeps them as the description.
  return { values, ...(defaultValue !== undefined ? { defaultValue } : {}), length: lastGood, ...(noted ? { noted } : {}) };
}

/** The values fit the type: numbers for an integer or number, `true`/`false` for a boolean. */
export function valuesFit(type: Extract<TypeRef, { kind: "primitive" }>, values: string[]): boolean {
  if (type.type === "integer") return values.every((v) => /^-?\d+$/.test(v));
  if (type.type === "number") return values.every((v) => /^-?\d+(\.\d+)?$/.test(v));
  if (type.type === "boolean") return values.every((v) => v === "true" || v === "false");
  return true;
}

/** One alternative of a type phrase; null when `s` does not start with a type word. */
function readAlternative(s: string): { type: TypeRef; nullable: boolean; length: number; default?: DefaultValue } | null {
  let m = /^(?:array|list)\s+of\s+/i.exec(s);
  if (m) {
    const rest = s.slice(m[0].length);
    const inner = readAlternative(rest);
    if (inner && /^(?:[\s;,.()]|$)/.test(rest.slice(inner.length))) {
      return { type: { kind: "array", items: inner.type }, nullable: false, length: m[0].length + inner.length };
    }
    // "array of user ids": the items are named, not typed.
    const noun = /^[^;,.()`]*/.exec(rest)?.[0] ?? "";
    const items: TypeRef = noun.trim() ? { kind: "unknown", note: noun.trim() } : UNKNOWN;
    return { type: { kind: "array", items }, nullable: false, length: m[0].length + noun.trimEnd().length };
  }
  // "object of language code to string", "object mapping language code to string", a developer's "obj lang code → str".
  m = /^(?:object|obj) (?:of|mapping)\s+([^;,.()`→]+?)\s+(?:to|→)\s+/i.exec(s) ?? /^(?:object|obj)\s+([^;,.()`→]+?)\s*→\s*/i.exec(s);
  if (m) {
    const value = readAlternative(s.slice(m[0].length));
    if (value) {
      return {
        type: { kind: "object", members: [], additional: value.type, keyDescription: (m[1] ?? "").trim() },
        nullable: false,
        length: m[0].length + value.length,
      };
    }
  }
  m = TYPE_WORD.exec(s);
  if (!m) return null;
  const word = m[1] ?? "";
  const base = wordType(word);
  if (base === "null") return { type: { kind: "null" }, nullable: true, length: m[0].length };
  if (m[2]) return { type: { kind: "array", items: base }, nullable: false, length: m[0].length };
  let type = base;
  let length = m[0].length;
  // "string URL": a format word after a primitive.
  const fmt = /^\s+(URL|ISO 8601|Base64)(?![A-Za-z0-9_])/.exec(s.slice(length));
  if (fmt && type.kind === "primitive" && type.type === "string") {
    const f = wordType(fmt[1] ?? "");
    if (f !== "null") type = f;
    length += fmt[0].length;
  }
  // "string `Y` or `N`": allowed values right after the type word.
  const gap = /^\s+/.exec(s.slice(length))?.[0] ?? "";
  const listed = type.kind === "primitive" ? readEnumValues(s.slice(length + gap.length)) : null;
  // "integer `on` or `off`": values that do not fit the type are left to the meaning, which warns.
  const values = listed && type.kind === "primitive" && valuesFit(type, listed.values) ? listed : null;
  let def: DefaultValue | undefined;
  if (values && type.kind === "primitive") {
    const t = type;
    type = { ...t, enum: values.values.map((v) => literalFor(t, v)) };
    if (values.defaultValue !== undefined) def = { value: literalFor(t, values.defaultValue), text: values.defaultValue };
    length += gap.length + values.length;
  }
  return { type, nullable: false, length, ...(def ? { default: def } : {}) };
}

/**
 * Reads a type phrase at the start of `s`: one alternative, or several joined by `or` and commas
 * ("object, array, boolean or integer"). Null when `s` does not start with a type word.
 */
export function readTypePhrase(s: string): TypePhrase | null {
  const first = readAlternative(s);
  if (!first) return null;
  const options: TypeRef[] = [];
  let nullable = first.nullable;
  let def = first.default;
  if (first.type.kind !== "null") options.push(first.type);
  let length = first.length;
  for (;;) {
    // "string or null", "string, or null", and a developer's "str / null".
    const sep = /^(\s*,\s*or\s+|\s*,\s*|\s+or\s+|\s*\/\s*)/.exec(s.slice(length));
    if (!sep) break;
    const after = s.slice(length + sep[0].length);
    // "string, URL with scheme ..." is a type and a description; "object, array, boolean or integer" is a union.
    if (/^\s*,\s*$/.test(sep[0]) && !/^(integers?|numbers?|strings?|booleans?|objects?|arrays?|null)\b[^;.]*\bor\b/i.test(after)) break;
    const next = readAlternative(after);
    if (!next) break;
    if (next.type.kind === "null") nullable = true;
    else options.push(next.type);
    def ??= next.default;
    length += sep[0].length + next.length;
  }
  const type: TypeRef =
    options.length === 0 ? UNKNOWN : options.length === 1 ? (options[0] ?? UNKNOWN) : { kind: "union", options };
  return { type, nullable, length, ...(def ? { default: def } : {}) };
}

/** The type words, as a near miss is compared with them (decisions.md D31). */
export const KNOWN_TYPE_WORDS = ["integer", "number", "string", "boolean", "object", "array", "null", "date-time", "base64", "url"] as const;

/**
 * The known type word a word is a near miss of (decisions.md D31): a word of 4 letters or more within two edits
 * (Damerau–Levenshtein) of one, compared in lower case and without a plural `s` (those are read as the word itself,
 * so they never reach here). Null when it is near none: then it is an unknown word, not a typo.
 */
export function nearTypeWord(word: string): string | null {
  const w = word.toLowerCase();
  if (w.length < 4) return null;
  return nearest(w.replace(/s$/, ""), KNOWN_TYPE_WORDS, 2) ?? nearest(w, KNOWN_TYPE_WORDS, 2);
}

/**
 * A word in the type position that is no type word: a single lowercase word right before punctuation or the end
 * ("integr." or "`x` strng;"). Longer phrases are descriptions ("id of a Disk file"), not type words.
 */
export function suspiciousTypeWord(s: string): string | null {
  const m = /^([a-z][a-z0-9-]*)(?=\s*(?:[.,;:]|$))/.exec(s.trim());
  return m ? (m[1] ?? null) : null;
}

/**
 * Defaults written in a description: ``default `Y` ``, `` `1` enable (default) ``, "Default: all fields",
 * "(default: the current user)".
 */
export function readDefault(description: string, type: TypeRef): DefaultValue | undefined {
  let m = /\bdefault:?\s+`([^`]+)`/i.exec(description);
  if (m) return { value: literalFor(type, m[1] ?? ""), text: m[1] ?? "" };
  m = /`([^`]+)`[^,;`]*\(default\)/.exec(description);
  if (m) return { value: literalFor(type, m[1] ?? ""), text: m[1] ?? "" };
  m = /\bdefault\s+(-?\d+(?:\.\d+)?)\b/i.exec(description);
  if (m) return { value: type.kind === "unknown" ? Number(m[1]) : literalFor(type, m[1] ?? ""), text: m[1] ?? "" };
  m = /\bdefault:\s*([^;.)]+)/i.exec(description);
  if (m) return { text: (m[1] ?? "").trim() };
  // "By default all fields except user fields are returned." (a `select`'s words): the fields, as "Default: …" gives
  // them. Only "all … fields": "By default the newest items are returned first" says an order, not a default value.
  m = /(?:^|[.;] )By default,? (all (?:[a-z]+ ){0,3}fields\b[^;.)]{0,120}?) (?:is|are) returned\b/.exec(description);
  if (m) return { text: (m[1] ?? "").trim() };
  return undefined;
}

export function field(partial: Omit<Field, "required" | "nullable"> & Partial<Pick<Field, "required" | "nullable">>): Field {
  return { required: false, nullable: false, ...partial };
}
