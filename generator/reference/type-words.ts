import type { TypeRef } from "../model/types.js";

/**
 * The reference's type words (api-reference/data-types.md, "Basic Data Types" and "How Compound Types Are Written"),
 * as the model's types. The readings follow that page's own definitions (spec-source/README-reference.md#types):
 *
 * - `boolean` "most often takes values `Y` or `N`; in some methods `0` or `1`, as well as `true` or `false`": all
 *   three are accepted, so that no documented value is refused;
 * - `char` is a string (usually `CHAR(1)`, `Y`/`N`); `date` a string `YYYY-MM-DD`; `datetime` an ISO 8601 string;
 *   `timestamp` "usually an integer" of seconds, read as a number;
 * - `file` "a numeric identifier or an array describing the file", `enum` with no values, `any`: unknown, with the
 *   page's words as the note, never a guess;
 * - `X[]` an array of X; `X | Y` (also `X \| Y`) one of them; `null` as one of them makes the value nullable.
 */

const YN: TypeRef = { kind: "primitive", type: "string", enum: ["Y", "N"] };
const ZERO_ONE: TypeRef = { kind: "primitive", type: "integer", enum: [0, 1] };

const BASIC: Record<string, TypeRef> = {
  integer: { kind: "primitive", type: "integer" },
  int: { kind: "primitive", type: "integer" },
  double: { kind: "primitive", type: "number" },
  float: { kind: "primitive", type: "number" },
  number: { kind: "primitive", type: "number" },
  decimal: { kind: "primitive", type: "number" },
  timestamp: { kind: "primitive", type: "number" },
  string: { kind: "primitive", type: "string" },
  text: { kind: "primitive", type: "string" },
  char: { kind: "primitive", type: "string" },
  date: { kind: "primitive", type: "string" },
  datetime: { kind: "primitive", type: "string", format: "date-time" },
  boolean: { kind: "union", options: [{ kind: "primitive", type: "boolean" }, YN, ZERO_ONE] },
  bool: { kind: "union", options: [{ kind: "primitive", type: "boolean" }, YN, ZERO_ONE] },
  object: { kind: "object", members: [], open: true },
  array: { kind: "array", items: { kind: "unknown" } },
  null: { kind: "null" },
  any: { kind: "unknown", note: "any type (data-types.md: any)" },
  mixed: { kind: "unknown", note: "any type (mixed)" },
  file: { kind: "unknown", note: "a file: its identifier, or an array describing it (data-types.md: file)" },
  enum: { kind: "unknown", note: "one value of a fixed set the page does not list (data-types.md: enum)" },
  // Not a word of data-types.md: the event pages type `FIELDS_BEFORE` `undefined|object` and say the field "will
  // contain the value `undefined`", which their examples show as the string "undefined" (on-task-add.md).
  undefined: { kind: "primitive", type: "string", enum: ["undefined"] },
};

/** The basic words, for "did you mean" (decisions.md D31). */
export const BASIC_WORDS: readonly string[] = Object.keys(BASIC);

/** The basic reading of a type word, or null when it is not one of data-types.md's basic words. */
export function basicType(word: string): TypeRef | null {
  const t = BASIC[word.toLowerCase()];
  return t ? structuredClone(t) : null;
}

/** A type cell's words and how they are joined: `` [`string`](…) \| [`null`](…) `` gives `["string", "null"]`. */
export interface TypeWords {
  /**
   * Each alternative: the word, whether it ends in `[]` (once per pair), the anchor it links to on the page or in the
   * type catalogue, and `page`, a link into another page of the folder (`../entities.md#user`), as written.
   */
  options: Array<{ word: string; arrays: number; link: string | null; page: string | null }>;
}

/**
 * Reads the type part of a name cell or a type cell: backticked words, linked or not, joined by `|` (escaped or
 * not), `or` or `,`. Words outside backticks are read only when the whole cell is one word (`integer`).
 */
export function readTypeWords(cell: string): TypeWords | null {
  const options: TypeWords["options"] = [];
  // `[`a`](link)` and `` `a` `` (also ```` ```a | b``` ```` spans): every backticked run, with the link after it.
  // A run of backticks opens only where it starts and closes only where it ends: the run taken whole, as CommonMark
  // reads code spans. Else a run of n backticks was tried from each of its places and at each length, n² steps (a
  // row of 200,000 backticks took 15 s).
  // A link's address is taken up to 500 characters (the reference's longest is under 100): unbounded, a cell of many
  // "`a`](" searched on to its end from each (review: 4.4 s at 200 KB).
  const re = /(\[)?(?<!`)(`+)(?!`)([^`]+?)\2(?!`)(?:\]\(([^)\s]{0,500})\))?/g;
  for (const m of cell.matchAll(re)) {
    const link = m[4] ?? null;
    // Split at `|` (escaped or not) and at a word "or", the parts trimmed after: `\s*` around them tried a run of
    // spaces from each of its places (review: 42 s at 200,000 spaces).
    for (const part of (m[3] ?? "").split(/\\?\||(?<=\s)or(?=\s)/)) {
      const w = part.trim();
      if (!w) continue;
      // The `[]` pairs at the end, counted back from it: a pattern for them was tried from each `[` (review: 32 s at
      // 100,000 pairs before another character).
      let end = w.length;
      while (end >= 2 && w.charCodeAt(end - 1) === 93 && w.charCodeAt(end - 2) === 91) end -= 2;
      options.push({ word: w.slice(0, end), arrays: (w.length - end) / 2, link: anchorOf(link), page: pageLink(link) });
    }
  }
  if (options.length === 0) {
    const bare = cell.trim();
    if (/^[A-Za-z_][\w.]*(\[\])?$/.test(bare)) options.push({ word: bare.replace(/\[\]$/, ""), arrays: bare.endsWith("[]") ? 1 : 0, link: null, page: null });
  }
  return options.length > 0 ? { options } : null;
}

/**
 * The anchor a type's link names on this page or in the type catalogue (`#deal`, `../data-types.md#time`); a link
 * into another page (`./crm-deal-add.md#fields`) is `pageLink`'s.
 */
function anchorOf(link: string | null): string | null {
  if (!link) return null;
  const hash = link.indexOf("#");
  if (hash < 0) return null;
  const path = link.slice(0, hash);
  if (path !== "" && !/(^|\/)data-types\.(md|html)$/.test(path)) return null;
  return link.slice(hash + 1) || null;
}

/**
 * A link into another page's section (`../../entities.md#user`, `crm-deal-get.md#deal`): the page's own table of that
 * type, which the reading follows (fields.ts); null for the catalogue and this page. A link to a whole page
 * (`[item](./object-fields.md)`) is returned with an empty anchor (`./object-fields.md#`): the page's table, where
 * the page says which (reference/front-end.ts wholePage).
 */
function pageLink(link: string | null): string | null {
  if (!link) return null;
  const hash = link.indexOf("#");
  if (hash === 0) return null;
  if (hash < 0) return /^[a-z]+:/i.test(link) || !/\.md$/.test(link) || /(^|\/)data-types\.md$/.test(link) ? null : `${link}#`;
  if (hash === link.length - 1) return null;
  const path = link.slice(0, hash);
  if (/^[a-z]+:/i.test(path) || !/\.md$/.test(path) || /(^|\/)data-types\.md$/.test(path)) return null;
  return link;
}

/** `t` wrapped in `n` arrays. */
export function arrayOf(t: TypeRef, n: number): TypeRef {
  let out = t;
  for (let i = 0; i < n; i++) out = { kind: "array", items: out };
  return out;
}
