import fc from "fast-check";
import type { Field, Method, TypeRef } from "../../generator/model/types.js";
import { type Style, printParams, scopeSentence } from "./print.js";

/**
 * Random small specs built from the grammar (methods, parameters, nested members, values, defaults, null, errors),
 * each written in random surfaces: the property tests' input (test/read/grammar-property.test.ts, test/read/ledger.test.ts).
 */

const ident = fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,7}$/);
const upperIdent = fc.stringMatching(/^[A-Z][A-Z0-9_]{0,8}$/);
const paramName = fc.oneof(ident, upperIdent);
/** Words that no reader takes for a fact: no type word first, no "default", "null", "or", verbs or backticks. */
const word = fc.constantFrom("label", "shown", "in", "lists", "count", "items", "for", "sorting", "user", "the", "record", "kept", "when", "set");
const description = fc.array(word, { minLength: 0, maxLength: 4 }).map((ws) => ws.join(" "));
const value = fc.stringMatching(/^[a-z][a-z0-9]{0,5}$/);

type Gen = Field;

const primitive: fc.Arbitrary<TypeRef> = fc.oneof(
  fc.constantFrom<TypeRef>(
    { kind: "primitive", type: "integer" },
    { kind: "primitive", type: "number" },
    { kind: "primitive", type: "string" },
    { kind: "primitive", type: "boolean" },
    { kind: "primitive", type: "string", format: "date-time" },
    { kind: "primitive", type: "string", format: "uri" },
    { kind: "primitive", type: "string", format: "byte" },
  ),
  fc.uniqueArray(value, { minLength: 2, maxLength: 4 }).map((vs): TypeRef => ({ kind: "primitive", type: "string", enum: vs })),
  fc.uniqueArray(fc.integer({ min: 0, max: 99 }), { minLength: 2, maxLength: 4 }).map((vs): TypeRef => ({ kind: "primitive", type: "integer", enum: vs })),
);

const simpleType: fc.Arbitrary<TypeRef> = fc.oneof(
  { weight: 6, arbitrary: primitive },
  { weight: 1, arbitrary: fc.constantFrom<TypeRef>({ kind: "array", items: { kind: "primitive", type: "integer" } }, { kind: "array", items: { kind: "primitive", type: "string" } }) },
  {
    weight: 1,
    arbitrary: fc.constant<TypeRef>({
      kind: "union",
      options: [{ kind: "primitive", type: "integer" }, { kind: "array", items: { kind: "primitive", type: "integer" } }],
    }),
  },
);

/** A field; objects nest to `depth` levels. */
function fieldArb(depth: number): fc.Arbitrary<Gen> {
  const typeArb: fc.Arbitrary<TypeRef> =
    depth > 0
      ? fc.oneof(
          { weight: 5, arbitrary: simpleType },
          {
            weight: 2,
            arbitrary: fc
              .uniqueArray(fieldArb(depth - 1), { minLength: 1, maxLength: 3, selector: (f) => f.name })
              .map((members): TypeRef => ({ kind: "object", members })),
          },
        )
      : simpleType;
  return fc
    .record({ name: paramName, type: typeArb, required: fc.boolean(), nullable: fc.boolean(), description, pickDefault: fc.nat() })
    .map(({ name, type, required, nullable, description: d, pickDefault }) => {
      const f: Field = { name, type, required, nullable: nullable && type.kind !== "object", description: d, source: { file: "", line: 0, column: 0 } };
      if (type.kind === "primitive" && type.enum && pickDefault % 3 === 0) {
        const v = type.enum[pickDefault % type.enum.length] ?? type.enum[0];
        if (v !== undefined) f.default = { value: v, text: String(v) };
      }
      return f;
    });
}

export interface GenError {
  status: number;
  code: string;
  text: string;
}

export interface GenMethod {
  name: string;
  scope: string;
  params: Gen[];
  errors: GenError[];
  style: Style;
}

const styleArb: fc.Arbitrary<Style> = fc.record({
  params: fc.constantFrom("bullets", "sentences", "one-bullet", "table"),
  members: fc.constantFrom("colon", "with", "paren", "nested", "table"),
  scopeColon: fc.boolean(),
  valuesInMeaning: fc.boolean(),
  headers: fc.nat({ max: 9 }),
});

const errorArb: fc.Arbitrary<GenError> = fc.record({
  status: fc.constantFrom(400, 403, 404, 422),
  code: fc.stringMatching(/^ERROR_[A-Z]{1,8}$/),
  text: fc.array(fc.constantFrom("Item", "not", "found", "Access", "denied", "bad", "value"), { minLength: 2, maxLength: 4 }).map((ws) => ws.join(" ")),
});

const methodArb = (i: number): fc.Arbitrary<GenMethod> =>
  fc.record({
    name: fc.constant(`area.method${i}`),
    scope: ident,
    params: fc.uniqueArray(fieldArb(2), { minLength: 0, maxLength: 5, selector: (f) => f.name }),
    errors: fc.uniqueArray(errorArb, { minLength: 0, maxLength: 2, selector: (e) => e.code }),
    style: styleArb,
  });

export const specArb = fc.integer({ min: 1, max: 3 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => methodArb(i))));

function printErrors(errors: GenError[], asTable: boolean): string[] {
  if (errors.length === 0) return [];
  if (asTable) return ["", "| Status | Code | Text |", "|---|---|---|", ...errors.map((e) => `| ${e.status} | ${e.code} | ${e.text} |`), ""];
  return ["", `- Errors: ${errors.map((e) => `${e.status} \`${e.code}\` (\`${e.text}\`)`).join("; ")}.`, ""];
}

export function printSpec(methods: GenMethod[]): string {
  const lines = ["# Generated API", "", "## Endpoints", "", "### Area", ""];
  for (const [i, m] of methods.entries()) {
    const method = { scopes: [m.scope], scopeNote: null } as unknown as Method;
    lines.push(`**${m.name}**. ${scopeSentence(method, m.style)} Any user.`);
    lines.push(...printParams(m.params, m.style, null));
    lines.push(...printErrors(m.errors, i % 2 === 1));
    lines.push("");
  }
  return lines.join("\n");
}

