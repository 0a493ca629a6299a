import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildFromSource } from "../../generator/generate.js";
import type { Field, TypeRef } from "../../generator/model/types.js";
import { applyResultShapes, resultShapes } from "../../generator/reference/shape.js";
import type { YfmBlock } from "../../generator/yfm/blocks.js";

/**
 * The result's TypeScript shape (generator/reference/shape.ts): the page's JS (TS) tab declares what `call.make<T>`
 * returns in `result`; where it allows what the page's table does not, the result takes either, and one warning says
 * each point with the shape's position.
 */

const read = (files: Record<string, string>) => buildFromSource({ kind: "reference", root: "r", files: Object.entries(files).map(([path, text]) => ({ path: `r/${path}`, text })) });
const strip = (t: unknown): unknown => JSON.parse(JSON.stringify(t, (k, v) => (k === "source" || k === "description" || k === "typeSource" ? undefined : v)));

const table = (...rows: string[]) => ["#|", "|| **Name**\n`type` | **Description** ||", ...rows, "|#"].join("\n");
const tab = (ts: string, method = "thing.get") =>
  [
    "- JS (TS)",
    "",
    "    ```ts",
    ...[
      "import type { B24Frame, ISODate } from '@bitrix24/b24jssdk'",
      "declare const $b24: B24Frame",
      "// Shape of the payload returned in result (match the \"response handling\" section of the page)",
      ...ts.split("\n"),
      "const response = await $b24.actions.v2.call.make<ThingResult>({",
      `  method: '${method}',`,
      "  params: { id: 1 },",
      "})",
    ].map((l) => `    ${l}`),
    "    ```",
  ].join("\n");
const page = (returned: string | null, code: string) =>
  [
    "# Get a Thing thing.get",
    "",
    "> Scope: [`thing`](x)",
    "",
    "## Method Parameters",
    "",
    table("|| **id***\n[`integer`](x) | Identifier ||"),
    "",
    "## Code Examples",
    "",
    "{% list tabs %}",
    "",
    code,
    "",
    "{% endlist %}",
    "",
    "## Response Handling",
    "",
    ...(returned === null ? [] : ["### Returned Data", "", returned, ""]),
  ].join("\n");

const RETURNED = [
  table("|| **result**\n[`object`](x) | The thing, [below](#result) ||", "|| **time**\n[`time`](x) | Timing ||"),
  "",
  "#### Object result {#result}",
  "",
  table("|| **ID**\n[`integer`](x) | Identifier ||", "|| **TITLE**\n[`string`](x) | Title ||", "|| **TAGS**\n[`array`](x) | Tags ||", "|| **DONE**\n[`boolean`](x) | Done ||"),
].join("\n");

const resultOf = (files: Record<string, string>) => {
  const r = read(files);
  const m = r.model?.methods.find((x) => x.name === "thing.get" && x.described);
  return { type: m?.result?.type, warnings: r.diagnostics.filter((d) => d.code === "result-shape-differs"), all: r.diagnostics, model: r.model };
};
const member = (t: TypeRef | undefined, name: string): Field | undefined => (t?.kind === "object" ? t.members.find((f) => f.name === name) : undefined);

describe("the result's TypeScript shape", () => {
  const shape = "type ThingResult = {\n  ID: string\n  TITLE: string | null\n  TAGS: string[]\n  DONE: boolean\n  OWNER?: number\n  property258: string\n}";

  it("widens what the table says by what the shape allows beyond it, and says each point at the shape's line", () => {
    const { type, warnings } = resultOf({ "api-reference/things/thing-get.md": page(RETURNED, tab(shape)) });
    // A number written as a string: either.
    expect(strip(member(type, "ID")?.type)).toEqual({ kind: "union", options: [{ kind: "primitive", type: "integer" }, { kind: "primitive", type: "string" }] });
    // null: the member is nullable, its type the table's.
    expect([member(type, "TITLE")?.nullable, strip(member(type, "TITLE")?.type)]).toEqual([true, { kind: "primitive", type: "string" }]);
    // A list whose items the table does not type: the shape's, with the shape's position as the type's source, and
    // no warning for it (the table is silent, not contradicted).
    expect(strip(member(type, "TAGS")?.type)).toEqual({ kind: "array", items: { kind: "primitive", type: "string" } });
    expect(member(type, "TAGS")?.typeSource).toEqual({ file: "r/api-reference/things/thing-get.md", line: 27, column: 7 });
    // What both say alike is unchanged.
    const plain = resultOf({ "api-reference/things/thing-get.md": page(RETURNED, "") }).type;
    expect(strip(member(type, "DONE"))).toEqual(strip(member(plain, "DONE")));
    // A member the table does not list: added, optional, typed and placed by the shape.
    expect(member(type, "OWNER")).toEqual({ name: "OWNER", type: { kind: "primitive", type: "number" }, required: false, nullable: false, description: "", source: { file: "r/api-reference/things/thing-get.md", line: 29, column: 7 } });
    // A numbered name is one instance of a form of keys: said, not added.
    expect(member(type, "property258")).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ file: "r/api-reference/things/thing-get.md", line: 25, column: 11, severity: "warning" });
    expect(warnings[0]?.message).toBe(
      "The TypeScript shape of thing.get's result allows what the table does not, at 4 point(s): result.ID: a string (25); result.TITLE: null (26); result.OWNER: a member the table does not list (29); result.property258: a numbered key the table does not list (an instance of a form, not added) (30); read as either",
    );
  });

  it("a shape that agrees with the table changes nothing and says nothing; a call of another method is not this method's shape", () => {
    const plain = resultOf({ "api-reference/things/thing-get.md": page(RETURNED, "- cURL\n\n    ```bash\n    curl https://x/rest/thing.get\n    ```") });
    const agreeing = resultOf({ "api-reference/things/thing-get.md": page(RETURNED, tab("type ThingResult = {\n  ID: number\n  TITLE: string\n  DONE: boolean\n}")) });
    // (The rows' lines differ with the tab's length.)
    expect(strip(agreeing.type)).toEqual(strip(plain.type));
    expect(agreeing.warnings).toEqual([]);
    const other = resultOf({ "api-reference/things/thing-get.md": page(RETURNED, tab(shape, "thing.list")) });
    expect(strip(other.type)).toEqual(strip(plain.type));
    expect(other.warnings).toEqual([]);
  });

  it("a page with no returned data table takes the shape as its result, named types, records, literals and dates read", () => {
    const ts = "type Item = { id: number; kind: 'a' | 'b'; at: ISODate | null }\ntype ThingResult = { items: Item[]; byCode: Record<string, Item>; next?: number }";
    const { type, warnings } = resultOf({ "api-reference/things/thing-get.md": page(null, tab(ts)) });
    const item = {
      kind: "object",
      members: [
        { name: "id", type: { kind: "primitive", type: "number" }, required: true, nullable: false },
        { name: "kind", type: { kind: "primitive", type: "string", enum: ["a", "b"] }, required: true, nullable: false },
        { name: "at", type: { kind: "primitive", type: "string", format: "date-time" }, required: true, nullable: true },
      ],
    };
    expect(strip(type)).toEqual({
      kind: "object",
      members: [
        { name: "items", type: { kind: "array", items: item }, required: true, nullable: false },
        { name: "byCode", type: { kind: "object", members: [], additional: item }, required: true, nullable: false },
        { name: "next", type: { kind: "primitive", type: "number" }, required: false, nullable: false },
      ],
    });
    expect(warnings).toEqual([]);
  });

  it("a structure of the catalogue is widened once by every page's shape, and said once, not per page", () => {
    const catalogue = ["# Data Types", "", "## Object Structure", "", "### thing_item", "", table("|| **id**\n[`integer`](x) | Id ||", "|| **note**\n[`string`](x) | Note ||")].join("\n");
    const returned = table("|| **result**\n[`object`](x) | Root ||", "|| **item**\n[`thing_item`](./data-types.md#thing_item) | The item ||");
    const itemPage = (name: string, extra: string) =>
      page(returned, tab(`type ThingResult = { item: { id: number; note: string | null${extra} } | null }`, name)).replace(/thing\.get/g, name);
    const r = read({ "api-reference/things/data-types.md": catalogue, "api-reference/things/thing-get.md": itemPage("thing.get", ""), "api-reference/things/thing-add.md": itemPage("thing.add", "; id2: string") });
    const thing = r.model?.resources.find((x) => x.name === "ThingItem");
    expect(member(thing?.type, "note")?.nullable).toBe(true);
    expect(strip(member(thing?.type, "id2"))).toEqual({ name: "id2", type: { kind: "primitive", type: "string" }, required: false, nullable: false });
    // The member holding the structure may be null: that is the holder's, on each page.
    for (const name of ["thing.get", "thing.add"]) {
      const item = member(r.model?.methods.find((m) => m.name === name)?.result?.type, "item");
      expect([name, item?.nullable, item?.type]).toEqual([name, true, { kind: "ref", resource: "ThingItem" }]);
    }
    const said = r.diagnostics.filter((d) => d.code === "result-shape-differs");
    // The structure's points at the first page (in path order) that says each: thing.add's.
    expect(said.map((d) => `${d.file}:${d.line} ${d.message}`)).toEqual([
      "r/api-reference/things/thing-add.md:24 The TypeScript shape of thing.add's result allows what the table does not, at 1 point(s): result.item: null (24); read as either",
      "r/api-reference/things/thing-add.md:24 The TypeScript shape of the structure 'thing_item' (the catalogue's, shared by every method that names it) allows what the table does not, at 2 point(s): ThingItem.note: null (24); ThingItem.id2: a member the table does not list (24); read as either",
      "r/api-reference/things/thing-get.md:24 The TypeScript shape of thing.get's result allows what the table does not, at 1 point(s): result.item: null (24); read as either",
    ]);
  });
});

describe("the shape's readings the review found wrong", () => {
  const untyped = [
    table("|| **result**\n[`object`](x) | The thing, [below](#result) ||"),
    "",
    "#### Object result {#result}",
    "",
    table("|| **a**\n| A ||", "|| **b**\n[`integer[]`](x) | B ||", "|| **c**\n[`any`](x) | C ||"),
  ].join("\n");

  it("aliases that each use the one before twice stop at the budget, said; the page is still read", () => {
    const chain = ["type T0 = { v: string }", ...Array.from({ length: 40 }, (_, i) => `type T${i + 1} = { a: T${i}; b: T${i} }`), "type ThingResult = T40"].join("\n");
    const { type, all } = resultOf({ "api-reference/things/thing-get.md": page(null, tab(chain)) });
    expect(type?.kind).toBe("object");
    expect(all.filter((d) => d.code === "unplaced").map((d) => d.message)).toEqual([expect.stringContaining("the rest of the TypeScript shape of thing.get's result, past 10000 types")]);
  });

  it("a member on both sides of an intersection is any value, and a name given twice is the first: one member each", () => {
    const { type, model } = resultOf({ "api-reference/things/thing-get.md": page(null, tab("type ThingResult = { a: string; a: number; b: string } & { b: number | null }")) });
    expect(strip(type)).toEqual({ kind: "object", members: [{ name: "a", type: { kind: "primitive", type: "string" }, required: true, nullable: false }, { name: "b", type: { kind: "unknown" }, required: true, nullable: false }] });
    expect(model).not.toBeNull();
  });

  it("null on a member the table leaves untyped or lists as items is kept and said where it disagrees; the table's `any` stays", () => {
    const { type, warnings } = resultOf({ "api-reference/things/thing-get.md": page(untyped, tab("type ThingResult = { a: string | null; b: (number | null)[]; c: string }")) });
    expect([member(type, "a")?.nullable, strip(member(type, "a")?.type)]).toEqual([true, { kind: "primitive", type: "string" }]);
    expect(strip(member(type, "b")?.type)).toEqual({ kind: "array", items: { kind: "union", options: [{ kind: "primitive", type: "integer" }, { kind: "null" }] } });
    expect(strip(member(type, "c")?.type)).toEqual({ kind: "unknown", note: "any type (data-types.md: any)" });
    // `a` had no type (the shape's reading, no disagreement); `b`'s items did not take null.
    expect(warnings.map((d) => d.message)).toEqual([expect.stringContaining("at 1 point(s): result.b[]: null (")]);
  });

  it("the call names the method in another case (sale.paymentItemShipment.get on sale.paymentitemshipment.get's page)", () => {
    const ts = "type ThingResult = { ID: string }";
    const { warnings } = resultOf({ "api-reference/things/thing-get.md": page(RETURNED, tab(ts, "Thing.Get")) });
    expect(warnings).toHaveLength(1);
  });

  it("a line of the shape indented less than its fence is placed where it stands on the page", () => {
    // The fence stands at column 5; the line of `ID` at column 3, its type at column 7 (at 9 before, the fence's
    // indentation added to a line that had none of it).
    const shape = "type ThingResult = {\n  ID: string\n  TITLE: string | null\n  TAGS: string[]\n  DONE: boolean\n  OWNER?: number\n}";
    const code = tab(shape).replace("\n      ID: string\n", "\n  ID: string\n");
    expect(code).toContain("\n  ID: string\n");
    const { warnings, type } = resultOf({ "api-reference/things/thing-get.md": page(RETURNED, code) });
    expect(warnings[0]).toMatchObject({ line: 25, column: 7 });
    // The other lines keep the fence's indentation, and their columns.
    expect(member(type, "OWNER")?.source).toEqual({ file: "r/api-reference/things/thing-get.md", line: 29, column: 7 });
  });
});

describe("the shapes in the cache (a rerun after a page's words change)", () => {
  // TITLE's tuple puts one position in two places (the array and its items), which the warning's point shows: moved
  // once, not twice (the review).
  const files = (description: string) => [{ path: "r/api-reference/things/thing-get.md", text: page(RETURNED, tab("type ThingResult = {\n  ID: string\n  TITLE: [string, number]\n}")).replace("# Get a Thing thing.get\n", `# Get a Thing thing.get\n\n${description}\n`) }];
  const run = (description: string, entries: ReadonlyMap<string, unknown>) => {
    const cache = { salt: "test", entries, next: new Map<string, unknown>() };
    const built = buildFromSource({ kind: "reference", root: "r", files: files(description), cache });
    return { cache, built, id: member(built.model?.methods.find((x) => x.name === "thing.get")?.result?.type, "ID") };
  };
  const shapeKeys = (m: ReadonlyMap<string, unknown>) => [...m].filter(([, v]) => typeof v === "object" && v !== null && "over" in v).map(([k]) => k);

  it("are kept through a run that takes the page from the cache, and found by the next reading of the page", () => {
    const first = run("Gets a thing.", new Map());
    expect(shapeKeys(first.cache.next)).toHaveLength(1);
    // Nothing changed: the page's reading comes from the cache; its shapes are kept for the next run all the same.
    const second = run("Gets a thing.", first.cache.next);
    expect(shapeKeys(second.cache.next)).toEqual(shapeKeys(first.cache.next));
    // The words change, on their line or with a paragraph more above the code: the page is read anew, its code found
    // in the cache, placed where it now stands. An entry altered on purpose (ID's line, 500 lines on) shows that the
    // reading took it from there.
    const idLine = (description: string) => Number(/result\.ID: a string \((\d+)\)/.exec(buildFromSource({ kind: "reference", root: "r", files: files(description) }).diagnostics.find((d) => d.code === "result-shape-differs")?.message ?? "")?.[1]);
    const entries = new Map(second.cache.next);
    const [key] = shapeKeys(entries);
    const altered = structuredClone(entries.get(key as string)) as { shapes: Array<{ members: Array<{ name: string; type: { at: { line: number } } }> }> };
    const id = altered.shapes[0]?.members.find((m) => m.name === "ID");
    if (!id) throw new Error("no ID in the cached shape");
    id.type.at.line += 500;
    entries.set(key as string, altered);
    for (const description of ["Gets one thing.", "Gets one thing.\n\nA second paragraph."]) {
      expect(idLine(description)).toBeGreaterThan(0);
      const shifted = run(description, entries);
      expect(shifted.built.diagnostics.find((d) => d.code === "result-shape-differs")?.message).toContain(`result.ID: a string (${idLine(description) + 500})`);
      expect(shapeKeys(shifted.cache.next)).toEqual([key]);
    }
    expect(idLine("Gets one thing.\n\nA second paragraph.")).toBe(idLine("Gets one thing.") + 2);
    // Untouched, the cached shapes give what a reading without the cache gives, wherever the code now stands.
    for (const description of ["Gets one thing.", "Gets one thing.\n\nA second paragraph."]) {
      const fresh = buildFromSource({ kind: "reference", root: "r", files: files(description) });
      const cached = run(description, second.cache.next);
      expect(cached.built.model).toEqual(fresh.model);
      expect(cached.built.diagnostics).toEqual(fresh.diagnostics);
    }
  });
});

describe("widening by a shape, as a property", () => {
  // Types a table may give and the TypeScript that says the same.
  const prim = fc.constantFrom<[TypeRef, string]>([{ kind: "primitive", type: "integer" }, "number"], [{ kind: "primitive", type: "string" }, "string"], [{ kind: "primitive", type: "boolean" }, "boolean"]);
  const typed: fc.Arbitrary<[TypeRef, string]> = fc.letrec<{ t: [TypeRef, string] }>((tie) => ({
    t: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      prim,
      tie("t").map(([t, s]): [TypeRef, string] => [{ kind: "array", items: t }, `Array<${s}>`]),
      fc.uniqueArray(fc.tuple(fc.constantFrom("a", "b", "c", "d"), tie("t")), { selector: ([n]) => n, maxLength: 3 }).map((ms): [TypeRef, string] => [
        { kind: "object", members: ms.map(([name, [t]]) => ({ name, type: t, required: false, nullable: false, description: "", source: { file: "f", line: 1, column: 1 } })) },
        `{ ${ms.map(([name, [, s]]) => `${name}?: ${s}`).join("; ")} }`,
      ]),
    ),
  })).t;
  const widened = (t: TypeRef, ts: string) => {
    const block: YfmBlock = { kind: "code", lang: "ts", text: `type R = ${ts}\nawait $b24.actions.v2.call.make<R>({ method: 'x.get' })`, file: "p.md", line: 1, column: 1 };
    const method = { name: "x.get", result: { type: t, key: null, description: "", empty: [], source: { file: "p.md", line: 1, column: 1 } } };
    const diagnostics: Parameters<typeof applyResultShapes>[2] = [];
    applyResultShapes(method as never, resultShapes([block], "p.md", "x.get", diagnostics), diagnostics);
    return { type: method.result.type, diagnostics };
  };

  it("a shape that says what the table says changes nothing; widening twice by one shape is widening once", () => {
    fc.assert(
      fc.property(typed, typed, ([t, same], [, other]) => {
        const agreeing = widened(t, same);
        expect(agreeing.type).toEqual(t);
        expect(agreeing.diagnostics).toEqual([]);
        const once = widened(t, other).type;
        expect(strip(widened(once, other).type)).toEqual(strip(once));
      }),
      { numRuns: 200 },
    );
  });
});
