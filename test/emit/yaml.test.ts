import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { dump } from "js-yaml";
import { describe, expect, it } from "vitest";
import { type PrintMemo, withPrintMemo } from "../../generator/emit/memo.js";
import { yamlDocument } from "../../generator/emit/openapi/yaml.js";
import { ROOT } from "../helpers.js";

/**
 * The YAML twin put together entry by entry (emit/openapi/yaml.ts), for a rerun's print memo, is the text js-yaml
 * writes for the whole document: over the shipped documents and arbitrary ones (keys and strings that need quotes,
 * block scalars with empty and indented lines, empty mappings and lists, nesting under `paths`, `components` and
 * `x-events`).
 */
const OPTIONS = { lineWidth: -1, noRefs: true, sortKeys: false } as const;
const memo = (entries: ReadonlyMap<string, unknown> = new Map()): PrintMemo => ({ salt: "t", entries, next: new Map() });

function same(doc: Record<string, unknown>): void {
  const whole = dump(doc, OPTIONS);
  expect(yamlDocument(doc)).toBe(whole);
  const first = memo();
  expect(withPrintMemo(first, () => yamlDocument(doc))).toBe(whole);
  const second = memo(first.next);
  expect(withPrintMemo(second, () => yamlDocument(doc))).toBe(whole);
  expect(second.next.size).toBe(first.next.size);
}

const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  // Strings that end in line breaks: js-yaml keeps them (`|+`) and may end the document with `...`.
  fc.string({ maxLength: 10 }).map((t) => `${t}\n\n`),
  fc.constant("\n"),
  fc.string({ maxLength: 12, unit: "grapheme" }),
  fc.array(fc.constantFrom("a", " ", "\n", "  x", ":", "#", "-", "'", '"', "\t", "\r", "\u2028", "|", ">", "{", "[", "null", "1", "y"), { maxLength: 12 }).map((parts) => parts.join("")),
);
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    text,
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(text, tie("value"), { maxKeys: 4 }),
  ),
}));
const document = fc.record({
  openapi: fc.constant("3.0.3"),
  info: fc.dictionary(text, value, { maxKeys: 3 }),
  paths: fc.dictionary(text, value, { maxKeys: 5 }),
  components: fc.dictionary(fc.oneof(fc.constantFrom("schemas", "responses", "parameters", "securitySchemes", "odd: key", "two\nlines"), text), fc.oneof(fc.dictionary(text, value, { maxKeys: 4 }), value), { maxKeys: 4 }),
  "x-events": fc.oneof(fc.dictionary(text, value, { maxKeys: 4 }), value),
});

describe("the YAML twin, entry by entry", () => {
  it("is dump's text for the shipped documents", () => {
    for (const name of ["openapi.legacy.json", "openapi.v3.json"]) same(JSON.parse(readFileSync(join(ROOT, "output/openapi", name), "utf8")) as Record<string, unknown>);
  });

  it("is dump's text where an entry alone would print otherwise (the review's inputs): the document is printed whole", () => {
    const keep = "Intro.\n\n";
    // A string that keeps its final line breaks (`|+`): js-yaml ends a document whose last scalar it is with `...`.
    same({ paths: { "/a": { get: { description: keep } }, "/b": { get: {} } } });
    same({ paths: { "/a": { get: {} }, "/b": { get: { description: keep } } } });
    same({ info: { title: "\n" }, paths: { "/a": { get: {} } } });
    same({ openapi: "3.0.3", info: { "": "a\n\n" } });
    // A key with a line break or past 1,024 characters is written `? key`, its value on the `:` line.
    same({ components: { "s\nx": { A: { type: "object" } } } });
    same({ paths: { ["/".padEnd(1100, "x")]: { get: {} }, "/b": { get: {} } } });
    same({ components: { schemas: { "a\nb": { type: "string" }, c: { type: "integer" } } } });
    // A member without a value is left out by dump, where a piece of its own would print `{}`.
    same({ paths: { "/a": undefined, "/b": { get: {} } } });
  });

  it("tells apart what JSON would not: -0, NaN and the infinities print otherwise than 0 and null", () => {
    same({ components: { schemas: { X: { minimum: 0 } }, parameters: { X: { minimum: -0 } } } });
    same({ components: { schemas: { X: { minimum: Number.NaN } }, parameters: { X: { minimum: null } } } });
    same({ components: { schemas: { X: { maximum: Number.POSITIVE_INFINITY } }, parameters: { X: { maximum: null } } } });
    // A date prints as a timestamp, its ISO string as a quoted string.
    same({ components: { schemas: { X: { default: new Date(0) } }, parameters: { X: { default: "1970-01-01T00:00:00.000Z" } } } });
    // The same entry edited from 0 to -0 between two runs is printed anew, not taken from the memo.
    const first = memo();
    withPrintMemo(first, () => yamlDocument({ paths: { "/a": { get: { minimum: 0 } } } }));
    const edited = { paths: { "/a": { get: { minimum: -0 } } } };
    expect(withPrintMemo(memo(first.next), () => yamlDocument(edited))).toBe(dump(edited, OPTIONS));
  });

  it("is dump's text for arbitrary documents", () => {
    fc.assert(
      fc.property(document, (doc) => same(doc)),
      { numRuns: 300 },
    );
  });
});
