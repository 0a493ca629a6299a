import type { ResourceLink, Source, Version } from "../model/types.js";
import { collapse } from "./inline.js";
import { trailingParenGroup, withoutParenSpan } from "../util/parens.js";

/**
 * The sentence forms that link a resource to the methods returning it (spec-source/README.md#links):
 *
 *     ### External call statistics record (result of `telephony.externalCall.finish`)
 *     ### CRM entity found by phone (`telephony.externalCall.searchCrmEntities`)
 *     - Mail service (`mailservice.list` item): ...                      → a list of the resource
 *     Returned by `a`, `b`, `c` (key `task` inside `result`; in 3.0 `a` uses key `item`).
 *
 * The method side ("Response `result.task` (see Task)", "Result: array of Placement handler items") is read with the
 * results (generator/read/results.ts); the model stage joins the two, so a method whose own line names no resource
 * still gets the one that names it.
 */

const METHOD = /`([a-z][\w]*(?:\.[\w]+)+)`/g;

/** `(result of \`x\`)`, `(\`x\`)`, `(\`x\` item; camelCase names)`: the links of a title, and its other notes. */
export function readTitleLinks(title: string, source: Source): { links: ResourceLink[]; note: string } {
  const paren = trailingParenGroup(title) ?? "";
  const many = /`\s+items?\b/.test(paren) || /\bitems?\b/i.test(withoutParenSpan(title));
  const links = [...paren.split(";")[0]?.matchAll(METHOD) ?? []].map((m) => ({ method: m[1] ?? "", version: null, key: null, many, source }));
  return { links, note: collapse(paren.split(";").slice(1).join(";")) };
}

/**
 * "Returned by `a`, `b` (key `task` inside `result`; in 3.0 `a` uses key `item`)": one link a method, with the key;
 * a version clause gives that method a link of its own for that version. Null when the sentence is no such form.
 */
/** "In 3.0, `x` uses the key `item`." / "The 3.0 version of `x` uses the key `item` instead." as a sentence of its own. */
export function readVersionKey(sentence: string, source: Source): ResourceLink[] | null {
  const v = /^(?:In (3\.0|legacy),? |The (3\.0|legacy) version of )`([^`]+)` uses (?:the )?key `([A-Za-z_]\w*)`/i.exec(sentence);
  if (!v) return null;
  return [{ method: v[3] ?? "", version: (v[1] ?? v[2]) === "3.0" ? "v3" : "legacy", key: v[4] ?? null, many: false, source }];
}

export function readReturnedBy(sentence: string, source: Source): ResourceLink[] | null {
  // "Returned by: `a`, `b` and `c`, under the key `task` inside `result`. In 3.0, `a` uses the key `item`."
  const m = /^(?:The [\w ]+? (?:is|are) )?[Rr]eturned by:?\s*((?:`[^`]+`(?:\s*,\s*(?:and\s+)?|\s+and\s+)?)+)(.*)$/.exec(sentence);
  if (!m) return null;
  const methods = [...(m[1] ?? "").matchAll(/`([^`]+)`/g)].map((x) => x[1] ?? "");
  const rest = m[2] ?? "";
  const key = /\bkey `([A-Za-z_]\w*)` inside `result`/.exec(rest)?.[1] ?? null;
  const links: ResourceLink[] = methods.map((method) => ({ method, version: null, key, many: false, source }));
  for (const v of rest.matchAll(/\b(?:in (3\.0|legacy),?|the (3\.0|legacy) version of) `([^`]+)` uses (?:the )?key `([A-Za-z_]\w*)`/gi)) {
    const version: Version = (v[1] ?? v[2]) === "3.0" ? "v3" : "legacy";
    links.push({ method: v[3] ?? "", version, key: v[4] ?? null, many: false, source });
  }
  return links;
}
