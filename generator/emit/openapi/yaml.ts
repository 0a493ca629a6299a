import { dump } from "js-yaml";
import { dataKey, memoLent, memoized } from "../memo.js";
import { indentLines } from "../../util/indent.js";

/**
 * The YAML twin of an OpenAPI document: js-yaml's dump, not `yaml`'s stringify (which the config reader keeps for its
 * positions): the twin is plain data, and dump writes the whole platform's 21 MB document in a third of the time
 * (`npm run bench -- reference`). No folding, no aliases, keys in the document's order.
 */
const OPTIONS = { lineWidth: -1, noRefs: true, sortKeys: false } as const;

/**
 * How many levels of each top-level member are printed entry by entry: `paths` by path item, `components` by group
 * and then by schema (or response, parameter…), `x-events` (the reference's event payloads) by event. The rest is
 * printed whole.
 */
const SPLIT: Readonly<Record<string, number>> = { paths: 1, components: 2, "x-events": 1 };

/**
 * The document's YAML, byte for byte what `dump(doc)` writes, put together from the entries of `paths` and
 * `components`, each printed as a mapping of its own and indented to its depth. That is the same text because, with
 * no line width, js-yaml prints a block mapping's entry the same at any depth (its `indentString` prefixes each
 * non-empty line, and no style depends on the indent); test/emit/yaml.test.ts holds it over the shipped documents and
 * generated ones. Entry by entry, a rerun finds the entries it printed before in the print memo (memo.ts): after one
 * page of the reference changed, one path item of 1,500 is printed anew.
 */
export function yamlDocument(doc: Record<string, unknown>): string {
  // Without a memo there is nothing to find: the document in one piece, which is the same text.
  if (!memoLent()) return dump(doc, OPTIONS);
  const pieces: string[] = [];
  for (const [key, value] of Object.entries(doc)) if (!entry(key, value, SPLIT[key] ?? 0, "", pieces)) return dump(doc, OPTIONS);
  return pieces.join("");
}

/**
 * Puts the text of `key: value` at its depth into `pieces`; false where a piece printed alone would not be the text
 * the whole prints, and the caller prints the document whole (each case is tested with the input that shows it):
 * - a key js-yaml writes explicitly (`? key`, for a key with a line break or past 1,024 characters), whose value it
 *   then writes on the `:` line;
 * - an entry whose last string keeps its final line breaks (`|+`): js-yaml ends such a document with `...`, which
 *   would land inside the whole;
 * - a member whose value is `undefined`, which dump leaves out.
 */
function entry(key: string, value: unknown, split: number, indent: string, pieces: string[]): boolean {
  if (value === undefined) return false;
  if (split > 0 && isMapping(value) && Object.keys(value).length > 0) {
    // `key:` on its own line, as dump writes a non-empty mapping's key (`{ key: null }` prints `key: null`).
    const head = dump({ [key]: null }, OPTIONS);
    if (!head.endsWith(" null\n") || head.startsWith("? ")) return false;
    pieces.push(indentLines(head.replace(/ null\n$/, "\n"), indent));
    for (const [k, v] of Object.entries(value)) if (!entry(k, v, split - 1, `${indent}  `, pieces)) return false;
    return true;
  }
  const text = indent === "" ? dump({ [key]: value }, OPTIONS) : memoized(`yaml ${indent.length}`, () => dataKey([key, value]), () => indentLines(dump({ [key]: value }, OPTIONS), indent));
  if (text.endsWith("...\n")) return false;
  pieces.push(text);
  return true;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
