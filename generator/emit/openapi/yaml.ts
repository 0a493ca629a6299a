import { dump } from "js-yaml";
import { memoLent, memoized } from "../memo.js";

/**
 * The YAML twin of an OpenAPI document: js-yaml's dump, not `yaml`'s stringify (which the config reader keeps for its
 * positions): the twin is plain data, and dump writes the whole platform's 21 MB document in a third of the time
 * (`npm run bench -- reference`). No folding, no aliases, keys in the document's order.
 */
const OPTIONS = { lineWidth: -1, noRefs: true, sortKeys: false } as const;

/**
 * How many levels of each top-level member are printed entry by entry: `paths` by path item, `components` by group
 * and then by schema (or response, parameter…). The rest is printed whole.
 */
const SPLIT: Readonly<Record<string, number>> = { paths: 1, components: 2 };

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
  let out = "";
  for (const [key, value] of Object.entries(doc)) out += entry(key, value, SPLIT[key] ?? 0, "");
  return out;
}

function entry(key: string, value: unknown, split: number, indent: string): string {
  if (split > 0 && isMapping(value) && Object.keys(value).length > 0) {
    // `key:` on its own line, as dump writes a non-empty mapping's key (`{ key: null }` prints `key: null`).
    let text = indented(dump({ [key]: null }, OPTIONS).replace(/ null\n$/, "\n"), indent);
    for (const [k, v] of Object.entries(value)) text += entry(k, v, split - 1, `${indent}  `);
    return text;
  }
  if (indent === "") return dump({ [key]: value }, OPTIONS);
  return memoized(`yaml ${indent.length}`, () => JSON.stringify([key, value]), () => indented(dump({ [key]: value }, OPTIONS), indent));
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Every non-empty line one level down, as js-yaml indents (an empty line of a block scalar stays empty). */
function indented(text: string, indent: string): string {
  if (indent === "") return text;
  return text
    .split("\n")
    .map((l) => (l === "" ? l : indent + l))
    .join("\n");
}
