import { describe, expect, it } from "vitest";
import { buildFromText } from "../../generator/generate.js";
import type { Model } from "../../generator/model/types.js";
import { SPEC_TEXT } from "../helpers.js";
import { methodFacts, typeFacts } from "../grammar/facts.js";
import type { Style } from "../grammar/print.js";
import { RESOURCE_HEADERS, rewriteResourceTables, rewriteSpec } from "../grammar/rewrite.js";

/**
 * Issue 11: the real spec's parameters, rewritten from the surface they are written in into every other accepted
 * surface (bullets, sentences, one bullet, a table with any header synonyms; members inline after `:`, after
 * `with`, in `(members: ...)`, as nested bullets, as a member table; `Scope \`x\`` and `Scope: \`x\``; allowed values
 * in the type or in the meaning), and the resources' field tables under other header synonyms and column orders,
 * read back to the same facts for every method and every resource.
 */

const STYLES: Array<[string, Style]> = [
  ["bullets, members after ':'", { params: "bullets", members: "colon", scopeColon: false, valuesInMeaning: false, headers: 0 }],
  ["bullets, nested member bullets, 'Scope:'", { params: "bullets", members: "nested", scopeColon: true, valuesInMeaning: true, headers: 1 }],
  ["bullets, member table", { params: "bullets", members: "table", scopeColon: false, valuesInMeaning: true, headers: 2 }],
  ["sentences, members after 'with'", { params: "sentences", members: "with", scopeColon: true, valuesInMeaning: false, headers: 0 }],
  ["one bullet, members in '(members: ...)'", { params: "one-bullet", members: "paren", scopeColon: false, valuesInMeaning: true, headers: 0 }],
  ["table, values in the Meaning column", { params: "table", members: "colon", scopeColon: true, valuesInMeaning: true, headers: 1 }],
  ["table, values in the Type column", { params: "table", members: "paren", scopeColon: false, valuesInMeaning: false, headers: 3 }],
  ["table, other header synonyms", { params: "table", members: "colon", scopeColon: false, valuesInMeaning: true, headers: 4 }],
];

function read(text: string): { model: Model; warnings: string[] } {
  const r = buildFromText(text, "spec.md");
  if (!r.model) throw new Error(r.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`).join("\n"));
  return { model: r.model, warnings: r.diagnostics.filter((d) => d.severity === "warning").map((d) => `${d.code} ${d.message}`) };
}

const original = read(SPEC_TEXT);

function resourceFacts(model: Model): Record<string, unknown> {
  return Object.fromEntries(model.resources.map((r) => [r.name, typeFacts(r.type, model, [r.name])]));
}

describe("metamorphic: the real spec's facts in every surface", () => {
  it.each(STYLES)("%s", (_, style) => {
    // The methods' parameters in the style's surface, the resources' field tables under other headers and, every
    // other style, with the Meaning column before the Type column.
    const text = rewriteResourceTables(rewriteSpec(SPEC_TEXT, original.model, style), style.headers, STYLES.findIndex(([, s]) => s === style) % 2 === 1);
    const headers = RESOURCE_HEADERS[style.headers % RESOURCE_HEADERS.length];
    expect(text).toContain(`| ${headers?.name} |`);
    expect(text).not.toBe(SPEC_TEXT);
    const rewritten = read(text);
    // Every method of the spec, not a sample.
    expect(rewritten.model.methods.map((m) => `${m.version}:${m.name}`)).toEqual(original.model.methods.map((m) => `${m.version}:${m.name}`));
    for (const m of original.model.methods) {
      const again = rewritten.model.methods.find((x) => x.name === m.name && x.version === m.version);
      expect(again && methodFacts(again, rewritten.model), `${m.version}:${m.name}`).toEqual(methodFacts(m, original.model));
    }
    expect(resourceFacts(rewritten.model)).toEqual(resourceFacts(original.model));
    // No new warnings: a surface of the grammar is never ambiguous.
    // (A contradiction the original spec warns about may be gone: the rewrite prints the reading the model took.)
    expect(rewritten.warnings.filter((w) => !original.warnings.includes(w))).toEqual([]);
  });
});
