import fc from "fast-check";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/generate.js";
import { type TsDeclaration, type TsMember, type TsParameter, type TsType, fitsWidth, printDeclaration, printImport, union } from "../../generator/emit/ts/layout.js";
import { propertyKey, stringLiteral } from "../../generator/emit/names.js";
import { skeletonDrift } from "../../generator/skeleton/index.js";
import { type PrintMemo, withPrintMemo } from "../../generator/emit/memo.js";
import { PRETTIER_OPTIONS } from "../../generator/render/format.js";
import { GEN, SPEC_TEXT, endpointSpec, modelOf } from "../helpers.js";
import { type TypeRef, prose } from "../../generator/model/view.js";

/**
 * The generator prints its TypeScript in prettier's layout instead of running prettier over it (issue 10's speed).
 * These tests hold it to that: prettier, with the options the generator gives it, changes nothing it printed.
 */


const format = (text: string, path: string) => prettier.format(text, { ...PRETTIER_OPTIONS, parser: path.endsWith(".ts") ? "babel-ts" : "babel" });

/** Code files the generator writes in their final layout: all but the compiled runtimes and the data modules. */
const laidOut = (path: string) => /\.(ts|js)$/.test(path) && !path.includes("/runtime/") && !/(methods|documentation|mock)\.js$/.test(path);

async function expectFormatted(files: Array<{ path: string; contents: string }>) {
  const checked = files.filter((f) => laidOut(f.path));
  for (const f of checked) expect({ path: f.path, text: await format(f.contents, f.path) }).toEqual({ path: f.path, text: f.contents });
  return checked.map((f) => f.path);
}

describe("code in prettier's layout without prettier", () => {
  it("every code file of the real spec is already what prettier prints", async () => {
    const { files } = await generate(SPEC_TEXT, { ...GEN, format: false });
    const checked = await expectFormatted(files);
    // Each area's entry (D14) is laid out too.
    const areas = [...new Set(checked.map((p) => /^client\/areas\/([^/]+)\//.exec(p)?.[1]).filter(Boolean))];
    expect(areas).toContain("tasks");
    for (const a of areas) {
      for (const f of ["calls.d.ts", "index.d.ts", "index.js", "methods.d.ts"]) expect(checked).toContain(`client/areas/${a}/${f}`);
      expect(checked).toContain(`types/areas/${a}.d.ts`);
    }
    expect(checked.filter((p) => !p.includes("/areas/")).sort()).toEqual([
      "client/calls.d.ts",
      "client/index.d.ts",
      "client/index.js",
      "client/methods.d.ts",
      "client/shape.d.ts",
      "server/documentation.d.ts",
      "server/index.d.ts",
      "server/index.js",
      "server/methods.d.ts",
      "server/mock.d.ts",
      "server/skeleton/handlers.ts",
      "types/common.d.ts",
      "types/index.d.ts",
      "types/index.js",
    ]);
  });

  it("long names: the skeleton wraps its calls, imports break, a line past the width goes through prettier", async () => {
    const long = `tasks.${"veryLongSegment.".repeat(3)}get`;
    const huge = `tasks.${"x".repeat(130)}`;
    const spec = endpointSpec(
      [
        "**profile** — Returns the current profile. Scope `user`.",
        "",
        "Response `result`: object.",
        "",
        `**${long}** — Returns a task. Scope \`task\`.`,
        "",
        "- `taskId`* integer: the task.",
        "",
        `**${huge}** — Does a thing. Scope \`task\`.`,
        "",
        "- `id`* integer: the id.",
      ].join("\n"),
    );
    const name = `collab-platform-api-${"very-long-package-name-".repeat(6)}types`;
    const packages = { types: name, client: name.replace(/types$/, "client"), server: name.replace(/types$/, "server") };
    const { files, diagnostics } = await generate(spec, { ...GEN, packages });
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    await expectFormatted(files);
    const skeleton = files.find((f) => f.path === "server/skeleton/handlers.ts")?.contents ?? "";
    expect(skeleton).toContain("  profile: async (_params, _context) => notImplemented(\"profile\"),");
    expect(skeleton).toContain(`  "${long}": async (_params, _context) =>\n    notImplemented("${long}"),`);
    // A name too long for that layout sends the skeleton through prettier: its entry is prettier's.
    expect(skeleton).toContain(`  "${huge}":\n    async (_params, _context) =>\n      notImplemented(`);
    // The drift check finds every entry, the bare `profile` key too.
    const model = modelOf(spec);
    expect(skeletonDrift(model, skeleton)).toEqual({ added: [], removed: [] });
    expect(skeletonDrift(model, skeleton.replace("  profile: async", "  other: async"))).toEqual({ added: ["profile"], removed: ["other"] });
    const types = files.find((f) => f.path === "client/index.d.ts")?.contents ?? "";
    expect(types).toContain(`import type {\n  ErrorCode,\n  LegacyMethods,\n  V3Methods,\n} from "${name}";`);
  });

  it("a spec without 3.0 methods: the skeleton's empty object is `{}`", async () => {
    const spec = endpointSpec("**a.b** — Does a thing. Scope `x`.\n\n- `id`* integer: the id.");
    const { files } = await generate(spec, { ...GEN, format: false });
    const skeleton = files.find((f) => f.path === "server/skeleton/handlers.ts")?.contents ?? "";
    expect(skeleton).toContain("export const v3: V3Handlers = {};");
    await expectFormatted(files);
  });

  it("a template the user replaced is formatted; the built-in ones are left as they print", async () => {
    const templates = { ...GEN.templates, "client/index.js.hbs": `${GEN.templates["client/index.js.hbs"]}\nexport const extra = {a:1,b:[1,2]}\n` };
    const mine = await generate(SPEC_TEXT, { ...GEN, templates, customTemplates: ["client/index.js.hbs"] });
    expect(mine.files.find((f) => f.path === "client/index.js")?.contents).toContain("export const extra = { a: 1, b: [1, 2] };");
    const unsaid = await generate(SPEC_TEXT, { ...GEN, templates, customTemplates: undefined });
    expect(unsaid.files.find((f) => f.path === "client/index.js")?.contents).toContain("export const extra = { a: 1, b: [1, 2] };");
  });
});

// Arbitrary declarations of the constructs the layout prints: names, literals, unions, intersections, objects,
// arrays, indexed access, type arguments, comments, long and short, nested.
// Type and parameter names as the generator makes them: never a reserved word (`do`, `in`), which would not parse.
const identifier = fc.stringMatching(/^[A-Z_][A-Za-z0-9_]{0,30}$/);
const keyName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,30}$/);
const key = fc.oneof(keyName, fc.stringMatching(/^[a-z][a-z.]{0,60}$/), fc.string({ maxLength: 12 }), fc.string({ maxLength: 6, unit: "grapheme" })).map(propertyKey);
const literalText = fc.oneof(fc.string({ maxLength: 40 }).map(stringLiteral), fc.constantFrom("string", "number", "boolean", "null", "unknown", "never", "true", "false", "[]", "`${bigint}`"));
const comment = fc.oneof(
  fc.constant(undefined),
  fc.array(fc.stringMatching(/^[A-Za-z `.,:;()-]{1,150}$/), { minLength: 1, maxLength: 3 }).map((lines) => `/**\n${lines.map((l) => ` * ${l.trim()}`.trimEnd()).join("\n")}\n */`),
  fc.stringMatching(/^[A-Za-z `.,]{1,100}$/).map((l) => `/** ${l.trim()} */`),
);

/** Whether an object type with members is part of `t`. */
function holdsObject(t: TsType): boolean {
  if (t.kind === "object") return t.members.length > 0;
  if (t.kind === "union" || t.kind === "intersection") return t.types.some(holdsObject);
  if (t.kind === "array") return holdsObject(t.element);
  if (t.kind === "reference") return t.args.some(holdsObject);
  if (t.kind === "indexed") return holdsObject(t.object) || holdsObject(t.index);
  return false;
}

const { type: typeArb, signature } = fc.letrec<{ type: TsType; member: TsMember; signature: TsMember }>((tie) => ({
  type: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    literalText.map((text): TsType => ({ kind: "keyword", text })),
    identifier.map((name): TsType => ({ kind: "reference", name, args: [] })),
    fc.record({ name: identifier, args: fc.array(tie("type"), { minLength: 1, maxLength: 4 }) }).map(({ name, args }): TsType => ({ kind: "reference", name, args })),
    fc.array(tie("type"), { minLength: 2, maxLength: 8 }).map((types) => union(types)),
    fc.array(tie("type"), { minLength: 2, maxLength: 4 }).map((types): TsType => ({ kind: "intersection", types })),
    fc.record({ members: fc.array(tie("member"), { maxLength: 4 }), expanded: fc.boolean() }).map(({ members, expanded }): TsType => ({ kind: "object", members, expanded })),
    tie("type").map((element): TsType => ({ kind: "array", element })),
    fc.record({ object: identifier, index: fc.string({ maxLength: 50 }) }).map(({ object, index }): TsType => ({ kind: "indexed", object: { kind: "reference", name: object, args: [] }, index: { kind: "keyword", text: stringLiteral(index) } })),
  ),
  member: fc.record({ comment, key, optional: fc.boolean(), type: tie("type") }).map(({ comment: c, ...m }): TsMember => (c ? { ...m, comment: c } : m)),
  // A method signature: parameters, the last maybe a rest parameter, and a return type. Not one parameter with an
  // object type inside the return type: the layout's known gap (ts/layout.ts methodSignature), which no emitter prints.
  // Optional parameters (`params?`, the client's calls) come after the required ones; a rest parameter is never one.
  signature: fc
    .record({ comment, key, parameters: fc.array(fc.record({ name: identifier, type: tie("type") }), { maxLength: 4 }), rest: fc.boolean(), optionalFrom: fc.nat({ max: 4 }), type: tie("type") })
    .filter(({ parameters, type }) => parameters.length !== 1 || !holdsObject(type))
    .map(({ comment: c, parameters, rest, optionalFrom, ...m }): TsMember => ({
      ...m,
      ...(c ? { comment: c } : {}),
      parameters: parameters.map((p, i) => (rest && i === parameters.length - 1 ? { ...p, rest: true } : i >= optionalFrom ? { ...p, optional: true } : p)),
    })),
}));

const declaration: fc.Arbitrary<TsDeclaration> = fc.oneof(
  fc.record({ comment, name: identifier, type: typeArb }).map(({ comment: c, name, type }): TsDeclaration => ({ kind: "alias", ...(c ? { comment: c } : {}), head: `export type ${name}`, type })),
  fc
    .record({ comment, name: identifier, members: fc.array(fc.record({ comment, key, optional: fc.boolean(), type: typeArb }), { maxLength: 5 }) })
    .map(({ comment: c, name, members }): TsDeclaration => ({
      kind: "interface",
      ...(c ? { comment: c } : {}),
      head: `export interface ${name}`,
      members: members.map(({ comment: mc, ...m }) => (mc ? { ...m, comment: mc } : m)),
    })),
  fc.record({ name: identifier, members: fc.array(signature, { minLength: 1, maxLength: 3 }) }).map(({ name, members }): TsDeclaration => ({ kind: "interface", head: `export interface ${name}`, members })),
);

describe("the layout against prettier", () => {
  it("prettier changes nothing in an arbitrary declaration", async () => {
    await fc.assert(
      fc.asyncProperty(declaration, async (d) => {
        const text = printDeclaration(d);
        expect(await format(text, "x.d.ts")).toBe(text);
      }),
      { numRuns: Number(process.env.LAYOUT_RUNS ?? 400) },
    );
  });

  it("optional parameters keep their mark, an only object parameter hugging its parentheses too; a rest parameter is never optional", async () => {
    // Rare among the arbitrary signatures above: the review found the hugging one printed without its `?`.
    const object: TsType = { kind: "object", members: [{ key: "a", type: { kind: "keyword", text: "string" } }], expanded: false };
    const wide: TsType = { kind: "object", members: Array.from({ length: 8 }, (_, i) => ({ key: `member${i}`, optional: true, type: { kind: "keyword", text: "string" } })), expanded: false };
    for (const parameters of [[{ name: "opts", optional: true, type: object }], [{ name: "opts", optional: true, type: wide }], [{ name: "method", type: { kind: "keyword", text: '"x"' } }, { name: "params", optional: true, type: wide }, { name: "options", optional: true, type: object }]] as TsParameter[][]) {
      const text = printDeclaration({ kind: "interface", head: "export interface Calls", members: [{ key: "call", parameters, type: { kind: "keyword", text: "void" } }] });
      for (const p of parameters) expect(text).toContain(`${p.name}${p.optional ? "?" : ""}: `);
      expect(await format(text, "x.d.ts")).toBe(text);
    }
    expect(() => printDeclaration({ kind: "interface", head: "export interface Calls", members: [{ key: "call", parameters: [{ name: "xs", rest: true, optional: true, type: { kind: "keyword", text: "X[]" } }], type: { kind: "keyword", text: "void" } }] })).toThrow(/never optional/);
  });

  it("with the print memo lent, a declaration is the same text, put together from its members, and found again", () => {
    // A rerun's memo (emit/memo.ts): an interface printed member by member must be the interface printed whole.
    const memo = (): PrintMemo => ({ salt: "t", entries: new Map(), next: new Map() });
    fc.assert(
      fc.property(fc.array(declaration, { minLength: 1, maxLength: 4 }), (ds) => {
        const whole = ds.map(printDeclaration).join("");
        const first = memo();
        expect(withPrintMemo(first, () => ds.map(printDeclaration).join(""))).toBe(whole);
        // The next run finds every text it printed: no printer runs, and the text is the same.
        const second: PrintMemo = { salt: "t", entries: first.next, next: new Map() };
        expect(withPrintMemo(second, () => ds.map(printDeclaration).join(""))).toBe(whole);
        // …and keeps every entry it found, so that the run after it finds them too.
        expect([...second.next.keys()].every((k) => first.next.has(k))).toBe(true);
        expect(second.next.size).toBe(first.next.size);
      }),
      { numRuns: Number(process.env.LAYOUT_RUNS ?? 400) },
    );
    // An interface of many members wider than the line: the members break at the width less the indent.
    const wide: TsDeclaration = {
      kind: "interface",
      comment: "/**\n * Every method.\n *\n * Second paragraph.\n */",
      head: "export interface Wide",
      members: Array.from({ length: 30 }, (_, i) => ({
        ...(i % 3 === 0 ? { comment: `/** Member ${i}: ${"words ".repeat(i)}*/` } : {}),
        key: `member${i}`,
        optional: i % 2 === 0,
        type: union(Array.from({ length: 1 + (i % 9) }, (_, j) => ({ kind: "keyword" as const, text: stringLiteral(`value-${i}-${j}-${"x".repeat(i)}`) }))),
      })),
    };
    expect(withPrintMemo(memo(), () => printDeclaration(wide))).toBe(printDeclaration(wide));
    // A line break outside a comment (a template literal type written with one): the interface is printed whole.
    const broken: TsDeclaration = { kind: "interface", head: "export interface Broken", members: [{ key: "a", type: { kind: "keyword", text: "`x\ny`" } }, { key: "b", type: { kind: "keyword", text: "string" } }] };
    expect(withPrintMemo(memo(), () => printDeclaration(broken))).toBe(printDeclaration(broken));
  });

  it("imports: one line when they fit, one name a line when not", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(identifier, { minLength: 1, maxLength: 8 }), fc.stringMatching(/^[a-z./-]{1,90}$/), async (names, source) => {
        const text = `${printImport("import type", [...new Set(names)], source)}\n`;
        expect(await format(text, "x.d.ts")).toBe(text);
      }),
      { numRuns: 100 },
    );
  });

  it("fitsWidth looks at code, not at comments", () => {
    expect(fitsWidth(`const a = 1;\n// ${"x".repeat(200)}\n  /** ${"y".repeat(200)} */`)).toBe(true);
    expect(fitsWidth(`const a = "${"x".repeat(120)}";`)).toBe(false);
  });
});

describe("maps with keys of their own", () => {
  it("an index signature admits each named member's type, undefined and null where they may be (TS2411 before)", async () => {
    const { typeNode } = await import("../../generator/emit/ts/printer.js");
    const { Project } = await import("ts-morph");
    const at = { file: "a.md", line: 1, column: 1 };
    const attributes: TypeRef = { kind: "object", members: [{ name: "title", type: { kind: "primitive", type: "string" }, required: false, nullable: false, description: prose(""), source: at }] };
    const map: TypeRef = {
      kind: "object",
      additional: attributes,
      members: [
        { name: "TITLE", type: attributes, required: false, nullable: false, description: prose(""), source: at },
        { name: "NOTE", type: { kind: "primitive", type: "string" }, required: true, nullable: true, description: prose(""), source: at },
      ],
    };
    const text = printDeclaration({ kind: "alias", head: "export type Fields", type: typeNode(map, { resourceName: (n) => n, see: () => null }) });
    // The map's value, NOTE's `string`, `undefined` (TITLE is optional) and `null` (NOTE is nullable).
    expect(text.slice(text.indexOf("[key: string]:")).replace(/\s+/g, " ")).toBe("[key: string]: | { title?: string; } | string | undefined | null; }; ");
    const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true, noEmit: true } });
    project.createSourceFile("a.ts", text);
    expect(project.getPreEmitDiagnostics().map((d) => d.getMessageText())).toEqual([]);
  });
  it("key forms print as template literal index signatures, each with its rows' words; a member the form matches adds its type", async () => {
    const { typeNode } = await import("../../generator/emit/ts/printer.js");
    const { keyFormParts, keyFormPattern } = await import("../../generator/model/key-forms.js");
    const { Project } = await import("ts-morph");
    const at = { file: "a.md", line: 1, column: 1 };
    const str: TypeRef = { kind: "primitive", type: "string" };
    const int: TypeRef = { kind: "primitive", type: "integer" };
    const field = (name: string, type: TypeRef, words = "") => ({ name, type, required: false, nullable: false, description: prose(words), source: at });
    const fields: TypeRef = {
      kind: "object",
      members: [field("title", str), field("parentId", str)],
      keys: [field("ufCrm...", str, "Custom fields"), field("parentId...", int, "Links")],
      keyNames: ["ufCrm...", "parentId..."],
    };
    const text = printDeclaration({ kind: "alias", head: "export type Fields", type: typeNode(fields, { resourceName: (n) => n, see: () => null }) });
    // No `[key: string]`: the object is closed to keys of other forms. `parentId` is a key of `parentId...`.
    expect(text).not.toContain("[key: string]");
    expect(text).toContain("[key: `ufCrm${string}`]: string;");
    expect(text.replace(/\s+/g, " ")).toContain("[key: `parentId${string}`]: number | string | undefined;");
    expect(text).toContain("Keys of the form `ufCrm...`: Custom fields.");
    const project = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true, noEmit: true } });
    project.createSourceFile("a.ts", `${text}\nconst ok: Fields = { title: "a", ufCrm_1: "x", parentId12: 2 };\n// @ts-expect-error a key of no form\nconst no: Fields = { typeId: "x" };\nexport { ok, no };\n`);
    expect(project.getPreEmitDiagnostics().map((d) => d.getMessageText())).toEqual([]);
    // A form that is any key (`<userId>`), or whose literal parts are not name characters, is `[key: string]`.
    expect(keyFormPattern("<userId>")).toBeNull();
    expect(keyFormParts("a`b<id>")).toBeNull();
    expect(keyFormParts("chat<chatId>")).toEqual(["chat", null]);
    expect(keyFormPattern("upload{id}")).toBe("^upload.*$");
    expect(keyFormPattern("UF_CRM_...")).toBe("^UF_CRM_.*$");
    const map: TypeRef = { kind: "object", members: [], keys: [field("a`b${x}<id>", int)], keyNames: ["a`b${x}<id>"], additional: int };
    const mapText = printDeclaration({ kind: "alias", head: "export type M", type: typeNode(map, { resourceName: (n) => n, see: () => null }) });
    expect(mapText.replace(/\s+/g, " ")).toBe("export type M = { [key: string]: number; }; ");
    // Forms one inside the other (`UF_CRM_...` under `UF_...`): the wider admits the narrower's type (TS2413 otherwise).
    const nested = printDeclaration({ kind: "alias", head: "export type N", type: typeNode({ kind: "object", members: [], keys: [field("UF_...", str), field("UF_CRM_...", int)], keyNames: ["UF_...", "UF_CRM_..."] } as TypeRef, { resourceName: (n) => n, see: () => null }) });
    expect(nested.replace(/\s+/g, " ")).toContain("[key: `UF_${string}`]: string | number;");
    const nestedProject = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true, noEmit: true } });
    nestedProject.createSourceFile("n.ts", `${nested}\nexport const n: N = { UF_A: "x", UF_CRM_1: 2 };\n`);
    expect(nestedProject.getPreEmitDiagnostics().map((d) => d.getMessageText())).toEqual([]);
    // Open, a `[key: string]` beside the forms admits their types (TS2413 otherwise).
    const open = printDeclaration({ kind: "alias", head: "export type O", type: typeNode({ ...fields, open: true, additional: int } as TypeRef, { resourceName: (n) => n, see: () => null }) });
    const openProject = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true, noEmit: true } });
    openProject.createSourceFile("o.ts", open);
    expect(openProject.getPreEmitDiagnostics().map((d) => d.getMessageText())).toEqual([]);
  });
});
