import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildFromSource } from "../../generator/generate.js";
import { possibleValues } from "../../generator/reference/fields.js";
import { readRequestRates } from "../../generator/reference/limits.js";
import { readScopeList, scopeCodes } from "../../generator/reference/scopes.js";
import type { Method, TypeRef } from "../../generator/model/types.js";
import type { FragmentCache } from "../../generator/source/index.js";
import { ROOT, referenceFolder } from "../helpers.js";

/** The reference's front end (generator/reference/) over a small folder in its dialect (test/fixtures/reference-mini). */

const DIR = join(ROOT, "test/fixtures/reference-mini");
const PREFIX = "docs";

const built = buildFromSource(referenceFolder(DIR, PREFIX));
const model = built.model;
const method = (name: string): Method => {
  const m = model?.methods.find((x) => x.name === name && x.described);
  if (!m) throw new Error(`no method ${name}`);
  return m;
};
/** A strict `tsc` in `dir` over the files or globs given compiles without a word. */
function expectStrictCompile(dir: string, scope: { files: string[] } | { include: string[] }): void {
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", types: [], skipLibCheck: false }, ...scope }));
  const tsc = spawnSync(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8" });
  expect(tsc.stdout).toBe("");
  expect(tsc.status).toBe(0);
}

const stripSources = (t: TypeRef): unknown => JSON.parse(JSON.stringify(t, (k, v) => (k === "source" || k === "description" ? undefined : v)));

describe("the reference's front end over a small folder", () => {
  it("finds the method pages only, with their versions", () => {
    expect(model).not.toBeNull();
    expect(model?.methods.filter((m) => m.described).map((m) => `${m.version}:${m.name}`).sort()).toEqual(["legacy:shop.item.files", "legacy:shop.item.history", "legacy:shop.item.list", "legacy:shop.item.owners", "legacy:shop.order.delete", "legacy:shop.order.get", "v3:shop.order.fetch"]);
  });

  it("reads scope, who may call, the deprecation and its replacement, and the description", () => {
    const m = method("shop.order.get");
    expect(m.scopes).toEqual(["shop"]);
    expect(m.access).toEqual({ who: "administrator", text: "administrator" });
    expect(m.deprecated?.replacement).toBe("shop.order.fetch");
    expect(m.description).toBe("The method `shop.order.get` returns an order by its identifier.");
    expect(m.source).toEqual({ file: "docs/api-reference/shop/orders/shop-order-get.md", line: 1, column: 1 });
    // Who may call in other words is kept in them, never read as "any".
    expect(method("shop.order.delete").access?.who).toBe("owner of the shop");
  });

  it("types parameters from the catalogue, the basic words and the page's anchored tables", () => {
    const m = method("shop.order.get");
    expect(m.params.map((p) => [p.name, p.required])).toEqual([
      ["id", true],
      ["select", false],
      ["filter", false],
    ]);
    // `shop_order.id`: the member `id` of the catalogue's structure `shop_order`.
    expect(m.params[0]?.type).toEqual({ kind: "primitive", type: "integer" });
    expect(m.params[1]?.type).toEqual({ kind: "array", items: { kind: "primitive", type: "string" } });
    const filter = m.params[2];
    expect(filter?.type.kind).toBe("object");
    const members = filter?.type.kind === "object" ? filter.type.members : [];
    expect(members.map((f) => [f.name, f.nullable, f.type])).toEqual([
      ["statusId", false, { kind: "primitive", type: "string" }],
      ["userId", true, { kind: "primitive", type: "integer" }],
    ]);
    expect(members[1]?.source).toMatchObject({ file: "docs/api-reference/shop/orders/shop-order-get.md", line: 35, column: 4 });
  });

  it("reads the list of scopes: codes of one row, a scope's versions, deprecated scopes in a sentence, each at its line", () => {
    expect(model?.scopeList?.map((s) => [s.code, s.description, s.tool, s.deprecated ?? false, s.source.line])).toEqual([
      ["shop", "The shop", "Online shop", false, 7],
      ["shop_admin", "The shop's settings", "Online shop", false, 8],
      ["shop_settings", "The shop's settings", "Online shop", false, 8],
      ["stock", "Stock", "Warehouse", false, 9],
      ["stock_brief", "Stock (counts only)", "Warehouse", false, 11],
      ["stock_full", "Stock (with prices)", "Warehouse", false, 12],
      ["shop_old", "They should not be used.", "", true, 15],
      ["stock.legacy", "They should not be used.", "", true, 15],
    ]);
    // Each at the column of its code: a version's on its own line of the name cell.
    expect(model?.scopeList?.filter((s) => s.code.startsWith("stock_")).map((s) => s.source.column)).toEqual([5, 5]);
    // Every page's scope is listed: no warning. A scope the list lacks is one, at the page's Scope line.
    expect(built.diagnostics.filter((d) => d.code === "unlisted-scope")).toEqual([]);
    const files = referenceFolder(DIR, PREFIX);
    const page = `${PREFIX}/api-reference/shop/orders/shop-order-get.md`;
    const other = buildFromSource({ ...files, files: files.files.map((f) => (f.path === page ? { ...f, text: f.text.replace("> Scope: [`shop`]", "> Scope: [`shop`, `shops`]") } : f)) });
    expect(other.diagnostics.filter((d) => d.code === "unlisted-scope").map((d) => [d.file, d.line, d.message])).toEqual([[page, 3, expect.stringContaining("The method 'shop.order.get' names scope 'shops', which the platform's list of scopes")]]);
    // An event page's scope is checked too.
    const eventPage = `${PREFIX}/api-reference/shop/events/on-shop-order-add.md`;
    const event = buildFromSource({ ...files, files: files.files.map((f) => (f.path === eventPage ? { ...f, text: f.text.replace("> Scope: [`shop`]", "> Scope: [`shops`]") } : f)) });
    expect(event.diagnostics.filter((d) => d.code === "unlisted-scope").map((d) => [d.file, d.line, d.message])).toEqual([[eventPage, 3, expect.stringContaining("The event 'onShopOrderAdd' names scope 'shops'")]]);
    expect(event.model?.eventPayloads?.[0]?.scopesSource).toEqual({ file: eventPage, line: 3, column: 1 });
    // No list, no check.
    const none = buildFromSource({ ...files, files: files.files.filter((f) => !f.path.endsWith("scopes/permissions.md")) });
    expect(none.model?.scopeList).toBeUndefined();
    // Linear on hostile text: a header of many "scope" and no "code", a sentence of many "deprecated scopes" and its
    // dash on the next line (each once scanned on to the line's end by one pattern with a run between).
    const cell = (text: string) => ({ text, file: "p.md", line: 1, column: 1 });
    const started = performance.now();
    const hostile = readScopeList(
      [
        { kind: "table", rows: [[cell("scope ".repeat(40_000)), cell("Name")]], end: 0, file: "p.md", line: 1, column: 1 },
        { kind: "table", rows: [[cell("Scope Code"), cell("Scope Name")], [cell("**a**"), cell("A")]], end: 0, file: "p.md", line: 5, column: 1 },
        { kind: "text", text: `${"deprecated scopes ".repeat(40_000)}\n— x`, file: "p.md", line: 9, column: 1 },
      ],
      [],
    );
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(hostile?.map((s) => s.code)).toEqual(["a"]);
  });

  it("a scope the list marks deprecated is deprecated-scope at the page's Scope line", () => {
    const files = referenceFolder(DIR, PREFIX);
    const page = `${PREFIX}/api-reference/shop/orders/shop-order-get.md`;
    const other = buildFromSource({ ...files, files: files.files.map((f) => (f.path === page ? { ...f, text: f.text.replace("> Scope: [`shop`]", "> Scope: [`shop_old`]") } : f)) });
    expect(other.diagnostics.filter((d) => d.code === "deprecated-scope").map((d) => [d.file, d.line, d.message])).toEqual([[page, 3, expect.stringContaining("The method 'shop.order.get' names scope 'shop_old', which the platform's list of scopes")]]);
    expect(other.diagnostics.some((d) => d.code === "unlisted-scope")).toBe(false);
    expect(built.diagnostics.filter((d) => d.code === "deprecated-scope")).toEqual([]);
  });

  it("reads the request rates per plan from the limits page at the root; a row without numbers is a warning", () => {
    expect(model?.requestRates).toEqual([
      { plan: "Premium", perSecond: 10, burst: 400, source: { file: `${PREFIX}/limits.md`, line: 14, column: 4 } },
      { plan: "Basic", perSecond: 0.5, burst: 20, source: { file: `${PREFIX}/limits.md`, line: 15, column: 4 } },
    ]);
    expect(built.diagnostics.filter((d) => d.code === "unreadable-limit").map((d) => [d.file, d.line, d.column, d.message])).toEqual([
      [`${PREFIX}/limits.md`, 16, 4, "Cannot read the request-rate row 'Trial | a few | 10': the requests drained a second are not a number; the model does not have it"],
    ]);
    // No limits page, no rates; a page of other tables gives none either.
    const files = referenceFolder(DIR, PREFIX);
    expect(buildFromSource({ ...files, files: files.files.filter((f) => !f.path.endsWith("/limits.md")) }).model?.requestRates).toBeUndefined();
    const cell = (text: string) => ({ text, file: "p.md", line: 1, column: 1 });
    // A limits page whose table is not found says so at its first line: the model's rates are not lost unsaid.
    const noTable: Parameters<typeof readRequestRates>[1] = [];
    expect(readRequestRates([{ kind: "table", rows: [[cell("Error"), cell("Reason"), cell("What to do")], [cell("a"), cell("b"), cell("c")]], end: 0, file: "p.md", line: 1, column: 1 }], noTable)).toBeNull();
    expect(noTable.map((d) => [d.code, d.line])).toEqual([["unreadable-limit", 1]]);
    const withoutLimits = buildFromSource({ ...files, files: files.files.map((f) => (f.path.endsWith("/limits.md") ? { ...f, text: "# REST API Limits\n\nNo table here.\n" } : f)) });
    expect(withoutLimits.model?.requestRates).toBeUndefined();
    expect(withoutLimits.diagnostics.filter((d) => d.code === "unreadable-limit").map((d) => [d.file, d.line])).toEqual([[`${PREFIX}/limits.md`, 1]]);
    // A row too short to hold a plan cell is said too.
    const short: Parameters<typeof readRequestRates>[1] = [];
    readRequestRates([{ kind: "table", rows: [[cell("Rate"), cell("Limit"), cell("Tariff")], [cell("2 per sec"), cell("50")]], end: 0, file: "p.md", line: 1, column: 1 }], short);
    expect(short.map((d) => d.message)).toEqual([expect.stringContaining("the row has no plan cell")]);
    // Linear on hostile cells: a header of many words and a cell of many digits and spaces.
    const started = performance.now();
    const diagnostics: Parameters<typeof readRequestRates>[1] = [];
    const hostile = readRequestRates(
      [
        { kind: "table", rows: [[cell("tariff ".repeat(40_000)), cell("rate ".repeat(40_000)), cell("limit ".repeat(40_000))], [cell("P"), cell(`${"1 ".repeat(40_000)}x`), cell("9".repeat(40_000))]], end: 0, file: "p.md", line: 1, column: 1 },
      ],
      diagnostics,
    );
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(hostile).toEqual([]);
    expect(diagnostics.map((d) => d.code)).toEqual(["unreadable-limit"]);
  });

  it("a Scope line's codes end where its words begin: the words are the scope's note", () => {
    expect(scopeCodes("[`crm`](../scopes/permissions.md)")).toEqual({ names: ["crm"], rest: "" });
    expect(scopeCodes("[`user`](x), [`user_brief`](x) and `user_basic`")).toEqual({ names: ["user", "user_brief", "user_basic"], rest: "" });
    expect(scopeCodes("[`placement`, `depending on the placement`](../scopes/permissions.md)")).toEqual({ names: ["placement"], rest: "`depending on the placement`" });
    expect(scopeCodes("[`userfieldconfig`](x), module scope from `moduleId` (for example, [`crm`](x))")).toEqual({ names: ["userfieldconfig"], rest: "module scope from `moduleId` (for example, `crm`)" });
    expect(scopeCodes("any")).toEqual({ names: [], rest: "any" });
    // Several codes in one pair of backticks, and a comma before "and".
    expect(scopeCodes("[`placement, crm`](x)")).toEqual({ names: ["placement", "crm"], rest: "" });
    expect(scopeCodes("`a`, `b`, and `c`")).toEqual({ names: ["a", "b", "c"], rest: "" });
    // Linear on a long line of spaces and commas that never reaches a code.
    const started = performance.now();
    expect(scopeCodes(`\`a\`${" ".repeat(200_000)},${" ".repeat(200_000)}x`).names).toEqual(["a"]);
    // Links never closed: `[a](` over and over (each `[` once scanned to the line's end).
    expect(scopeCodes(`\`a\` ${"[a](".repeat(50_000)}`).names).toEqual(["a"]);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("reads the 3.0 error body from its include: dotted rows nested under the member their first name says", () => {
    // The mini's `_includes/error-info-v3.md` has the one row `error.code`: `error` is the object that name says.
    expect(stripSources({ kind: "object", members: model?.envelope?.v3ErrorBody ?? [] })).toEqual({ kind: "object", members: [{ name: "error", type: { kind: "object", members: [{ name: "code", type: { kind: "primitive", type: "string" }, required: false, nullable: false }] }, required: false, nullable: false }] });
    expect(model?.envelope?.v3ErrorBody?.[0]?.source).toEqual({ file: "docs/_includes/error-info-v3.md", line: 6, column: 4 });
    const files = referenceFolder(DIR, PREFIX);
    const withBody = (text: string) => buildFromSource({ ...files, files: files.files.map((f) => (f.path.endsWith("_includes/error-info-v3.md") ? { ...f, text } : f)) });
    const table = (rows: string) => `### Returned Error Information\n\n#|\n|| **Name**\n\`type\` | **Description** ||\n${rows}\n|#\n`;
    const deep = withBody(table("|| **error.code**\n`string` | Code ||\n|| **error.validation**\n`array` | Details ||\n|| **error.validation[].field**\n`string` | Field ||"));
    const body = deep.model?.envelope?.v3ErrorBody;
    const error = body?.[0]?.type;
    expect(error?.kind === "object" ? error.members.map((m) => [m.name, m.type.kind === "array" ? m.type.items : m.type.kind]) : null).toEqual([
      ["code", "primitive"],
      ["validation", { kind: "object", members: [expect.objectContaining({ name: "field", type: { kind: "primitive", type: "string" } })] }],
    ]);
    // A table of no known columns is a warning at the include, and no body (the types keep it "not shown").
    const odd = withBody("#|\n|| **Something** | **Else** ||\n|| a | b ||\n|#\n");
    expect(odd.model?.envelope?.v3ErrorBody).toBeUndefined();
    expect(odd.diagnostics.filter((d) => d.code === "unknown-table-column" && d.file.endsWith("error-info-v3.md"))).toHaveLength(1);
    // No include, no body and no warning.
    const none = buildFromSource({ ...files, files: files.files.filter((f) => !f.path.endsWith("error-info-v3.md")) });
    expect(none.model?.envelope?.v3ErrorBody).toBeUndefined();
    // The legacy body is its include's table too, each member at its row; a member added there is in the model.
    expect(model?.envelope?.legacyErrorBody.map((f) => [f.name, f.type, f.source.file, f.source.line])).toEqual([
      ["error", { kind: "primitive", type: "string" }, "docs/_includes/error-info.md", 6],
      ["error_description", { kind: "primitive", type: "string" }, "docs/_includes/error-info.md", 8],
    ]);
    // Without the legacy include the body states nothing: no member, no guess.
    const noLegacy = buildFromSource({ ...files, files: files.files.filter((f) => !f.path.endsWith("_includes/error-info.md")) });
    expect(noLegacy.model?.envelope?.legacyErrorBody).toEqual([]);
    const more = buildFromSource({ ...files, files: files.files.map((f) => (f.path.endsWith("_includes/error-info.md") ? { ...f, text: `${f.text.replace(/\|#\s*$/, "")}|| **error_details**\n\`string\`| Details ||\n|#\n` } : f)) });
    expect(more.model?.envelope?.legacyErrorBody.map((f) => f.name)).toEqual(["error", "error_description", "error_details"]);
  });

  it("reads result's members from the rows beside it, nests dotted rows, and says which way it read rows that nest flat", () => {
    const type = (name: string) => stripSources(method(name).result?.type as TypeRef);
    const int = { kind: "primitive", type: "integer" };
    const str = { kind: "primitive", type: "string" };
    // `result` a bare object, then `items` and `count`: result's own members. `shop_item` is both an identifier in
    // the table of words and a structure: either, said once where the word is defined.
    expect(type("shop.item.list")).toEqual({
      kind: "object",
      members: [
        { name: "items", type: { kind: "array", items: { kind: "union", options: [int, { kind: "ref", resource: "ShopItem" }] } }, required: false, nullable: false },
        { name: "count", type: int, required: false, nullable: false },
      ],
    });
    // A parameter typed by such a word is the identifier.
    expect(method("shop.item.list").params[0]?.type).toEqual(int);
    // `result.events[].eventId`: the rows say where they nest.
    expect(type("shop.item.history")).toEqual({
      kind: "object",
      members: [{ name: "events", type: { kind: "array", items: { kind: "object", members: [{ name: "eventId", type: int, required: false, nullable: false }, { name: "kind", type: str, required: false, nullable: false }] } }, required: false, nullable: false }],
    });
    // A bare `array` then member rows: one object of them or a list of such objects, both, with a warning.
    const file = { kind: "object", members: [{ name: "fileId", type: int, required: false, nullable: false }, { name: "name", type: str, required: false, nullable: false }] };
    expect(type("shop.item.files")).toEqual({ kind: "union", options: [file, { kind: "array", items: file }] });
    // `owners`, `owners[]` (a bare object), then `userId`, `name` flat: read as the owners' members, and said so.
    expect(type("shop.item.owners")).toEqual({
      kind: "object",
      members: [{ name: "owners", type: { kind: "array", items: { kind: "object", members: [{ name: "userId", type: int, required: false, nullable: false }, { name: "name", type: str, required: false, nullable: false }] } }, required: false, nullable: false }],
    });
    const warned = (code: string, file: string) => built.diagnostics.filter((d) => d.code === code && d.file.endsWith(file)).map((d) => d.message);
    expect(warned("unplaced", "shop-item-owners.md")).toEqual([]);
    expect(warned("ambiguous-reading", "shop-item-owners.md")).toEqual([expect.stringContaining("read as the 2 rows after it as the members of its items")]);
    expect(warned("ambiguous-reading", "shop-item-files.md")).toHaveLength(1);
    expect(warned("ambiguous-reading", "shop/data-types.md")).toEqual([expect.stringContaining("shop_item")]);
  });

  it("a row beside a flag `result` is kept as the member of an object it may be, and the reading says so", () => {
    // shop.order.delete: `result` a boolean, then a row `order`. It was dropped (warned `unplaced`); the platform's
    // tasks.task.delete answers such a row's object (`{"task": true}`), so the result is the flag or that object.
    const at = (code: string) => built.diagnostics.filter((d) => d.code === code && d.file.endsWith("shop-order-delete.md")).map((d) => [d.line, d.message]);
    expect(at("unplaced")).toEqual([]);
    expect(at("ambiguous-reading")).toEqual([[31, expect.stringContaining("result: boolean or string or integer, then 1 member rows (order)")]]);
    const t = method("shop.order.delete").result?.type;
    expect(t?.kind === "union" ? t.options.map((o) => (o.kind === "object" ? o.members.map((f) => f.name) : o.kind)) : t).toEqual(["primitive", "primitive", "primitive", ["order"]]);
  });

  it("reads the result through its anchor, and the catalogue's structures as resources", () => {
    const r = method("shop.order.get").result;
    expect(stripSources(r?.type as TypeRef)).toEqual({ kind: "object", members: [{ name: "order", type: { kind: "ref", resource: "ShopOrder" }, required: false, nullable: false }] });
    const order = model?.resources.find((x) => x.name === "ShopOrder");
    expect(order?.source.file).toBe("docs/api-reference/shop/data-types.md");
    expect(order?.type.kind === "object" ? order.type.members.map((f) => f.name) : []).toEqual(["id", "statusId"]);
  });

  it("reads the errors in their layouts, and the system errors include as the catalogue", () => {
    expect(method("shop.order.get").errors.map((e) => [e.code, e.status, e.text, e.cause])).toEqual([
      // "HTTP Status: **400**" above the error example is the example's; the table gives no status.
      ["", null, "ID is not defined", "The `id` parameter is missing"],
      ["ACCESS_DENIED", null, "Access denied", "No right to read orders"],
    ]);
    expect(method("shop.order.fetch").errors).toMatchObject([{ code: "BITRIX_REST_V3_EXCEPTION_VALIDATION_REQUESTVALIDATIONEXCEPTION", text: "Required field id is missing", trigger: { parameter: "id" } }]);
    expect(model?.errors.catalogue.map((e) => [e.code, e.status, e.text])).toEqual([
      ["INTERNAL_SERVER_ERROR", 500, "Internal server error"],
      ["QUERY_LIMIT_EXCEEDED", 503, "Too many requests"],
    ]);
    expect(method("shop.order.delete").errorsOpen?.reason).toMatch(/lists no errors/);
  });

  it("warns, at their positions, what it cannot place: a table nothing links to, an unknown type word, a title that is not the URL's method", () => {
    const w = built.diagnostics.map((d) => `${d.file.replace(`${PREFIX}/api-reference/shop/`, "")}:${d.line}:${d.column} ${d.code}`);
    expect(w).toEqual(
      expect.arrayContaining([
        "orders/shop-order-get.md:81:1 unplaced",
        "orders/shop-order-delete.md:14:4 unknown-type-word",
        "orders/shop-order-delete.md:1:1 title-method-mismatch",
      ]),
    );
    expect(built.diagnostics.find((d) => d.code === "title-method-mismatch")?.message).toBe(
      "The page's title names 'shop.order.remove' but its request URLs call shop.order.delete; read as 'shop.order.delete' (the name the page's file is named after)",
    );
    // Nothing else: the overview page and the includes give no warning (those of the items' pages and the ledger's
    // are in their own tests; the limits page's row without numbers is in the request rates' test).
    expect(built.diagnostics).toHaveLength(8);
  });

  it("points @see at the page's public URL and ships no copy of the folder", () => {
    expect(model?.publicPages).toEqual({ base: "https://apidocs.bitrix24.com/", root: "docs/" });
  });
});

describe("near misses and the summary of a folder's warnings", () => {
  const page = (type: string) =>
    ["# Get a Thing thing.get", "", "> Scope: [`thing`](x)", "", "## Method Parameters", "", "#|", "|| **Name**", "`type` | **Description** ||", "|| **id***", `[\`${type}\`](../data-types.md) | Identifier ||`, "|#", ""].join("\n");
  const read = (type: string) =>
    buildFromSource({
      root: "r",
      files: [
        { path: "r/api-reference/data-types.md", text: readFileSync(join(DIR, "api-reference/data-types.md"), "utf8") },
        { path: "r/api-reference/things/thing-get.md", text: page(type) },
      ],
    });

  it("a type word two edits from a known one is a warning that says which (D31: a warning in the reference)", () => {
    const d = read("integr").diagnostics;
    expect(d.map((x) => [x.code, x.severity, x.line, x.message])).toEqual([["near-type-word", "warning", 10, "Unknown type word 'integr'; did you mean 'integer'? Read as unknown"]]);
    // The parameter stays unknown: a near miss is reported, never read as the word it resembles.
    expect(read("integr").model?.methods[0]?.params[0]?.type.kind).toBe("unknown");
    expect(read("gizmo").diagnostics.map((x) => x.code)).toEqual(["unknown-type-word"]);
  });

  it("counts warnings per code and per area", async () => {
    const { summarizeDiagnostics } = await import("../../generator/diagnostics/format.js");
    expect(summarizeDiagnostics(built.diagnostics)).toBe(
      "8 warning(s), 0 error(s) by code: ambiguous-reading 4, title-method-mismatch 1, unknown-type-word 1, unplaced 1, unreadable-limit 1\n8 warning(s), 0 error(s) by area: shop 7, docs 1\n",
    );
    expect(summarizeDiagnostics([])).toBe("");
  });
});

describe("requirements the pages write in words (decisions.md D8)", () => {
  const text = [
    "# Finish a Call telephony.externalCall.finish",
    "",
    "> Scope: [`telephony`](x)",
    "",
    "## Method Parameters",
    "",
    "At least one of the parameters must be specified: `USER_ID` or `USER_PHONE_INNER`",
    "",
    "#|",
    "|| **Name**",
    "`type` | **Description** ||",
    "|| **USER_ID***",
    "[`integer`](../data-types.md) | The user ||",
    "|| **USER_PHONE_INNER***",
    "[`string`](../data-types.md) | The inner number ||",
    "|| **CODE***",
    "[`string`](../data-types.md) | Required only for webhooks ||",
    "|| **DIALOG_ID**",
    "[`string`](../data-types.md) | The dialog ||",
    "|| **CHAT_ID**",
    "[`integer`](../data-types.md) | Required if `DIALOG_ID` is not provided ||",
    "|#",
    "",
  ].join("\n");
  const built = buildFromSource({ kind: "reference", root: "r", files: [{ path: "r/api-reference/telephony/finish.md", text }] });
  const m = built.model?.methods[0];

  it("an 'at least one of' over starred parameters makes neither required on its own, and says so", () => {
    expect(m?.constraints.filter((c) => c.kind === "at-least-one").map((c) => c.params)).toEqual([
      ["USER_ID", "USER_PHONE_INNER"],
      ["CHAT_ID", "DIALOG_ID"],
    ]);
    expect(m?.params.map((p) => [p.name, p.required])).toEqual([
      ["USER_ID", false],
      ["USER_PHONE_INNER", false],
      ["CODE", false],
      ["DIALOG_ID", false],
      ["CHAT_ID", false],
    ]);
    expect(built.diagnostics.filter((d) => d.code === "ambiguous-reading").map((d) => [d.line, d.related?.line])).toEqual([
      [7, 12],
      [7, 14],
      [16, 16],
    ]);
  });

  it("'required only for …' is a condition of the parameter, kept in the page's words", () => {
    expect(m?.constraints.find((c) => c.kind === "required-when")).toMatchObject({ params: ["CODE"], condition: "for webhooks" });
  });
});

describe("event pages", () => {
  it("read an event's payload: dotted rows nested, members through anchors, the code as the handler receives it", () => {
    const events = model?.eventPayloads ?? [];
    expect(events.map((e) => [e.name, e.code, e.scopes])).toEqual([["onShopOrderAdd", "ONSHOPORDERADD", ["shop"]]]);
    const strip = (x: unknown) => JSON.parse(JSON.stringify(x, (k, v) => (k === "source" || k === "description" ? undefined : v)));
    expect(strip(events[0]?.fields)).toEqual([
      { name: "event", type: { kind: "primitive", type: "string" }, required: false, nullable: false },
      { name: "data", type: { kind: "object", members: [{ name: "FIELDS", type: { kind: "object", members: [{ name: "ID", type: { kind: "primitive", type: "integer" }, required: false, nullable: false }] }, required: false, nullable: false }], open: true }, required: false, nullable: false },
      { name: "ts", type: { kind: "primitive", type: "number" }, required: false, nullable: false },
      { name: "auth", type: { kind: "object", members: [{ name: "application_token", type: { kind: "primitive", type: "string" }, required: false, nullable: false }, { name: "member_id", type: { kind: "primitive", type: "string" }, required: false, nullable: false }] }, required: false, nullable: false },
    ]);
    expect(events[0]?.source).toEqual({ file: "docs/api-reference/shop/events/on-shop-order-add.md", line: 1, column: 1 });
  });

  // 19 pages of the reference named their event first or mid-title ("ONVOXIMPLANTCALLINIT Call Initialization
  // Event", "When the OnCalendarEntryUpdate Event Changes") and were read as nothing, with no warning; 29 put the
  // payload's table under "## Parameters" after a handler's section of JSON alone, and were read without a payload.
  const eventPage = `${PREFIX}/api-reference/shop/events/on-shop-order-add.md`;
  const files = referenceFolder(DIR, PREFIX);
  const withPage = (edit: (text: string) => string) => buildFromSource({ ...files, files: files.files.map((f) => (f.path === eventPage ? { ...f, text: edit(f.text) } : f)) });
  const names = (fields: readonly { name: string }[] | undefined) => (fields ?? []).map((f) => f.name);

  it("an event's name is read in linear time: a long word of `.ON` is none", () => {
    const started = performance.now();
    const got = withPage((t) => t.replace("# Event When an Order Is Added onShopOrderAdd", `# ${"A" + ".ON".repeat(100_000)}a`));
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(got.model?.eventPayloads).toBeUndefined();
    const dotted = withPage((t) => t.replace("# Event When an Order Is Added onShopOrderAdd", "# Event When an Order Is Added SHOP.ORDER.ON.ADD"));
    expect(dotted.model?.eventPayloads?.map((e) => e.code)).toEqual(["SHOP.ORDER.ON.ADD"]);
  });

  it("an event's name anywhere in the title names the page's event, when it is the title's only one", () => {
    for (const title of ["# OnShopOrderAdd Event When an Order Is Added", "# When the OnShopOrderAdd Event Fires"]) {
      const got = withPage((t) => t.replace("# Event When an Order Is Added onShopOrderAdd", title));
      expect(got.model?.eventPayloads?.map((e) => [e.name, e.code]), title).toEqual([["OnShopOrderAdd", "ONSHOPORDERADD"]]);
      expect(names(got.model?.eventPayloads?.[0]?.fields)).toEqual(["event", "data", "ts", "auth"]);
    }
    // Two names: no event is guessed; the handler's section is a warning at its heading.
    const two = withPage((t) => t.replace("# Event When an Order Is Added onShopOrderAdd", "# OnShopOrderAdd or OnShopOrderUpdate Fires"));
    expect(two.model?.eventPayloads).toBeUndefined();
    expect(two.diagnostics.filter((d) => d.code === "unplaced" && d.file === eventPage).map((d) => [d.file, d.line, d.message])).toEqual([[eventPage, 9, expect.stringContaining(`Cannot place the "What the Handler Receives" section: the page's title names no event`)]]);
  });

  it("a handler's section on a page that names no event (a placement's, an overview's) is a warning at its heading", () => {
    const got = withPage((t) => t.replace("# Event When an Order Is Added onShopOrderAdd", "# Order Card Placement"));
    expect(got.model?.eventPayloads).toBeUndefined();
    expect(got.diagnostics.filter((d) => d.code === "unplaced" && d.file === eventPage).map((d) => [d.line, d.column])).toEqual([[9, 1]]);
  });

  it("a JS interface event's handler section says that is why it is not typed, not that the title names no event", () => {
    const got = withPage((t) => t.replace("# Event When an Order Is Added onShopOrderAdd", "# When Clicking the Button BackgroundCallCard::answerButtonClick\n\nThis is a JS interface event, not a REST event: you cannot subscribe to it with a request to `/rest/`."));
    expect(got.model?.eventPayloads).toBeUndefined();
    const said = got.diagnostics.filter((d) => d.code === "unplaced" && d.file === eventPage).map((d) => d.message);
    expect(said).toEqual([expect.stringContaining("BackgroundCallCard::answerButtonClick is a JS interface event, not a REST event")]);
    // Without the page's words, the name alone is no reason: the general warning.
    const bare = withPage((t) => t.replace("# Event When an Order Is Added onShopOrderAdd", "# When Clicking the Button BackgroundCallCard::answerButtonClick"));
    expect(bare.diagnostics.filter((d) => d.code === "unplaced" && d.file === eventPage).map((d) => d.message)).toEqual([expect.stringContaining("the page's title names no event")]);
  });

  it("takes the payload's table from the Parameters section after a handler's section of JSON alone", () => {
    const json = ["```json", '{"event": "ONSHOPORDERADD", "data": {"FIELDS": {"ID": 1}}}', "```", ""].join("\n");
    for (const heading of ["## Parameters", "## Request Parameters"]) {
      const got = withPage((t) => t.replace("Data is transmitted as a POST request {.b24-info}\n\n#|", `Data is transmitted as a POST request {.b24-info}\n\n${json}\n${heading}\n\n#|`));
      expect(names(got.model?.eventPayloads?.[0]?.fields), heading).toEqual(["event", "data", "ts", "auth"]);
      expect(got.diagnostics.filter((d) => d.code === "unplaced" && d.file === eventPage)).toEqual([]);
    }
    // Another section after it is not the payload's: the page has none, and says so.
    const other = withPage((t) => t.replace("Data is transmitted as a POST request {.b24-info}\n\n#|", `Data is transmitted as a POST request {.b24-info}\n\n${json}\n## Examples\n\n#|`));
    expect(other.model?.eventPayloads?.[0]?.fields).toEqual([]);
    expect(other.diagnostics.filter((d) => d.code === "unplaced" && d.file === eventPage).map((d) => d.message)).toEqual([expect.stringContaining("its \"What the Handler Receives\" section has no field table")]);
  });
});

describe("widget pages: placements", () => {
  const bind = ["# Register a Widget placement.bind", "", "> Scope: [`placement`](x)", "", "## Method Parameters", "", "#|", "|| **Name**", "`type` | **Description** ||", "|| **PLACEMENT***", "[`string`](../data-types.md) | Code of the placement ||", "|#", ""].join("\n");
  // With a method page beside them: a folder of no method at all is no-methods.
  const read = (files: Record<string, string>) => buildFromSource({ kind: "reference", root: "r", files: Object.entries({ "api-reference/widgets/placement-bind.md": bind, ...files }).map(([path, text]) => ({ path: `r/${path}`, text })) });
  const widget = (title: string, codes: string[], options: string) =>
    [
      `# ${title}`,
      "",
      "> Scope: [`placement, shop`](../scopes/permissions.md)",
      "",
      "The widget adds a tab to the order card.",
      "",
      ...(codes.length > 0 ? ["## Where the Widget is Embedded", "", "#|", "|| **Placement Code** | **Location** ||", ...codes.map((c) => `|| \`${c}\` | A card ||`), "|#", ""] : []),
      "## What the Handler Receives",
      "",
      "Data is sent in a POST request {.b24-info}",
      "",
      "### PLACEMENT_OPTIONS",
      "",
      options,
      "",
      "## Continue Learning",
      "",
    ].join("\n");
  const table = ["#|", "|| **Parameter** | **Description** ||", "|| **ID***", "[`string`](../data-types.md) | The order ||", "|| **Keys from `params`**", "[`string`](../data-types.md) | The link's values ||", "|#"].join("\n");

  it("reads the codes of the Placement Code table (a family's XXX kept), the options' table, and gives placement.bind the codes", () => {
    const got = read({ "api-reference/widgets/order-tab.md": widget("Order Card Tab SHOP_XXX_ORDER_TAB", ["SHOP_ORDER_TAB", "SHOP_DYNAMIC_XXX_ORDER_TAB"], table) });
    const p = got.model?.placements;
    expect(p?.map((x) => [x.codes, x.scopes, x.description, x.source.line])).toEqual([[["SHOP_ORDER_TAB", "SHOP_DYNAMIC_XXX_ORDER_TAB"], ["placement", "shop"], "The widget adds a tab to the order card.", 1]]);
    expect(p?.[0]?.options.map((f) => [f.name, f.required])).toEqual([["ID", true]]);
    // A row of several words is a label, not a key: a warning, never a member named "Keys from `params`".
    expect(got.diagnostics.filter((d) => d.code === "unreadable-parameter").map((d) => d.message)).toEqual([expect.stringContaining("**Keys from `params`**")]);
    const param = got.model?.methods.find((m) => m.name === "placement.bind")?.params[0]?.type;
    // The family's code is no value a call sends: only the exact codes are known values, an open set.
    expect(param).toMatchObject({ kind: "primitive", type: "string", enum: ["SHOP_ORDER_TAB"], openEnum: true });
  });

  it("takes the title's codes without a table; a page saying its placement has no keys has none, without a warning", () => {
    const got = read({ "api-reference/widgets/menu.md": widget("Item in the Main Menu SHOP_MENU, SHOP_SIDE_MENU", [], "This placement has no own keys. The context carries only the universal `URI` key.") });
    expect(got.model?.placements?.map((x) => [x.codes, x.options])).toEqual([[["SHOP_MENU", "SHOP_SIDE_MENU"], []]]);
    expect(got.diagnostics.filter((d) => d.code === "unplaced")).toEqual([]);
    // Words that say nothing of keys, and no table: a warning at the section's heading.
    const silent = read({ "api-reference/widgets/menu.md": widget("Item in the Main Menu SHOP_MENU", [], "The value is a JSON string.") });
    expect(silent.diagnostics.filter((d) => d.code === "unplaced").map((d) => [d.line, d.message])).toEqual([[11, expect.stringContaining("Cannot place the PLACEMENT_OPTIONS of SHOP_MENU: the section has no field table")]]);
  });

  it("a code on two pages is the first page's; the second says so", () => {
    const got = read({ "api-reference/widgets/a.md": widget("Tab SHOP_ORDER_TAB", [], table), "api-reference/widgets/b.md": widget("Tab Again SHOP_ORDER_TAB, SHOP_OTHER_TAB", [], table) });
    expect(got.model?.placements?.map((x) => [x.source.file, x.codes])).toEqual([["r/api-reference/widgets/a.md", ["SHOP_ORDER_TAB"]], ["r/api-reference/widgets/b.md", ["SHOP_OTHER_TAB"]]]);
    expect(got.diagnostics.filter((d) => d.code === "duplicate-page").map((d) => [d.file, d.message])).toEqual([["r/api-reference/widgets/b.md", expect.stringContaining("Placement 'SHOP_ORDER_TAB' has a page already (r/api-reference/widgets/a.md:1)")]]);
  });

  it("a family's pattern that another page's exact code matches takes that page's options too: the types compile", () => {
    const dir = mkdtempSync(join(tmpdir(), "crc-placements-"));
    try {
      const ent = ["#|", "|| **Parameter** | **Description** ||", "|| **ENTITY_ID***", "[`integer`](../data-types.md) | The entity ||", "|#"].join("\n");
      const pages: Record<string, string> = { "api-reference/widgets/placement-bind.md": bind, "api-reference/widgets/a.md": widget("Order Tab SHOP_ORDER_TAB", [], table), "api-reference/widgets/b.md": widget("Any Tab SHOP_XXX_TAB", [], ent) };
      for (const [path, text] of Object.entries(pages)) {
        mkdirSync(join(dir, "r", path, ".."), { recursive: true });
        writeFileSync(join(dir, "r", path), text);
      }
      const gen = spawnSync(process.execPath, [join(ROOT, "dist/generator/cli/main.js"), "generate", "--spec", join(dir, "r"), "--out", join(dir, "out")], { cwd: dir, encoding: "utf8" });
      expect(gen.status, gen.stderr).toBe(0);
      const common = readFileSync(join(dir, "out/types/common.d.ts"), "utf8");
      expect(common).toMatch(/\[code: `SHOP_\$\{string\}_TAB`\]:\s*\|?\s*\{/);
      writeFileSync(join(dir, "use.ts"), ['import type { PlacementOptions } from "./out/types/common.js";', 'export const a: PlacementOptions["SHOP_ORDER_TAB"] = { ID: "5" };', 'export const b: PlacementOptions["SHOP_OTHER_TAB"] = { ENTITY_ID: 5 };', ""].join("\n"));
      expectStrictCompile(dir, { files: ["use.ts"] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("a code is capitals, digits and underscores: anything else in the table is not read as one (it prints into the types as it is)", () => {
    const got = read({ "api-reference/widgets/x.md": widget("Tab", ["SHOP_TAB`]: string; x: `", "shop_tab", "SHOP TAB", "SHOP_OK_TAB"], table) });
    // The backticked cell's words are split: its code-shaped word is read, its brackets and quotes are not.
    expect(got.model?.placements?.[0]?.codes).toEqual(["SHOP_TAB", "SHOP_OK_TAB"]);
    for (const c of got.model?.placements?.[0]?.codes ?? []) expect(c).toMatch(/^[A-Z][A-Z0-9_]*$/);
  });
});

describe("readings the review of issue 28 found wrong", () => {
  const read = (files: Record<string, string>) => buildFromSource({ kind: "reference", root: "r", files: Object.entries(files).map(([path, text]) => ({ path: `r/${path}`, text })) });
  const page = (rows: string, extra = "") =>
    ["# Get a Thing thing.get", "", "> Scope: [`thing`](x)", "", "## Method Parameters", "", "#|", "|| **Name**", "`type` | **Description** ||", rows, "|#", "", extra].join("\n");

  it("a title and the examples' URLs that name two methods: the page's file name decides, else the title stands", () => {
    const withCall = (title: string, url: string) => `${page("|| **id**\n[`integer`](x) | Id ||").replace("# Get a Thing thing.get", `# Delete a Thing ${title}`)}\n## Code Examples\n\n\`\`\`bash\ncurl https://example.bitrix24.com/rest/${url}\n\`\`\`\n`;
    const nameOf = (path: string, title: string, url: string) => {
      const r = read({ [path]: withCall(title, url) });
      return [r.model?.methods.filter((m) => m.described).map((m) => m.name), r.diagnostics.find((d) => d.code === "title-method-mismatch")?.message];
    };
    // department.delete: the title's typo ("department.department.delete"), the file and the URL agree.
    expect(nameOf("api-reference/things/thing-delete.md", "thing.thing.delete", "thing.delete")).toEqual([["thing.delete"], expect.stringContaining("read as 'thing.delete' (the name the page's file is named after)")]);
    // crm.invoice.userfield.add: the URLs copied from another page; the file is the title's.
    expect(nameOf("api-reference/things/thing-user-field-add.md", "thing.userfield.add", "thing.list")).toEqual([["thing.userfield.add"], expect.stringContaining("read as 'thing.userfield.add' (the title's)")]);
    // The file names neither: the title, as before.
    expect(nameOf("api-reference/things/other.md", "thing.remove", "thing.delete")).toEqual([["thing.remove"], expect.stringContaining("read as 'thing.remove' (the title's)")]);
  });

  it("a link to a broader section that holds one named after the field is that sub-section (sale.paysystem.handler.add's FORM_DATA)", () => {
    const tbl = (...rows: string[]) => ["#|", "|| **Name**\n`type` | **Description** ||", ...rows, "|#"].join("\n");
    const mode = ["## Form Operating Mode {#form}", "", "Two system keys are sent with the form:", "", tbl("|| **BX_RETURN_URL**\n[`string`](x) | Where to return ||"), "", "### Parameters Passed When Adding a Handler in the FORM_DATA Array", "", tbl("|| **ACTION_URI***\n[`string`](x) | Where the form goes ||"), ""].join("\n");
    const text = page("|| **FORM_DATA**\n[`object`](x) | Form settings for the [form](#form) mode ||", mode);
    const r = read({ "api-reference/things/thing-get.md": text });
    // Read through the link alone, FORM_DATA was the keys the platform sends to ACTION_URI.
    expect(stripSources(r.model?.methods[0]?.params[0]?.type as TypeRef)).toEqual({ kind: "object", members: [{ name: "ACTION_URI", type: { kind: "primitive", type: "string" }, required: true, nullable: false }] });
    // The keys' table the link leads to first is read by nothing now, and said (review: it was counted as read).
    expect(r.diagnostics.filter((d) => d.code === "unplaced").map((d) => d.message)).toEqual([expect.stringContaining("'Form Operating Mode' (1 rows)")]);
    // A section named after the field elsewhere, outside the linked one, is not taken over the link.
    const outside = text.replace("### Parameters Passed", "## Other\n\n### Parameters Passed");
    expect(stripSources(read({ "api-reference/things/thing-get.md": outside }).model?.methods[0]?.params[0]?.type as TypeRef)).toEqual({ kind: "object", members: [{ name: "BX_RETURN_URL", type: { kind: "primitive", type: "string" }, required: false, nullable: false }] });
  });

  it("'The keys are …, and the values are …' makes the object a map of its rows, in a cell or in its section's words", () => {
    const settings = "### Settings {#settings}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **TYPE**\n[`string`](x) | Type ||\n|#\n";
    const typeOf = (words: string, section = settings) => stripSources(read({ "api-reference/things/thing-get.md": page(`|| **SETTINGS**\n[\`object\`](x) | ${words} ||`, section) }).model?.methods[0]?.params[0]?.type as TypeRef);
    const value = { kind: "object", members: [{ name: "TYPE", type: { kind: "primitive", type: "string" }, required: false, nullable: false }] };
    const map = { kind: "object", members: [], additional: value };
    expect(typeOf("Settings. The keys are the names of the settings, and the values are objects described [below](#settings)")).toEqual(map);
    expect(typeOf("Settings (described [below](#settings)).\n\nThe key is the setting code, the value is the description of the setting")).toEqual(map);
    expect(typeOf("List of handler parameters. Keys are parameter codes (`string`), values are parameter descriptions ([below](#settings))")).toEqual(map);
    // The section's own words before its table.
    expect(typeOf("Settings ([below](#settings))", settings.replace("#|", "The key is the field code used as its name. The values are the field parameter objects.\n\n#|"))).toEqual(map);
    // Words about keys that name no values, or an object described plainly, stay the object.
    expect(typeOf("Settings ([below](#settings)). The keys are mutually exclusive")).toEqual(value);
    expect(typeOf("Settings ([below](#settings))")).toEqual(value);
  });

  it("words that say an object's keys are identifiers or codes make its rows each value of a map (imopenlines' QUEUE_FULL, imbot.bot.list)", () => {
    const queue = "### Queue {#queue}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **ID**\n[`integer`](x) | Id ||\n|#\n";
    const typeOf = (words: string, name = "QUEUE") => stripSources(read({ "api-reference/things/thing-get.md": page(`|| **${name}**\n[\`object\`](x) | ${words} ||`, queue) }).model?.methods[0]?.params[0]?.type as TypeRef);
    const one = { kind: "object", members: [{ name: "ID", type: { kind: "primitive", type: "integer" }, required: false, nullable: false }] };
    const map = (value: unknown) => ({ kind: "object", members: [], additional: value, keyDescription: "identifier" });
    for (const words of [
      "Queue items ([details](#queue)). The key of the object is the user ID, the value is the queue",
      "An object where the top-level key is `BOT_ID`, and the value contains the bot data ([below](#queue))",
      "Found users ([below](#queue)). The key of each element equals the user identifier",
      "Regions ([below](#queue)), where the object's key is the `code` of the region",
      "Attachments ([below](#queue)). Key — attachment file identifier `ATTACHMENT_ID`",
      "Stages ([below](#queue)), with stage IDs as keys",
      "Template fields ([below](#queue)). Key — template field, value — field description",
    ]) expect([words, typeOf(words)]).toEqual([words, map(one)]);
    // "The value is an array of objects": each value a list of them (calendar.accessibility.get).
    expect(typeOf("Events ([below](#queue)). The key of the object is the user ID. The value is an array of objects, each an event")).toEqual(map({ kind: "array", items: one }));
    // A member named, a flag's key, words about keys that name no identifier, a filter: the object itself.
    for (const words of ["Contains a single key — `id` ([below](#queue))", "Root element ([below](#queue)), contains a single key `item`", "Contains an object with the key `result` and the value `true` ([below](#queue))", "Permissions ([below](#queue)). Keys within `permissions` are case-sensitive", "External key ([below](#queue)). Identifier of the object"]) expect([words, typeOf(words)]).toEqual([words, one]);
    expect(typeOf("Filter by the [fields](#queue); the key is the field name", "filter")).toEqual({ ...one, members: one.members });
    // Rows beside a bare `result` whose words say so (task.stages.get: "…, with stage IDs as keys"): each value.
    const result = (words: string) => {
      const text = page("|| **id**\n[`integer`](x) | Id ||", ["## Response Handling", "", "### Returned Data", "", "#|", "|| **Name**\n`type` | **Description** ||", `|| **result**\n\`object\` | ${words} ||`, "|| **ID**\n`integer` | Id ||", "|#", ""].join("\n"));
      return stripSources(read({ "api-reference/things/thing-get.md": text }).model?.methods[0]?.result?.type as TypeRef);
    };
    expect(result("The stages, with stage IDs as keys.")).toEqual(map(one));
    expect(result("The stage.")).toEqual(one);
  });

  it("a parameter's section named after it is among the parameters, not in what the method answers (tasks.template.checklist.add's MEMBERS)", () => {
    const members = "#### Object members {#members}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **id**\n[`string`](x) | User ||\n|| **personalPhoto**\n[`string`](x) | Photo ||\n|#\n";
    const answer = ["## Response Handling", "", "### Returned Data", "", "#|", "|| **Name**\n`type` | **Description** ||", "|| **result**\n[`object`](x) | The item, [members](#members) among its fields ||", "|#", "", members].join("\n");
    const row = "|| **MEMBERS**\n[`object`](x) | Participants. Key — user identifier, value — object with the participant type parameter `TYPE` ||";
    const r = read({ "api-reference/things/thing-get.md": page(row, answer) });
    // Read as the answer's "Object members", the parameter took the participant the platform returns.
    expect(stripSources(r.model?.methods[0]?.params[0]?.type as TypeRef)).toEqual({ kind: "object", members: [], open: true });
    // …and the reading says so, where the section is (review: it was an open object without a word).
    expect(r.diagnostics.filter((d) => d.code === "ambiguous-reading").map((d) => [d.line, d.message])).toEqual([[expect.any(Number), expect.stringContaining("not the section 'Object members' named after it, which stands in what the method answers")]]);
    // The answer's own link still reaches it.
    const result = r.model?.methods[0]?.result?.type;
    expect(result?.kind === "object" ? result.members.map((f) => f.name) : null).toEqual(["id", "personalPhoto"]);
    // The same section among the parameters is the parameter's.
    const before = read({ "api-reference/things/thing-get.md": page(row, members.replace("####", "###")) });
    expect(before.diagnostics.filter((d) => d.code === "ambiguous-reading")).toEqual([]);
    const value = before.model?.methods[0]?.params[0]?.type;
    expect(value?.kind === "object" ? [...value.members.map((f) => f.name), value.additional?.kind] : null).toEqual(["object"]);
  });

  it("a section whose written anchor is a field's name, and which no link reaches, is that field's (documentgenerator.document.list's documents)", () => {
    const tbl = (...rows: string[]) => ["#|", "|| **Name**\n`type` | **Description** ||", ...rows, "|#", ""].join("\n");
    const answer = (documents: string) =>
      ["## Response Handling", "", "### Returned Data", "", tbl("|| **result**\n[`object`](x) | Root [(details)](#result) ||"), "#### Result Object {#result}", "", tbl("|| **documents**\n[`array`](x) | List of documents ||"), documents].join("\n");
    const resultOf = (text: string) => stripSources(read({ "api-reference/things/thing-get.md": text }).model?.methods[0]?.result?.type as TypeRef) as TypeRef;
    const element = tbl("|| **id**\n[`string`](x) | Document ||");
    const r = resultOf(page("|| **id**\n[`integer`](x) | Id ||", answer(`#### Document Array Element {#documents}\n\n${element}`)));
    expect(r).toEqual({ kind: "object", members: [{ name: "documents", type: { kind: "array", items: { kind: "object", members: [{ name: "id", type: { kind: "primitive", type: "string" }, required: false, nullable: false }] } }, required: false, nullable: false }] });
    // An anchor made of words, or one a link leads to, names no field.
    for (const heading of ["#### Document Array Element {#document-items}", "#### Document Array Element {#documents}\n\nSee [documents](#documents)."]) {
      const t = resultOf(page("|| **id**\n[`integer`](x) | Id ||", answer(`${heading}\n\n${element}`)));
      expect(t.kind === "object" ? t.members[0]?.type : null).toEqual({ kind: "array", items: { kind: "unknown" } });
    }
    // Not one of the page's own sections ("Returned Data {#result}" holds result's row), nor over a section the words
    // name after the field (an earlier "Example values {#task}" before "Fields of the task object"): second review.
    const own = page("|| **id**\n[`integer`](x) | Id ||", ["## Response Handling", "", "### Returned Data {#result}", "", tbl("|| **result**\n[`object`](x) | Root ||", "|| **time**\n[`time`](x) | Time ||")].join("\n"));
    expect(resultOf(own)).toEqual({ kind: "object", members: [], open: true });
    const task = (words: string) => ["## Response Handling", "", "### Returned Data", "", tbl(`|| **result**\n[\`object\`](x) | Root [(details)](#result) ||`), "#### Result Object {#result}", "", tbl(`|| **task**\n[\`object\`](x) | ${words} ||`), "#### Example values {#task}", "", tbl("|| **x**\n[`string`](x) | Example ||"), "#### Fields of the task object", "", tbl("|| **id**\n[`integer`](x) | Task ||")].join("\n");
    const t = resultOf(page("|| **id**\n[`integer`](x) | Id ||", task("The task")));
    expect(t.kind === "object" && t.members[0]?.type.kind === "object" ? t.members[0].type.members.map((f) => f.name) : null).toEqual(["id"]);
    // hcmlink.employee.set: the list `data` links its element's section; its job's `fields.data` ("Additional job data") is no element of it.
    const params = ["|| **data**\n[`array`](x) | Employees [(details)](#data) ||", "|| **job**\n[`object`](x) | Job [(details)](#job) ||"].join("\n");
    const sections = ["### data Array Element {#data}", "", tbl("|| **employee**\n[`string`](x) | Employee ||"), "### job Parameter {#job}", "", tbl("|| **data**\n[`object`](x) | Additional job data ||")].join("\n");
    const job = read({ "api-reference/things/thing-get.md": page(params, sections) }).model?.methods[0]?.params.find((p) => p.name === "job")?.type;
    expect(job?.kind === "object" ? stripSources(job.members[0]?.type as TypeRef) : null).toEqual({ kind: "object", members: [], open: true });
  });

  it("'Possible values:' that lists forms (`string`, `null`) is no list of values; `null` among values is the empty value", () => {
    const typeOf = (words: string) => {
      const text = page("|| **id**\n[`integer`](x) | Id ||", ["## Response Handling", "", "### Returned Data", "", "#|", "|| **Name**\n`type` | **Description** ||", "|| **result**\n[`object`](x) | Root ||", `|| **USER_NAME**\n[\`string\`](x) | ${words} ||`, "|#", ""].join("\n"));
      const t = read({ "api-reference/things/thing-get.md": text }).model?.methods[0]?.result?.type;
      const f = t?.kind === "object" ? t.members[0] : undefined;
      return f ? [stripSources(f.type), f.nullable] : null;
    };
    // imopenlines.config.get: read as values, USER_NAME took only the words "string" and "null".
    expect(typeOf("User name. Possible values:\n- `string` — the name is set\n- `null` — it is not")).toEqual([{ kind: "primitive", type: "string" }, true]);
    expect(typeOf("Flag. Possible values:\n- `Y` — yes\n- `N` — no\n- `null` — not set")).toEqual([{ kind: "primitive", type: "string", enum: ["Y", "N"] }, true]);
    // A field type's codes (`string`, `integer` beside `date`, `file`) are values.
    expect(typeOf("Type. Possible values:\n- `string` — string\n- `integer` — integer\n- `date` — date")).toEqual([{ kind: "primitive", type: "string", enum: ["string", "integer", "date"] }, false]);
  });

  it("a parameters table before the first H2, with no parameters section, is the parameters (sale.payment.list); a table under an H2 no reader knows is said", () => {
    const lead = ["# Get Things thing.list", "", "> Scope: [`thing`](x)", "", "The method `thing.list` lists things.", "", "#|", "|| **Name**", "`type` | **Description** ||", "|| **id^*^**", "[`integer`](x) | Id ||", "|#", "", "## Code Examples", "", "```bash\ncurl https://example.bitrix24.com/rest/thing.list\n```", "", "## Fields Returned by the Method", "", "#|", "|| **Name**", "`type` | **Description** ||", "|| **TITLE**", "[`string`](x) | Title ||", "|#", ""].join("\n");
    const r = read({ "api-reference/things/thing-list.md": lead });
    expect(r.model?.methods[0]?.params.map((p) => [p.name, p.required])).toEqual([["id", true]]);
    // Read by nothing, the table of an H2 no reader knows was dropped without a word.
    expect(r.diagnostics.filter((d) => d.code === "unplaced").map((d) => d.message)).toEqual([expect.stringContaining("'Fields Returned by the Method' (1 rows)")]);
    // A page with a parameters section keeps it; the table before it is not read as parameters.
    const both = lead.replace("## Code Examples", "## Method Parameters\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **other**\n[`string`](x) | Other ||\n|#\n\n## Code Examples");
    expect(read({ "api-reference/things/thing-list.md": both }).model?.methods[0]?.params.map((p) => p.name)).toEqual(["other"]);
    // Headerless and starred (task.elapseditem.isActionAllowed: `#| ` then `|| **TASKID*** `).
    const starred = page("").replace("#|\n|| **Name**\n`type` | **Description** ||\n\n|#", "#| \n|| **TASKID*** \n[`integer`](x) | Task ||\n|| **ITEMID*** \n[`integer`](x) | Item ||\n|#");
    expect(read({ "api-reference/things/thing-get.md": starred }).model?.methods[0]?.params.map((p) => [p.name, p.required])).toEqual([["TASKID", true], ["ITEMID", true]]);
  });

  it("a dotted name in a field's words is no method unless a page's method starts as it does (`pagination.limit`)", () => {
    const text = page("|| **id**\n[`integer`](x) | Id ||\n|| **select**\n[`array`](x) | Paths such as `pagination.limit` or `filter.participantId`; the list comes from `thing.list` ||");
    const names = read({ "api-reference/things/thing-get.md": text }).model?.methods.map((m) => `${m.name}${m.described ? "" : " (named)"}`);
    expect(names?.sort()).toEqual(["thing.get", "thing.list (named)"]);
  });

  it("a type linked to another page's anchor is not read from this page's table of that anchor", () => {
    const text = page("|| **fields**\n[`object`](./other-page.md#fields) | The fields ||", "### Parameter list {#fields}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **WRONG**\n[`string`](x) | Not the fields' ||\n|#\n");
    const m = read({ "api-reference/things/thing-get.md": text }).model?.methods[0];
    expect(m?.params[0]?.type).toEqual({ kind: "object", members: [], open: true });
  });

  it("a dotted parameter row (`fields.CONTACT_ID` under `fields`) is the member of the row it names, not a parameter with a dot", () => {
    const text = page("|| **id***\n[`integer`](x) | Id ||\n|| **fields***\n[`object`](x) | Contains a single key `CONTACT_ID` ||\n|| **fields.CONTACT_ID***\n[`integer`](x) | The contact ||");
    const r = read({ "api-reference/things/thing-get.md": text });
    const params = r.model?.methods[0]?.params;
    expect(params?.map((p) => p.name)).toEqual(["id", "fields"]);
    expect(params?.[1] ? stripSources(params[1].type) : null).toEqual({ kind: "object", members: [{ name: "CONTACT_ID", type: { kind: "primitive", type: "integer" }, required: true, nullable: false }], open: true });
    // A dotted row whose first name no row gives is kept out and said, as in the returned data.
    const lost = read({ "api-reference/things/thing-get.md": page("|| **id***\n[`integer`](x) | Id ||\n|| **data.ID**\n[`integer`](x) | An id ||") });
    expect(lost.model?.methods[0]?.params.map((p) => p.name)).toEqual(["id"]);
    expect(lost.diagnostics.filter((d) => d.code === "unplaced").map((d) => d.message)).toEqual([expect.stringContaining("'data.ID'")]);
  });

  it("a union's object option takes its linked table, unless the words give it several forms by condition", () => {
    const fields = "### Fields {#fields}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **ID**\n[`integer`](x) | Id ||\n|#\n";
    const row = (text: string) => `|| **extra**\n[\`undefined\\|object\`](x) | ${text} ||`;
    const linked = read({ "api-reference/things/thing-get.md": page(row("The fields, described [below](#fields)"), fields) });
    const options = (t: TypeRef | undefined) => (t?.kind === "union" ? t.options.map((o) => (o.kind === "object" ? o.members.map((f) => f.name) : o.kind)) : t?.kind);
    expect(options(linked.model?.methods[0]?.params[0]?.type)).toEqual(["primitive", ["ID"]]);
    // Two "when" items: the link is one form of several; their IDs are no object, so the option stays bare, said.
    const forms = read({ "api-reference/things/thing-get.md": page(row("The value:<br>\n- when `MODE = 'A'`, the fields [below](#fields)\n- when `MODE = 'B'`, their IDs"), fields) });
    expect(options(forms.model?.methods[0]?.params[0]?.type)).toEqual(["primitive", []]);
    expect(forms.diagnostics.filter((d) => d.code === "ambiguous-reading").map((d) => d.message)).toEqual([expect.stringContaining("several forms by condition")]);
    // Given up, the linked table is read by nothing: one warning for it, not one per row (second review).
    expect(forms.diagnostics.filter((d) => d.code === "unplaced")).toHaveLength(1);
  });

  it("a row typed `object` whose words call it a list is either, an object or a list of them, and the reading says so", () => {
    const rows = [
      "|| **settings**\n[`object`](x) | Array of user settings ||",
      "|| **users**\n[`object`](x) | The response root element, which contains the filtered list of users ||",
      "|| **numerators**\n[`object`](x) | Root element of the response. Contains an array of numerators ||",
      "|| **triggers**\n[`object`](x) | Returns an array of triggers added by the application ||",
      "|| **items**\n`object` | A set of contacts represented as an array of objects ||",
      "|| **codes**\n[`object`](x) | List of handler parameters. Keys are parameter codes ||",
      '|| **settings2**\n[`object`](x) | List of handler settings in the format `{"field_1": "value_1"}` ||',
      "|| **plain**\n[`object`](x) | The settings ||",
    ];
    const built = read({ "api-reference/things/thing-get.md": page(rows.join("\n")) });
    // The platform's "array" is PHP's, a list or a map: the first five are an object or a list of objects (the
    // examples of trigger.list and userfield.list answer a list); words that give the object keys agree with its cell.
    const shape = (t: TypeRef) => (t.kind === "union" ? t.options.map((o) => (o.kind === "array" ? `${o.items.kind}[]` : o.kind)).join(" | ") : t.kind);
    expect(built.model?.methods[0]?.params.map((p) => shape(p.type))).toEqual([...rows.slice(0, 5).map(() => "object | unknown[]"), "object", "object", "object"]);
    const said = built.diagnostics.filter((d) => d.code === "ambiguous-reading");
    expect(said.map((d) => d.line)).toEqual([10, 12, 14, 16, 18]);
    expect(said.every((d) => d.message.includes("both are taken"))).toBe(true);
    // `result` so called keeps the members its table gives, in both forms.
    const data = ["## Response Handling", "", "### Returned Data", "", "#|", "|| **Name**\n`type` | **Description** ||", "|| **result**\n[`object`](x) | Returns an array of things with fields ||", "|| **ID**\n[`integer`](x) | Id ||", "|#", ""].join("\n");
    const listed = read({ "api-reference/things/thing-get.md": page("|| **id**\n[`integer`](x) | Id ||", data) });
    const item = { kind: "object", members: [{ name: "ID", type: { kind: "primitive", type: "integer" }, required: false, nullable: false }] };
    expect(stripSources(listed.model?.methods[0]?.result?.type ?? { kind: "unknown" })).toEqual({ kind: "union", options: [item, { kind: "array", items: item }] });
  });

  it("a row whose type reading is said, and that nothing holds, is still said to be dropped", () => {
    // `result` a boolean and a dotted row `task.list` after it: no member of the result holds the row. The words that
    // call it a list say how its type was read, not where it went: it is `unplaced` all the same.
    const returned = ["## Response Handling", "", "### Returned Data", "", "#|", "|| **Name**\n`type` | **Description** ||", "|| **result**\n[`boolean`](x) | Whether it was deleted ||", "|| **task.list**\n[`object`](x) | Array of deleted tasks ||", "|#", ""].join("\n");
    const built = read({ "api-reference/things/thing-get.md": page("|| **id**\n[`integer`](x) | Id ||", returned) });
    const at = (code: string) => built.diagnostics.filter((d) => d.code === code).map((d) => d.message);
    expect(at("ambiguous-reading")).toEqual([expect.stringContaining("task.list: Array of deleted tasks")]);
    expect(at("unplaced")).toEqual([expect.stringContaining("the row 'task.list'")]);
  });

  it("'There are three options for calling the method' and a table under each heading: call forms, none dropped", () => {
    const table = (rows: string) => `#|\n|| **Name**\n\`type\` | **Description** ||\n${rows}\n|#`;
    const text = [
      "# Get a Thing thing.get",
      "",
      "> Scope: [`thing`](x)",
      "",
      "## Method Parameters",
      "",
      "There are three options for calling the method.",
      "",
      "### 1. By ID",
      "",
      table("|| **id***\n[`integer`](x) | Id ||\n|| **ballot***\n[`object`](x) | Votes ||"),
      "",
      "### 2. By Element",
      "",
      table("|| **moduleId***\n[`string`](x) | Module ||\n|| **entityId***\n[`integer`](x) | Element ||\n|| **ballot***\n[`object`](x) | Votes ||\n|| **lang**\n[`string`](x) | Language ||"),
      "",
      "### 3. By Signed ID",
      "",
      table("|| **signedId***\n[`string`](x) | Signed ||\n|| **ballot***\n[`object`](x) | Votes ||"),
      "",
    ].join("\n");
    const built = read({ "api-reference/things/thing-get.md": text });
    const m = built.model?.methods[0];
    // Each name once; `ballot`, starred in every form, is required; the others only in their form.
    expect(m?.params.map((p) => [p.name, p.required])).toEqual([["id", false], ["ballot", true], ["moduleId", false], ["entityId", false], ["lang", false], ["signedId", false]]);
    expect(m?.constraints.map((c) => (c.kind === "call-forms" ? [c.kind, c.forms, c.text] : c.kind))).toEqual([["call-forms", [["id"], ["moduleId", "entityId"], ["signedId"]], "There are three options for calling the method."]]);
    expect(built.diagnostics.filter((d) => d.code === "unplaced")).toEqual([]);
    // Without the words, the first table is the parameters and the others are warned, as before.
    const plain = read({ "api-reference/things/thing-get.md": text.replace("There are three options for calling the method.", "The parameters.") });
    expect(plain.model?.methods[0]?.params.map((p) => p.name)).toEqual(["id", "ballot"]);
    expect(plain.diagnostics.filter((d) => d.code === "unplaced")).toHaveLength(2);
  });

  it("'Contains the object [`template`](#template)' on `result` is result's member `template`; on a row of that name, the row", () => {
    const template = "#### Template Type {#template}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **id**\n[`string`](x) | Id ||\n|#\n";
    const returned = (row: string, after: string) => page("|| **id**\n[`integer`](x) | Id ||", ["## Response Handling", "", "### Returned Data", "", "#|", "|| **Name**\n`type` | **Description** ||", row, "|#", "", after].join("\n"));
    const resultOf = (row: string, after: string) => {
      const built = read({ "api-reference/things/thing-get.md": returned(row, after) });
      return { type: stripSources(built.model?.methods[0]?.result?.type ?? { kind: "unknown" }), unplaced: built.diagnostics.filter((d) => d.code === "unplaced") };
    };
    const item = { kind: "object", members: [{ name: "id", type: { kind: "primitive", type: "string" }, required: false, nullable: false }] };
    // The example answers `{"template": {…}}`: a member of that name, not result itself.
    expect(resultOf("|| **result**\n[`object`](x) | Root element of the response. Contains the object [`template`](#template) ||", template).type).toEqual({ kind: "object", members: [{ name: "template", type: item, required: false, nullable: false }] });
    // "Contains the object [`result`](#result)" on `result`: the row's own type (documentgenerator's getfields).
    expect(resultOf("|| **result**\n[`object`](x) | Root element of the response. Contains the object [`result`](#result) ||", template.replace("{#template}", "{#result}")).type).toEqual(item);
    // A section with no table whose sentence says the type: "[`object`](…), where the key is … and the value is the
    // object [`template`](#template)" is a map of templates under `templates`; the template's rows are held.
    const templates = `#### Templates Object {#templates}\n\n[\`object\`](../data-types.md), where the key is the string identifier of the template, and the value is the object [\`template\`](#template)\n\n${template}`;
    const map = resultOf("|| **result**\n[`object`](x) | The root element of the response. Contains the object [`templates`](#templates) ||", templates);
    expect(map.type).toEqual({ kind: "object", members: [{ name: "templates", type: { kind: "object", members: [], additional: item }, required: false, nullable: false }] });
    expect(map.unplaced).toEqual([]);
  });

  describe("call forms and the members words name: what they must not take (the review of this change)", () => {
    const table = (rows: string) => `#|\n|| **Name**\n\`type\` | **Description** ||\n${rows}\n|#`;
    const params = (body: string[]) => {
      const text = ["# Get a Thing thing.get", "", "> Scope: [`thing`](x)", "", "## Method Parameters", "", ...body].join("\n");
      const built = read({ "api-reference/things/thing-get.md": text });
      const m = built.model?.methods[0];
      return { params: m?.params.map((p) => [p.name, p.required]), forms: m?.constraints.flatMap((c) => (c.kind === "call-forms" ? [c.forms] : [])), said: (code: string) => built.diagnostics.filter((d) => d.code === code).map((d) => d.message) };
    };
    const said = "There are two options for calling the method.";
    it("a form that requires nothing of its own makes no constraint (any call meets it)", () => {
      const r = params([said, "", "### 1. By ID", "", table("|| **id***\n[`integer`](x) | Id ||"), "", "### 2. All", "", table("|| **lang**\n[`string`](x) | Language ||"), ""]);
      expect(r.params).toEqual([["id", false], ["lang", false]]);
      expect(r.forms).toEqual([]);
    });
    it("a table before the forms' headings keeps the section read as before: its table, the others warned", () => {
      const r = params([said, "", table("|| **common***\n[`string`](x) | Shared ||"), "", "### 1. By ID", "", table("|| **id***\n[`integer`](x) | Id ||"), "", "### 2. By code", "", table("|| **code***\n[`string`](x) | Code ||"), ""]);
      expect(r.params).toEqual([["common", true]]);
      expect(r.said("unplaced")).toHaveLength(2);
    });
    it("a deeper heading's table is a nested object's, not a form; a count the tables do not match is said", () => {
      const r = params([
        "There are three options for calling the method.",
        "",
        "### 1. By ID",
        "",
        table("|| **id***\n[`integer`](x) | Id ||\n|| **data**\n[`object`](#fields) | The data ||"),
        "",
        "#### Fields {#fields}",
        "",
        table("|| **NAME**\n[`string`](x) | Name ||"),
        "",
        "### 2. By code",
        "",
        table("|| **code***\n[`string`](x) | Code ||"),
        "",
      ]);
      expect(r.params).toEqual([["id", false], ["data", false], ["code", false]]);
      expect(r.forms).toEqual([[["id"], ["code"]]]);
      expect(r.said("ambiguous-reading")).toEqual([expect.stringContaining("then 2 tables under its headings")]);
    });
    it("a name in two forms with another type is said, the first form's type taken", () => {
      const r = params([said, "", "### 1. By ID", "", table("|| **id***\n[`integer`](x) | Id ||\n|| **data**\n[`object`](x) | Data ||"), "", "### 2. By code", "", table("|| **code***\n[`string`](x) | Code ||\n|| **data**\n[`string`](x) | Data ||"), ""]);
      expect(r.said("ambiguous-reading")).toEqual([expect.stringContaining("data: string here, object in an earlier form")]);
    });

    const returned = (row: string, after = "") => {
      const text = ["# Get a Thing thing.get", "", "> Scope: [`thing`](x)", "", "## Method Parameters", "", table("|| **id**\n[`integer`](x) | Id ||"), "", "## Response Handling", "", "### Returned Data", "", table(row), "", after].join("\n");
      return stripSources(read({ "api-reference/things/thing-get.md": text }).model?.methods[0]?.result?.type ?? { kind: "unknown" });
    };
    const user = "#### User {#user}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **ID**\n[`integer`](x) | Id ||\n|#\n";
    const item = { kind: "object", members: [{ name: "ID", type: { kind: "primitive", type: "integer" }, required: false, nullable: false }] };
    it("a bare `result` whose words name what the next heading describes takes that heading's table (crm.requisite.*)", () => {
      const described = (heading: string) => `### ${heading}\n\n#|\n|| **Name**\n\`type\` | **Description** ||\n|| **ID**\n[\`integer\`](x) | Id ||\n|#\n`;
      // crm.requisite.bankdetail.get: "Object containing the values of the bank details fields", then its section.
      expect(returned("|| **result**\n[`object`](x) | Object containing the values of the bank details fields ||", described("Description of Bank Details Fields"))).toEqual(item);
      // crm.requisite.preset.countries: a list of objects; "countries" is the heading's "Country".
      expect(returned("|| **result**\n[`array`](x) | An array of objects describing countries ||", described("Fields of the Country Object"))).toEqual({ kind: "array", items: item });
      // Not read so: a heading that names something else, words that list forms or link, a list of names, not objects.
      expect(returned("|| **result**\n[`object`](x) | Object containing the values of the bank details fields ||", described("Description of Address Fields"))).toEqual({ kind: "object", members: [], open: true });
      expect(returned("|| **result**\n[`array`](x) | List of users.\n- When `A = 'N'`, contains user IDs\n- When `A = 'Y'`, contains user objects ||", described("User Object"))).toEqual({ kind: "array", items: { kind: "unknown" } });
      expect(returned("|| **result**\n[`array`](x) | An array with the names of fields ||", described("Field Descriptions"))).toEqual({ kind: "array", items: { kind: "unknown" } });
      expect(returned("|| **result**\n[`array`](x) | An array with the names of template fields ||", described("Template Fields"))).toEqual({ kind: "array", items: { kind: "unknown" } });
    });
    it("an unlinked type word is the page's 'Object of type X' section (crm.item.payment.delivery.list)", () => {
      expect(returned("|| **result**\n`thing_item[]` | The items ||", "### Key result. Object of type thing_item\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **ID**\n[`integer`](x) | Id ||\n|#\n")).toEqual({ kind: "array", items: item });
      expect(returned("|| **result**\n`thing_item[]` | The items ||", "### Key Result. Object of Type Thing_Item\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **ID**\n[`integer`](x) | Id ||\n|#\n")).toEqual({ kind: "array", items: item });
    });
    it("a field table written without its header row is read as one that has it (biconnector's lists, calendar.user.settings.set)", () => {
      const headerless = ["#|", "|| **result**\n[`array`](x) | Root. Contains an array of objects ||", "|| **time**\n[`time`](x) | Time ||", "|#"].join("\n");
      // Read with its first row as the header, the table was no field table and the method had no result at all.
      const text = ["# Get a Thing thing.get", "", "> Scope: [`thing`](x)", "", "## Method Parameters", "", table("|| **id**\n[`integer`](x) | Id ||"), "", "## Response Handling", "", "### Returned Data", "", headerless, ""].join("\n");
      const r = read({ "api-reference/things/thing-get.md": text }).model?.methods[0]?.result;
      expect(r && stripSources(r.type)).toEqual({ kind: "array", items: { kind: "unknown" } });
      // A headed table is as it was; a first row that is words, not a field, is no field table.
      expect(returned("|| **result**\n[`array`](x) | Root ||")).toEqual({ kind: "array", items: { kind: "unknown" } });
      const words = text.replace("|| **result**\n[`array`](x) | Root. Contains an array of objects ||", "|| **If you need** | **Open** ||");
      expect(read({ "api-reference/things/thing-get.md": words }).model?.methods[0]?.result).toBeNull();
    });
    it("'Response Element result' and 'Key result' are result's sections (sign.b2e.personal.tail, sale.delivery.config.get)", () => {
      const section = (heading: string) => `#### ${heading}\n\n#|\n|| **Name**\n\`type\` | **Description** ||\n|| **ID**\n[\`integer\`](x) | Id ||\n|#\n`;
      expect(returned("|| **result**\n[`array`](x) | The signed documents ||", section("Response Element result"))).toEqual({ kind: "array", items: item });
      expect(returned("|| **result**\n[`object[]`](x) | Settings ||", section("Key result"))).toEqual({ kind: "array", items: item });
    });
    it("a link to a whole page is its only field table, or its common fields with each kind's (crm.item.*'s object-fields.md)", () => {
      const tbl = (...rows: string[]) => ["#|", "|| **Name**\n`type` | **Description** ||", ...rows, "|#"].join("\n");
      const getPage = table("|| **id**\n[`integer`](x) | Id ||");
      const resultWith = (target: string) => {
        const text = ["# Get a Thing thing.get", "", "> Scope: [`thing`](x)", "", "## Method Parameters", "", getPage, "", "## Response Handling", "", "### Returned Data", "", tbl("|| **result**\n[`object`](x) | Root ||", "|| **item**\n[`item`](./object-fields.md) | The item ||"), ""].join("\n");
        const r = read({ "api-reference/things/thing-get.md": text, "api-reference/things/object-fields.md": target });
        return { type: stripSources(r.model?.methods[0]?.result?.type ?? { kind: "unknown" }) as { members: Array<{ type: unknown }> }, said: r.diagnostics.filter((d) => d.code === "unknown-type-word").length };
      };
      const f = (name: string, type = "string") => `|| **${name}**\n[\`${type}\`](x) | ${name} ||`;
      const member = (name: string, type = "string") => ({ name, type: { kind: "primitive", type }, required: false, nullable: false });
      // One table: the object.
      expect(resultWith(["# Item", "", tbl(f("ID", "integer")), ""].join("\n")).type.members[0]?.type).toEqual({ kind: "object", members: [member("ID", "integer")] });
      // Common fields, then one table per kind: each kind with the common fields.
      const kinds = ["# Fields", "", "## Common Fields {#common}", "", tbl(f("id", "integer")), "", "## Object Fields", "", "### Lead {#lead}", "", tbl(f("title"), f("leadOnly")), "", "### Deal {#deal}", "", tbl(f("title"), f("dealOnly")), ""].join("\n");
      // A table of that page linking the whole page again (another word) is a loop, not read a second time: the page's
      // key is the same for every word where no heading chose the table (review: keys by object identity differed).
      const loop = resultWith(kinds.replace(f("leadOnly"), "|| **parent**\n[`parentItem`](./object-fields.md) | The parent ||")).type.members[0]?.type as { options: Array<{ members: Array<{ name: string; type: unknown }> }> };
      expect(loop.options[0]?.members.find((m) => m.name === "parent")?.type).toEqual({ kind: "unknown", note: "the reference's type 'parentItem'" });
      expect(resultWith(kinds).type.members[0]?.type).toEqual({
        kind: "union",
        options: [
          { kind: "object", members: [member("id", "integer"), member("title"), member("leadOnly")] },
          { kind: "object", members: [member("id", "integer"), member("title"), member("dealOnly")] },
        ],
      });
      // Two tables that are not common fields and kinds, neither named by the link's word (`item`): the word stays
      // unknown, and said.
      const two = resultWith(["# Header", "", "## Parameters of the HeaderDto Object", "", tbl(f("title")), "", "## TagDto Object", "", tbl(f("color")), ""].join("\n"));
      expect(two.type.members[0]?.type).toEqual({ kind: "unknown", note: "the reference's type 'item'" });
      expect(two.said).toBe(1);
    });
    it("a link to a page of several tables is the one whose heading names the link's word, or the cases that fix one row (the timeline's HeaderDto, ActionDto)", () => {
      const tbl = (...rows: string[]) => ["#|", "|| **Field** | **Description** ||", ...rows, "|#"].join("\n");
      const f = (name: string, type = "string", words = name) => `|| **${name}**\n[\`${type}\`](x) | ${words} ||`;
      const member = (name: string, type: unknown = { kind: "primitive", type: "string" }, required = false) => ({ name, type, required, nullable: false });
      const typeOf = (word: string, target: string) => {
        const text = ["# Get a Thing thing.get", "", "> Scope: [`thing`](x)", "", "## Method Parameters", "", table("|| **id**\n[`integer`](x) | Id ||"), "", "## Response Handling", "", "### Returned Data", "", table(["|| **result**\n[`object`](x) | Root ||", `|| **item**\n[\`${word}\`](./structure.md) | The item ||`].join("\n")), ""].join("\n");
        const r = read({ "api-reference/things/thing-get.md": text, "api-reference/things/structure.md": target });
        const t = stripSources(r.model?.methods[0]?.result?.type ?? { kind: "unknown" }) as { members: Array<{ type: unknown }> };
        return { type: t.members[0]?.type, unknown: r.diagnostics.filter((d) => d.code === "unknown-type-word").map((d) => d.message) };
      };
      // header.md: the table under "Parameters of the `HeaderDto` Object"; `TagDto[]` links its own section, whose table
      // stands in the sub-section "Parameters of the `TagDto` Object" after the section's words.
      const header = ["# Record Header", "", "## Parameters of the `HeaderDto` Object", "", tbl(f("title"), "|| **tags**\n[`TagDto[]`](#obuekt) | Tags ||"), "", "## `TagDto` Object {#obuekt}", "", "Tag in the header.", "", "### Parameters of the `TagDto` Object", "", tbl(f("color")), ""].join("\n");
      const read1 = typeOf("HeaderDto", header);
      const tag = { kind: "object", members: [member("color")] };
      expect(read1.type).toEqual({ kind: "object", members: [member("title"), member("tags", { kind: "array", items: tag })] });
      expect(read1.unknown).toEqual([]);
      // The same page through a word no heading names: unknown, said.
      expect(typeOf("RecordDto", header).unknown).toHaveLength(1);
      // A heading that holds the word inside a longer one first ("TagDtoList") still names it where it stands alone.
      expect(typeOf("TagDto", header.replace("## `TagDto` Object {#obuekt}", "## `TagDtoList` and `TagDto` {#obuekt}").replace("### Parameters of the `TagDto` Object", "")).type).toEqual(tag);
      // A sub-section that is not "Parameters …" or "Fields …" is not the section's table: `TagDto[]` stays unknown.
      const other = typeOf("HeaderDto", header.replace("### Parameters of the `TagDto` Object", "### Where tags are shown"));
      expect(other.unknown).toEqual([expect.stringContaining("'TagDto'")]);
      // "Associative array of objects describing tags": keyed by the caller's keys, each value a tag.
      const keyed = typeOf("HeaderDto", header.replace("| Tags ||", "| Associative array of objects describing tags ||")).type as { members: Array<{ name: string; type: unknown }> };
      expect(keyed.members.find((m) => m.name === "tags")?.type).toEqual({ kind: "object", members: [], additional: tag, keyDescription: "key" });
      // The HeaderDto table linking the same page for `TagDto`: another table of it (its key names the word), no loop.
      const again = typeOf("HeaderDto", header.replace("[`TagDto[]`](#obuekt)", "[`TagDto`](./structure.md)")).type as { members: Array<{ name: string; type: unknown }> };
      expect(again.members.find((m) => m.name === "tags")?.type).toEqual(tag);
      // action.md: each kind's "### Parameters" fixes `type^*^` to one value: the cases of one object. A table under
      // another heading (the slider's parameters, linked from a case) is not a case.
      const fixed = (value: string) => `|| **type^*^**\n[\`string\`](x) | Value \`${value}\` ||`;
      const action = ["# Click Reaction", "", "## Link Navigation", "", "### Parameters", "", tbl(fixed("redirect"), f("uri")), "", "## Event", "", "### Parameters", "", tbl(fixed("restEvent"), f("id")), "", "### SliderParamsDto", "", "#### Parameters for Opening the Slider", "", tbl(f("title")), ""].join("\n");
      const cases = typeOf("ActionDto", action).type as { kind: string; options: Array<{ members: Array<{ name: string }> }> };
      expect(cases.kind).toBe("union");
      expect(cases.options.map((o) => o.members.map((m) => m.name))).toEqual([["type", "uri"], ["type", "id"]]);
      // Each case's fixed value ("Value `redirect`") is its `type`'s one value: the cases are told apart.
      expect(cases.options.map((o) => (o.members[0] as unknown as { type: unknown }).type)).toEqual([
        { kind: "primitive", type: "string", enum: ["redirect"] },
        { kind: "primitive", type: "string", enum: ["restEvent"] },
      ]);
      // content-block.md: each block type's table is its `properties`, no row fixed: not the block's cases; unknown.
      const blocks = ["# Content Block", "", "## Text", "", "### Parameters", "", tbl(f("value"), f("bold", "boolean")), "", "## Link", "", "### Parameters", "", tbl(f("text"), f("url")), ""].join("\n");
      expect(typeOf("ContentBlockDto", blocks).type).toEqual({ kind: "unknown", note: "the reference's type 'ContentBlockDto'" });
    });
    it("only on `result`: another row's words may say what the row is", () => {
      expect(returned("|| **result**\n[`object`](x) | Root ||\n|| **owner**\n[`object`](x) | Contains the [`user`](#user) object ||", user)).toEqual({ kind: "object", members: [{ name: "owner", type: item, required: false, nullable: false }] });
    });
    it("the link of the same sentence types the member, not a later one's; a type word is no member's name", () => {
      const errors = "#### Errors {#errors}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **CODE**\n[`string`](x) | Code ||\n|#\n";
      expect(returned("|| **result**\n[`object`](x) | Contains the `attach` object. On failure, see [errors](#errors) ||", errors)).toEqual({ kind: "object", members: [{ name: "attach", type: { kind: "object", members: [], open: true }, required: false, nullable: false }] });
      // "an array of …": the row itself is a list (LIST_WORDS), with no member called `integer`.
      expect(returned("|| **result**\n[`object`](x) | Contains an array of `integer` identifiers ||")).toEqual({ kind: "union", options: [{ kind: "object", members: [], open: true }, { kind: "array", items: { kind: "unknown" } }] });
    });
    it("the row's own section that lists the member is the row's type (template.getfields links the member's items)", () => {
      const sections = ["#### Result Type {#result}", "", "#|\n|| **Name**\n`type` | **Description** ||\n|| **templateFields**\n[`object`](x) | Fields, where the key is the field code and the value is the [`templateField`](#templatefield) structure ||\n|#", "", "#### templateField Type {#templatefield}", "", "#|\n|| **Name**\n`type` | **Description** ||\n|| **title**\n[`string`](x) | Title ||\n|#", ""].join("\n");
      const t = returned("|| **result**\n[`object`](x) | Root element of the response. Contains the [`templateFields`](#templatefield) object ||", sections) as TypeRef;
      const member = t.kind === "object" ? t.members[0] : undefined;
      expect(member?.name).toBe("templateFields");
      // A map of templateField by field code, not one templateField.
      expect(member?.type.kind === "object" ? [member.type.members.length, member.type.additional?.kind] : member?.type).toEqual([0, "object"]);
    });
    it("a table of forms says each form's condition in the words of the row it types; a cell of three lines is no form", () => {
      const forms = ["#### Type result {#result}", "", "#|\n|| **Name**\n`type` | **Description** ||\n|| `object`\n[`user`](#user) | Returned if `ID` is given ||\n|| [`user[]`](#user) | Returned if not ||\n|#", "", user].join("\n");
      const text = ["# Get a Thing thing.get", "", "> Scope: [`thing`](x)", "", "## Method Parameters", "", table("|| **id**\n[`integer`](x) | Id ||"), "", "## Response Handling", "", "### Returned Data", "", table("|| **result**\n[`result`](#result) | Root element ||"), "", forms].join("\n");
      const r = read({ "api-reference/things/thing-get.md": text }).model?.methods[0]?.result;
      expect(r?.description).toBe("Root element. One of: `user`: Returned if `ID` is given; `user[]`: Returned if not.");
      const three = text.replace("|| `object`\n[`user`](#user) |", "|| `object`\nor\n[`user`](#user) |");
      expect(read({ "api-reference/things/thing-get.md": three }).model?.methods[0]?.result?.type.kind).not.toBe("union");
    });
  });

  it("a required mark inside the bold (`**id^*^**`) is the mark, and a filter takes its linked fields' types, not their stars", () => {
    const fields = "### Fields {#fields}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **FIELD_NAME^*^**\n[`string`](x) | Code ||\n|| **SORT**\n[`integer`](x) | Sort ||\n|#\n";
    const built = read({ "api-reference/things/thing-get.md": page("|| **id^*^**\n[`integer`](x) | Id ||\n|| **CHAT_ID^*^** | Chat ||\n|| **filter**\n[`object`](x) | Filter by the [fields](#fields) ||\n|| **x^y**\n[`string`](x) | A caret in the name ||", fields) });
    const params = built.model?.methods[0]?.params ?? [];
    // Read as a name with a `^`, `id` was unreadable and dropped (crm.item.update, crm.deal.recurring.*).
    expect(params.map((p) => [p.name, p.required])).toEqual([["id", true], ["CHAT_ID", true], ["filter", false], ["x^y", false]]);
    expect(built.diagnostics.filter((d) => d.code === "unreadable-parameter")).toEqual([]);
    const filter = params.find((p) => p.name === "filter")?.type;
    expect(filter?.kind === "object" ? filter.members.map((f) => [f.name, f.required]) : filter).toEqual([["FIELD_NAME", false], ["SORT", false]]);
  });

  it("a member the words name in backticks is result's member: 'Contains the `attach` object', 'Contains an array `list`'", () => {
    const section = (anchor: string) => `#### Element {#${anchor}}\n\n#|\n|| **Name**\n\`type\` | **Description** ||\n|| **ID**\n[\`integer\`](x) | Id ||\n|#\n`;
    const resultOf = (words: string, after: string, method = "thing.get") => {
      const text = page("|| **id**\n[`integer`](x) | Id ||", ["## Response Handling", "", "### Returned Data", "", "#|", "|| **Name**\n`type` | **Description** ||", `|| **result**\n[\`object\`](x) | ${words} ||`, "|#", "", after].join("\n")).replace("thing.get", method);
      return stripSources(read({ "api-reference/things/thing-get.md": text }).model?.methods[0]?.result?.type ?? { kind: "unknown" });
    };
    const item = { kind: "object", members: [{ name: "ID", type: { kind: "primitive", type: "integer" }, required: false, nullable: false }] };
    const holds = (name: string, type: unknown) => ({ kind: "object", members: [{ name, type, required: false, nullable: false }] });
    // vote.attachedvote.get: the example answers `{"attach": {…}}`.
    expect(resultOf("Root element of the response. Contains the `attach` object with information about the voting, structure described [below](#attach)", section("attach"))).toEqual(holds("attach", item));
    // tasks.task.history.list: `{"list": […]}`.
    expect(resultOf("Root element of the response. Contains an array `list`, which includes objects with [event descriptions](#lists) for the task", section("lists"))).toEqual(holds("list", { kind: "array", items: item }));
    // crm.documentgenerator.numerator.list: `{"numerators": […]}`.
    expect(resultOf("Root element of the response. Contains an array of [`numerators`](#numerators)", section("numerators"))).toEqual(holds("numerators", { kind: "array", items: item }));
    // No link: the member, its members not given.
    expect(resultOf("Root element of the response. Contains the `attach` object", "")).toEqual(holds("attach", { kind: "object", members: [], open: true }));
    // Unquoted, the words call result itself a list (fields.ts LIST_WORDS), no member.
    expect(resultOf("Root element of the response. Contains an array of [numerators](#numerators)", section("numerators"))).toEqual({ kind: "union", options: [item, { kind: "array", items: item }] });
    // A fields method whose `result` holds a named list of descriptions: the member, not a description of a field `fields`.
    expect(resultOf("Response root element. Contains an array `fields` with descriptions of the source fields, described [below](#fields)", section("fields"), "thing.fields")).toEqual(holds("fields", { kind: "array", items: item }));
  });

  describe("results the refused examples showed misread (tasks.task.delete, crm.quote.fields, entity.get)", () => {
    const returned = (rows: string[], after = "") => ["## Response Handling", "", "### Returned Data", "", "#|", "|| **Name**\n`type` | **Description** ||", ...rows, "|| **time**\n[`time`](x) | Timing ||", "|#", "", after].join("\n");
    const resultOf = (rows: string[], after = "", name = "thing.get") => {
      const text = page("|| **id**\n[`integer`](x) | Id ||", returned(rows, after)).replace("thing.get", name);
      const built = read({ "api-reference/things/thing-get.md": text });
      return { type: stripSources(built.model?.methods[0]?.result?.type ?? { kind: "unknown" }) as TypeRef, said: (code: string) => built.diagnostics.filter((d) => d.code === code).map((d) => d.message) };
    };
    const flag = { kind: "union", options: [{ kind: "primitive", type: "boolean" }, { kind: "primitive", type: "string", enum: ["Y", "N"] }, { kind: "primitive", type: "integer", enum: [0, 1] }] };

    it("a `boolean` cell whose words say 'an object with the key `result`' is that object, and the reading says so", () => {
      const r = resultOf(["|| **result**\n[`boolean`](x) | Root element of the response.\n\nContains an object with the key `result` and the value `true` if the task was successfully deleted ||"]);
      expect(r.type).toEqual({ kind: "object", members: [{ name: "result", type: { kind: "primitive", type: "boolean" }, required: true, nullable: false }] });
      expect(r.said("ambiguous-reading")).toEqual([expect.stringContaining("not the bare flag the type cell names")]);
      // The words without the key: the flag, as the cell says.
      expect(resultOf(["|| **result**\n[`boolean`](x) | `true` if the task was deleted ||"]).type).toEqual(flag);
    });

    it("a flag with a plain row beside it is the flag or an object of that row, said; the row is not dropped", () => {
      const r = resultOf(["|| **result**\n[`boolean`](x) | Root element of the response ||", "|| **task**\n[`boolean`](x) | Returns `true` if the task was successfully deleted ||"]);
      expect(r.type).toEqual({ kind: "union", options: [...flag.options, { kind: "object", members: [{ name: "task", type: flag, required: false, nullable: false }] }] });
      expect(r.said("ambiguous-reading")).toEqual([expect.stringContaining("or an object of these rows")]);
      expect(r.said("unplaced")).toEqual([]);
    });

    it("'The root element of the response.' and, on the cell's next line, 'Contains an array of objects' is a list too", () => {
      const r = resultOf(["|| **result**\n[`object`](x) | The root element of the response.\nContains an array of objects with information about running workflows ||"]);
      expect(r.type).toEqual({ kind: "union", options: [{ kind: "object", members: [], open: true }, { kind: "array", items: { kind: "unknown" } }] });
      // A second sentence that is not the list's: the object alone.
      expect(resultOf(["|| **result**\n[`object`](x) | The root element of the response.\nContains the workflow ||"]).type).toEqual({ kind: "object", members: [], open: true });
    });

    it("an object type whose words say 'An array of objects' is that object or a list of them", () => {
      const thing = "#### Thing {#thing}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **ID**\n[`integer`](x) | Id ||\n|#\n";
      const r = resultOf(["|| **result**\n[`object`](x) | Root ||", "|| **things**\n[`thing`](#thing) | An array of objects with information about the things ||"], thing);
      const item = { kind: "object", members: [{ name: "ID", type: { kind: "primitive", type: "integer" }, required: false, nullable: false }] };
      expect(r.type).toEqual({ kind: "object", members: [{ name: "things", type: { kind: "union", options: [item, { kind: "array", items: item }] }, required: false, nullable: false }] });
    });

    it("a fields method's own tables of fields, after a `result` that describes them, are its keys", () => {
      const tables = ["#### Main Fields", "", "#|\n|| **Name**\n`type` | **Description** ||\n|| **TITLE**\n[`string`](x) | Title ||\n|#", "", "#### Deprecated Fields", "", "#|\n|| **Name**\n`type` | **Description** ||\n|| **OLD**\n[`string`](x) | Old ||\n|#", ""].join("\n");
      const bare = resultOf(["|| **result**\n[`array`](x) | Object with the description of the fields of the thing ||"], tables, "thing.fields");
      expect(bare.type.kind === "object" ? bare.type.members.map((f) => [f.name, f.type.kind]) : bare.type).toEqual([["TITLE", "object"], ["OLD", "object"]]);
      expect(bare.said("unplaced")).toEqual([]);
      // A map of each field to its attributes (linked): the same keys, each the attributes' object, the map kept open.
      const attributes = "### Attributes {#attributes}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **isRequired**\n[`boolean`](x) | Required ||\n|#\n";
      const map = resultOf(['|| **result**\n[`object`](x) | An object in the format `{"field_1": "value_1"}`, where `field` is the field identifier and `value` is the object with [field attributes](#attributes) ||'], `${tables}\n${attributes}`, "thing.fields");
      expect(map.type.kind === "object" ? [map.type.members.map((f) => f.name), map.type.members.every((f) => f.type === (map.type.kind === "object" ? map.type.additional : null) || JSON.stringify(f.type) === JSON.stringify(map.type.kind === "object" ? map.type.additional : null)), map.type.additional?.kind] : map.type).toEqual([["TITLE", "OLD"], true, "object"]);
      // Not a fields method: the tables stay unplaced, as before.
      expect(resultOf(["|| **result**\n[`array`](x) | Object with the description of the fields of the thing ||"], tables).said("unplaced")).toHaveLength(2);
    });

    it("a table of the forms a value takes (rows named by a link, not a bold name) is one of those forms", () => {
      const forms = ["#### Type result {#result}", "", "#|\n|| **Name**\n`type` | **Description** ||\n|| `object`\n[`property`](#property) | Returned if the `PROPERTY` parameter is provided ||\n|| [`property[]`](#property) | Returned if the `PROPERTY` parameter is not provided ||\n|#", "", "#### Type property {#property}", "", "#|\n|| **Name**\n`type` | **Description** ||\n|| **NAME**\n[`string`](x) | Name ||\n|#", ""].join("\n");
      const r = resultOf(["|| **result**\n[`result`](#result) | Root element of the response. Contains the property object or an array of properties ||"], forms);
      const item = { kind: "object", members: [{ name: "NAME", type: { kind: "primitive", type: "string" }, required: false, nullable: false }] };
      expect(r.type).toEqual({ kind: "union", options: [item, { kind: "array", items: item }] });
      expect(r.said("unreadable-parameter")).toEqual([]);
    });
  });

  it("a payload's dotted row extends the member its parent's linked table already has", () => {
    const text = [
      "# Event onThingAdd",
      "",
      "## What the Handler Receives",
      "",
      "#|",
      "|| **Parameter**\n`type` | **Description** ||",
      "|| **data**\n[`object`](#data) | The data ||",
      "|| **data.FIELDS.ID**\n[`integer`](x) | The id ||",
      "|#",
      "",
      "### Parameter data {#data}",
      "",
      "#|\n|| **Name**\n`type` | **Description** ||\n|| **FIELDS**\n[`object`](x) | The fields ||\n|#",
    ].join("\n");
    const built = read({ "api-reference/things/on-thing-add.md": text, "api-reference/things/thing-get.md": page("|| **id***\n[`integer`](x) | Id ||") });
    const data = built.model?.eventPayloads?.[0]?.fields.find((f) => f.name === "data");
    const fields = data?.type.kind === "object" ? data.type.members.find((f) => f.name === "FIELDS") : undefined;
    expect(fields?.type.kind === "object" ? fields.type.members.map((f) => f.name) : null).toEqual(["ID"]);
  });

  it("rows beside `result`: each X[] holder takes the rows up to the next one; an X[] nothing merges is warned", () => {
    const returned = (rows: string[]) =>
      ["## Response Handling", "", "### Returned Data", "", "#|", "|| **Name**\n`type` | **Description** ||", "|| **result**\n[`object`](x) | Root ||", ...rows, "|#", ""].join("\n");
    const row = (name: string, type: string, text = "A row") => `|| **${name}**\n[\`${type}\`](x) | ${text} ||`;
    const one = (rows: string[]) => read({ "api-reference/things/thing-get.md": page(row("id", "integer"), returned(rows)) });
    const members = (t: TypeRef | undefined): unknown => (t?.kind === "object" ? t.members.map((f) => [f.name, f.type.kind === "array" && f.type.items.kind === "object" ? f.type.items.members.map((m) => m.name) : f.type.kind]) : t?.kind);
    // `users[]`, `id`, then `groups[]`, `gid`: two holders, each with its own rows; a row that dotted rows extend
    // (`meta`, `meta.x`) stays result's own.
    const a = one([row("users[]", "object"), row("id", "integer"), row("groups[]", "object"), row("gid", "integer"), row("meta", "object"), row("meta.x", "string")]);
    expect(members(a.model?.methods[0]?.result?.type)).toEqual([["users", ["id"]], ["groups", ["gid"]], ["meta", "object"]]);
    expect(a.diagnostics.filter((d) => d.code === "ambiguous-reading").map((d) => d.line)).toHaveLength(2);
    // A bare object whose description links to another page is still bare: the rows after it are said, not silent.
    const b = one([row("item", "object", "As [thing.get](./thing-get.md) returns"), row("id", "integer")]);
    expect(b.diagnostics.filter((d) => d.code === "ambiguous-reading").map((d) => d.message)).toEqual([expect.stringContaining("as result's own members")]);
    // `tags` an object and `tags[]` an integer: the X[] row types nothing, and the ledger says so at its line.
    const c = one([row("tags", "object"), row("tags[]", "integer"), row("amount", "integer")]);
    expect(c.diagnostics.filter((d) => d.code === "unplaced").map((d) => d.message)).toEqual([expect.stringContaining("the row 'tags[]': read from its table")]);
  });

  it("thousands of rows beside `result`, flat after an `X[]` row, are read in linear time", () => {
    // 8,000 rows after `items[]` (the page reads its returned data twice, within its budget of 20,000 fields), each an
    // item's member: the reading uses sets and maps, not a scan per row.
    const rows = Array.from({ length: 8_000 }, (_, i) => `|| **f${i}**\n[\`string\`](x) | Row ||`).join("\n");
    const returned = ["## Response Handling", "", "### Returned Data", "", "#|", "|| **Name**\n`type` | **Description** ||", "|| **result**\n[`object`](x) | Root ||", "|| **items**\n[`array`](x) | The items ||", "|| **items[]**\n[`object`](x) | An item ||", rows, "|#", ""].join("\n");
    const started = performance.now();
    const built = read({ "api-reference/things/thing-get.md": page("|| **id**\n[`integer`](x) | Id ||", returned) });
    expect(performance.now() - started).toBeLessThan(30_000);
    const t = built.model?.methods[0]?.result?.type;
    const items = t?.kind === "object" ? t.members.find((f) => f.name === "items")?.type : undefined;
    expect(items?.kind === "array" && items.items.kind === "object" ? items.items.members.length : 0).toBe(8_000);
  });

  it("a long description of an object row (line after line, links never closed) is read in linear time", () => {
    // 200,000 line ends before a list item, and 50,000 `](#a` with no `)`: both were a scan from every start (review).
    const lines = `${"\n".repeat(200_000)}- when x`;
    const links = "](#a".repeat(50_000);
    const returned = ["## Response Handling", "", "### Returned Data", "", "#|", "|| **Name**\n`type` | **Description** ||", `|| **result**\n[\`undefined\`\\|\`object\`](x) | ${lines} ${links} ||`, "|#", ""].join("\n");
    const started = performance.now();
    const built = read({ "api-reference/things/thing-get.md": page("|| **id**\n[`integer`](x) | Id ||", returned) });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(built.model?.methods[0]?.result?.type.kind).toBe("union");
  });

  it("blank lines by the hundred thousand in a bare result's words, or after a first row's bold name, are read in linear time (review)", () => {
    // describedBelow's "a list in the words" and the headerless table's "type link on the next line" each matched
    // `\s*` across line ends: 100,000 blank lines took seconds, quadratic in them.
    const blank = "\n".repeat(200_000);
    const returned = ["## Response Handling", "", "### Returned Data", "", "#|", "|| **Name**\n`type` | **Description** ||", `|| **result**\n[\`object\`](x) | Values of the bank details fields${blank}x ||`, "|#", "", "### Description of Bank Details Fields", "", "#|", "|| **Name**\n`type` | **Description** ||", "|| **ID**\n[`integer`](x) | Id ||", "|#", ""].join("\n");
    const headless = ["### Other", "", "#|", `|| **view**${blank}x | Words ||`, "|#", ""].join("\n");
    const started = performance.now();
    const built = read({ "api-reference/things/thing-get.md": page("|| **id**\n[`integer`](x) | Id ||", `${returned}\n${headless}`) });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(built.model?.methods[0]?.result?.type.kind).toBe("object");
  });

  it("many tables linked one into another stop at the page's budget with a warning, in linear time", () => {
    // Six tables of six object rows, each row linking to the next table: 6^6 fields if each link were read anew.
    const tablesText = Array.from({ length: 6 }, (_, t) =>
      [`### Level ${t} {#l${t}}`, "", "#|", "|| **Name**\n`type` | **Description** ||", ...Array.from({ length: 6 }, (_, r) => `|| **f${r}**\n[\`object\`](#l${t + 1}) | Row ||`), "|#", ""].join("\n"),
    ).join("\n");
    const started = performance.now();
    const built = read({ "api-reference/things/thing-get.md": page("|| **root**\n[`object`](#l0) | Root ||", tablesText) });
    expect(performance.now() - started).toBeLessThan(10_000);
    // The page's budget: 128 and 16 a row of its tables (fieldBudget), far below the 6^6 a reading anew would take.
    const budget = Number(built.diagnostics.find((d) => d.code === "unplaced" && /linked one into another/.test(d.message))?.message.match(/pass (\d+) fields/)?.[1]);
    expect(budget).toBeGreaterThan(128 + 16 * 42);
    expect(budget).toBeLessThan(128 + 16 * 60);
  });
});

describe("which front end reads one file", () => {
  it("YFM's marks outside fences say a page of the reference; inside a fence they are a spec quoting one", async () => {
    const { looksLikeYfm } = await import("../../generator/source/index.js");
    expect(looksLikeYfm("# P\n\n#|\n|| a | b ||\n|#\n")).toBe(true);
    expect(looksLikeYfm("# P\n\n{% note info %}\n\nx\n\n{% endnote %}\n")).toBe(true);
    expect(looksLikeYfm("# Spec\n\n```md\n#|\n|| a | b ||\n|#\n{% note info %}\n```\n")).toBe(false);
    expect(looksLikeYfm(readFileSync(join(ROOT, "spec-source/collaboration-platform-api.md"), "utf8"))).toBe(false);
  });
});

describe("a type linked into another page of the folder (`[`User[]`](../entities.md#user)`)", () => {
  const files = (extra: Record<string, string> = {}): Record<string, string> => ({
    "api-reference/data-types.md": "# Data Types\n\n## Data Types for Object References {#standart-objects}\n\n#|\n|| **Type** | **Description** ||\n|| `user` | An integer identifier of a user, for example, `1` ||\n|#\n",
    "api-reference/bots/entities.md": "# Objects\n\n## User {#user}\n\n#|\n|| **Field**\n`Type` | **Description** ||\n|| **id**\n[`integer`](../data-types.md) | Identifier ||\n|| **bot**\n[`Bot`](#bot) | The bot ||\n|#\n\n## Bot {#bot}\n\n#|\n|| **Field**\n`Type` | **Description** ||\n|| **code**\n[`string`](../data-types.md) | Code ||\n|#\n",
    ...extra,
  });
  const page = (row: string, extra = "") =>
    ["# Get a Bot bot.get", "", "> Scope: [`bot`](x)", "", "## Method Parameters", "", "#|", "|| **Name**", "`type` | **Description** ||", "|| **code***", "[`string`](x) | Code ||", "|#", "", "## Returned Data", "", "#|", "|| **Name**", "`type` | **Description** ||", "|| **result**", "[`object`](x) | Result ||", row, "|#", "", extra].join("\n");
  const read = (all: Record<string, string>, cache?: FragmentCache) =>
    buildFromSource({ kind: "reference", root: "r", files: Object.entries(all).map(([path, text]) => ({ path: `r/${path}`, text })), ...(cache ? { cache } : {}) });
  const resultOf = (r: ReturnType<typeof read>) => stripSources(r.model?.methods.find((m) => m.name === "bot.get")?.result?.type ?? { kind: "unknown" });
  const user = (members: unknown[]) => ({ kind: "object", members: [{ name: "users", type: { kind: "array", items: { kind: "object", members } }, required: false, nullable: false }] });
  const int = { kind: "primitive", type: "integer" };
  const str = { kind: "primitive", type: "string" };

  it("reads the other page's table, and the links inside it from that page, before a catalogue word of the same spelling", () => {
    const r = read(files({ "api-reference/bots/bot-get.md": page("|| **result.users**\n[`User[]`](./entities.md#user) | Users ||") }));
    // Not `integer[]` (the catalogue's `user` is an identifier): the link says which structure the word is.
    expect(resultOf(r)).toEqual(
      user([
        { name: "id", type: int, required: false, nullable: false },
        { name: "bot", type: { kind: "object", members: [{ name: "code", type: str, required: false, nullable: false }] }, required: false, nullable: false },
      ]),
    );
    const users = r.model?.methods.find((m) => m.name === "bot.get")?.result?.type;
    const id = users?.kind === "object" && users.members[0]?.type.kind === "array" && users.members[0].type.items.kind === "object" ? users.members[0].type.items.members[0] : null;
    expect(id?.source).toEqual({ file: "r/api-reference/bots/entities.md", line: 8, column: 4 });
  });

  it("the page's own section for the word comes before the shared one, and a link to no table says which word it read", () => {
    const own = "### Fields of the User Object {#user-object}\n\n#|\n|| **Field**\n`Type` | **Description** ||\n|| **name**\n[`string`](x) | Name ||\n|#\n";
    const r = read(files({ "api-reference/bots/bot-get.md": page("|| **result.users**\n[`User[]`](./entities.md#user) | Users [(details)](#user-object) ||", own) }));
    expect(resultOf(r)).toEqual(user([{ name: "name", type: str, required: false, nullable: false }]));
    expect(r.diagnostics.filter((d) => d.code === "unplaced")).toEqual([]);
    const missing = read(files({ "api-reference/bots/bot-get.md": page("|| **result.users**\n[`User[]`](./gone.md#user) | Users ||") }));
    expect(missing.diagnostics.filter((d) => d.code === "ambiguous-reading").map((d) => d.message)).toEqual([expect.stringContaining("the catalogue's 'User': the link leads to no field table")]);
  });

  it("a warning in the linked table is given once, however many pages follow the link", () => {
    const broken = files({
      "api-reference/bots/entities.md": "# Objects\n\n## User {#user}\n\n#|\n|| **Field**\n`Type` | **Description** ||\n|| **id**\n[`strnig`](../data-types.md) | Identifier ||\n|#\n",
      "api-reference/bots/bot-get.md": page("|| **result.users**\n[`User[]`](./entities.md#user) | Users ||"),
      "api-reference/bots/bot-list.md": page("|| **result.users**\n[`User[]`](./entities.md#user) | Users ||").replaceAll("bot.get", "bot.list"),
    });
    expect(read(broken).diagnostics.filter((d) => d.file.endsWith("entities.md"))).toHaveLength(1);
  });

  it("a cached reading is read again when a file the linked page includes changes (review)", () => {
    const cache = (entries: ReadonlyMap<string, unknown>): FragmentCache => ({ salt: "t", entries, next: new Map() });
    const before = files({
      "api-reference/bots/entities.md": "# Objects\n\n## User {#user}\n\n{% include [u](./_includes/user.md) %}\n",
      "api-reference/bots/_includes/user.md": "#|\n|| **Field**\n`Type` | **Description** ||\n|| **id**\n[`integer`](../data-types.md) | Identifier ||\n|#\n",
      "api-reference/bots/bot-get.md": page("|| **result.users**\n[`User[]`](./entities.md#user) | Users ||"),
    });
    const first = cache(new Map());
    read(before, first);
    const after = { ...before, "api-reference/bots/_includes/user.md": (before["api-reference/bots/_includes/user.md"] as string).replace("**id**", "**userId**") };
    expect(JSON.stringify(resultOf(read(after, cache(first.next))))).toContain("userId");
  });

  it("the type catalogue's own links still lead to its tables (review: its scope follows no page links)", () => {
    const catalogue =
      "# Data Types\n\n## Types {#t}\n\n#|\n|| **Type** | **Description** ||\n|| `sale_order` | An order ||\n|#\n\n### sale_order\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **address**\n[`object`](#address) | Address ||\n|#\n\n### Address fields {#address}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **city**\n[`string`](x) | City ||\n|#\n";
    const r = read({ "api-reference/data-types.md": catalogue, "api-reference/bots/bot-get.md": page("|| **result.order**\n[`sale_order`](../data-types.md) | Order ||") });
    const address = r.model?.resources.find((x) => x.name === "SaleOrderAddress");
    expect(address?.type.kind === "object" ? address.type.members.map((m) => m.name) : null).toEqual(["city"]);
  });

  it("a cached reading is read again when the page it links into changes", () => {
    const cache = (entries: ReadonlyMap<string, unknown>): FragmentCache => ({ salt: "t", entries, next: new Map() });
    const first = cache(new Map());
    const before = files({ "api-reference/bots/bot-get.md": page("|| **result.users**\n[`User[]`](./entities.md#user) | Users ||") });
    read(before, first);
    const after = { ...before, "api-reference/bots/entities.md": (before["api-reference/bots/entities.md"] as string).replace("**id**", "**userId**") };
    const second = read(after, cache(first.next));
    expect(resultOf(second)).toEqual(resultOf(read(after)));
    expect(JSON.stringify(resultOf(second))).toContain("userId");
  });
});

describe("what a row's words add to its type, and the catalogue's structures given as another's", () => {
  const read = (files: Record<string, string>) => buildFromSource({ kind: "reference", root: "r", files: Object.entries(files).map(([path, text]) => ({ path: `r/${path}`, text })) });
  const returned = (name: string, rows: string, extra = "") =>
    [`# A Method ${name}`, "", "> Scope: [`thing`](x)", "", "## Method Parameters", "", "#|", "|| **Name**", "`type` | **Description** ||", "|| **id***", "[`integer`](x) | Id ||", "|#", "", "## Returned Data", "", "#|", "|| **Name**", "`type` | **Description** ||", rows, "|#", "", extra].join("\n");
  const resultOf = (files: Record<string, string>, name: string) => stripSources(read(files).model?.methods.find((m) => m.name === name)?.result?.type ?? { kind: "unknown" });
  const str = { kind: "primitive", type: "string" };
  /** A type catalogue: its table of words (`|| word | words ||` rows), then each structure's heading and table. */
  const catalogueOf = (words: string[], ...structures: Array<[heading: string, ...rows: string[]]>) =>
    [
      ...["# Data Types", "", "## Types {#t}", "", "#|", "|| **Type** | **Description** ||", ...words, "|#", ""],
      ...structures.flatMap(([heading, ...rows]) => [heading, "", ...(rows.length > 0 && rows[0]?.startsWith("||") ? ["#|", "|| **Value**\n`type` | **Description** ||", ...rows, "|#"] : rows), ""]),
    ].join("\n");

  it("a row named or described as an identifier, typed by a catalogue word that is only an object, is the object's identifier, said (CURRENCY_ID: crm_currency)", () => {
    const catalogue = catalogueOf(
      ["|| [`crm_currency`](#crm_currency) | Object describing currency. ||", "|| [`sale_delivery_service`](#sale_delivery_service) | Object of the delivery service ||", "|| [`shop_note`](#shop_note) | Object of a note ||"],
      ["### crm_currency", "|| **AMOUNT**\n[`double`](x) | Rate ||", "|| **CURRENCY**\n[`string`](x) | Currency identifier ||"],
      ["### sale_delivery_service", "|| **id**\n[`integer`](x) | Identifier ||", "|| **name**\n[`string`](x) | Name ||"],
      ["### shop_note", "|| **text**\n[`string`](x) | Text ||"],
    );
    const text = returned("thing.get", "|| **result**\n[`crm_currency`](../data-types.md) | The currency ||").replace(
      "|| **id***\n[`integer`](x) | Id ||",
      [
        "|| **CURRENCY_ID**\n[`crm_currency`](../data-types.md) | Currency ||",
        "|| **deliveryId**\n[`sale_delivery_service`](../data-types.md) | Delivery service identifier ||",
        "|| **service**\n[`sale_delivery_service`](../data-types.md) | Identifier of the service ||",
        "|| **delivery**\n[`sale_delivery_service`](../data-types.md) | The delivery service ||",
        "|| **service2**\n[`sale_delivery_service`](../data-types.md) | Object with the identifier, name and logo of the delivery service ||",
        "|| **service3**\n[`sale_delivery_service`](../data-types.md) | Not an identifier ||",
        "|| **noteId**\n[`shop_note`](../data-types.md) | Note identifier ||",
      ].join("\n"),
    );
    const built = read({ "api-reference/data-types.md": catalogue, "api-reference/things/thing-get.md": text });
    const m = built.model?.methods.find((x) => x.name === "thing.get");
    const params = Object.fromEntries((m?.params ?? []).map((p) => [p.name, stripSources(p.type)]));
    // The member `id`, else the member named after the word's last part (crm_currency's CURRENCY).
    expect(params["CURRENCY_ID"]).toEqual(str);
    expect(params["deliveryId"]).toEqual({ kind: "primitive", type: "integer" });
    // The words alone say it too.
    expect(params["service"]).toEqual({ kind: "primitive", type: "integer" });
    // Neither name nor words: the object, as the cell says; a structure with no identifying member stays the object.
    expect(params["delivery"]).toEqual({ kind: "ref", resource: "SaleDeliveryService" });
    // Words that name an identifier among other things, or deny it (review): the object.
    expect(params["service2"]).toEqual({ kind: "ref", resource: "SaleDeliveryService" });
    expect(params["service3"]).toEqual({ kind: "ref", resource: "SaleDeliveryService" });
    expect(params["noteId"]).toEqual({ kind: "ref", resource: "ShopNote" });
    // `result` typed by the word is the object.
    expect(stripSources(m?.result?.type ?? { kind: "unknown" })).toEqual({ kind: "ref", resource: "CrmCurrency" });
    const said = built.diagnostics.filter((d) => d.code === "ambiguous-reading" && d.message.includes("the identifier of the object")).map((d) => d.line);
    expect(said).toHaveLength(3);
  });

  it("a file word whose catalogue says a value written is an upload structure is unknown in parameters, with that sentence; the answer's object in results", () => {
    const catalogue = catalogueOf(
      [
        "|| [`diskfile`](#diskfile) | File retained on Drive. In the response, the method returns an object describing the file; when writing, the value is passed as an upload structure. ||",
        "|| [`attached_diskfile`](#attached_diskfile) | File attached to a record. In the response, the method returns an object describing the file; when writing, the value is passed as an upload structure. ||",
        "|| `product_file` | Product image. In the response, the method returns an object describing the file. ||",
      ],
      ["### diskfile {#diskfile}", "|| **ID**\n[`integer`](x) | Identifier ||"],
      ["### attached_diskfile {#attached_diskfile}", "File attached to a record. In the response, the method returns an object describing the file."],
    );
    const text = returned(
      "thing.get",
      ["|| **result**\n[`object`](x) | The thing ||", "|| **FILES**\n[`diskfile`](../data-types.md) | Files ||", "|| **ICON**\n[`attached_diskfile`](../data-types.md#attached_diskfile) | Icon ||", "|| **PHOTO**\n[`product_file`](../data-types.md) | Photo ||"].join("\n"),
    ).replace(
      "|| **id***\n[`integer`](x) | Id ||",
      ["|| **FILES**\n[`diskfile`](../data-types.md) | Files ||", "|| **ICON**\n[`attached_diskfile`](../data-types.md#attached_diskfile) | Icon ||", "|| **PHOTO**\n[`product_file`](../data-types.md) | Photo ||"].join("\n"),
    );
    const built = read({ "api-reference/data-types.md": catalogue, "api-reference/things/thing-get.md": text });
    const m = built.model?.methods.find((x) => x.name === "thing.get");
    const params = Object.fromEntries((m?.params ?? []).map((p) => [p.name, stripSources(p.type)]));
    const upload = (word: string) => ({ kind: "unknown", note: `the catalogue's \`${word}\`: when writing, the value is passed as an upload structure` });
    expect(params["FILES"]).toEqual(upload("diskfile"));
    expect(params["ICON"]).toEqual(upload("attached_diskfile"));
    // No word about writing: the object the answer describes, in a parameter too.
    const open = { kind: "object", members: [], open: true };
    expect(params["PHOTO"]).toEqual(open);
    const result = stripSources(m?.result?.type ?? { kind: "unknown" }) as { members: Array<{ name: string; type: unknown }> };
    expect(Object.fromEntries(result.members.map((f) => [f.name, f.type]))).toEqual({ FILES: { kind: "ref", resource: "Diskfile" }, ICON: open, PHOTO: open });
    expect(built.diagnostics.filter((d) => d.code === "unknown-type-word")).toEqual([]);
    // A description of "when writing" 500 times and no upload structure is read in linear time: a pattern over the
    // whole text took 3.3 s at these 6,500 characters (26 s at twice as many, review). A hang guard, ten times more
    // than the reading of both pages takes.
    const hostile = catalogue.replace("File retained on Drive. In the response", `${"when writing ".repeat(500)}In the response`);
    const started = performance.now();
    const again = read({ "api-reference/data-types.md": hostile, "api-reference/things/thing-get.md": text });
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(again.model?.methods.find((x) => x.name === "thing.get")?.params.find((p) => p.name === "FILES")?.type.kind).toBe("unknown");
  });

  it("follows tables linked one into another 8 deep (the timeline's layout: layout, footer, menu, item, action), then stops with a warning", () => {
    const section = (i: number) => [`### Level ${i} {#l${i}}`, "", "#|", "|| **Name**", "`type` | **Description** ||", `|| **v${i}**`, "[`string`](x) | Value ||", `|| **next**`, `[\`object\`](#l${i + 1}) | Deeper ||`, "|#", ""].join("\n");
    const text = returned("thing.get", "|| **result**\n[`object`](#l1) | Root ||", Array.from({ length: 12 }, (_, i) => section(i + 1)).join("\n"));
    const built = read({ "api-reference/things/thing-get.md": text });
    let t = stripSources(built.model?.methods[0]?.result?.type ?? { kind: "unknown" }) as { kind: string; members?: Array<{ name: string; type: unknown }> };
    let depth = 0;
    while (t.kind === "object" && t.members?.some((m) => m.name === "next")) {
      depth++;
      t = t.members.find((m) => m.name === "next")?.type as typeof t;
    }
    expect(depth).toBe(8);
    expect(built.diagnostics.filter((d) => d.code === "unplaced" && d.message.includes("nest more than 8 deep"))).toHaveLength(1);
  });

  it("a row whose words end 'Multiple' is a list of what its cell names, said; 'Multiple' alone describes a flag", () => {
    const text = returned("thing.get", "|| **result**\n[`boolean`](x) | Done ||").replace(
      "|| **id***\n[`integer`](x) | Id ||",
      ["|| **PHONE**\n[`string`](x) | Phone. Multiple ||", "|| **CONTACT_IDS**\n[`integer`](x) | Identifiers of contacts. Multiple. ||", "|| **EMAIL**\n[`string[]`](x) | E-mail. Multiple ||", "|| **MULTIPLE**\n[`boolean`](x) | Multiple ||", "|| **NOTE**\n[`string`](x) | Multiple notes may be given ||"].join("\n"),
    );
    const built = read({ "api-reference/things/thing-get.md": text });
    const params = Object.fromEntries((built.model?.methods[0]?.params ?? []).map((p) => [p.name, stripSources(p.type)]));
    const int = { kind: "primitive", type: "integer" };
    expect(params).toEqual({ PHONE: { kind: "array", items: str }, CONTACT_IDS: { kind: "array", items: int }, EMAIL: { kind: "array", items: str }, MULTIPLE: expect.objectContaining({ kind: "union" }), NOTE: str });
    expect(built.diagnostics.filter((d) => d.code === "ambiguous-reading" && d.message.includes("its words say the field is multiple"))).toHaveLength(2);
  });

  it("'`true` or `false`' names a boolean's values: no `false` form is added (review: a map of booleans became `object | false`)", () => {
    const text = returned("thing.get", "|| **result**\n[`object`](x) | Result ||\n|| **blocked**\n[`object`](x) | Keyed by chat id; value — `true` or `false` ||");
    expect(resultOf({ "api-reference/things/thing-get.md": text }, "thing.get")).toEqual({ kind: "object", members: [{ name: "blocked", type: { kind: "object", members: [], open: true }, required: false, nullable: false }] });
  });

  it("the platform's `array` with keys is an object: `array(\"field\"=>…)`, a `{…}` format, 'with the field `NAME`'; 'Array of objects in the format …' is a list of them", () => {
    const row = (name: string, words: string) => `|| **${name}**\n[\`array\`](x) | ${words} ||`;
    const text = returned(
      "thing.add",
      "|| **result**\n[`boolean`](x) | Done ||",
    ).replace(
      "|| **id***\n[`integer`](x) | Id ||",
      [
        row("fields", 'A set of fields — an array in the form `array("field"=>"value"[, ...])`'),
        row("filter", "Array format:\n\n```\n{\n    field_1: value_1,\n}\n```"),
        row("order", "An array for sorting in the format `{'sort_field': 'sort_direction'}`"),
        row("data", "An array with the field `NAME`, the name of the folder"),
        row("data2", "Array with the field `NAME`, where `NAME` is the name of the new folder"),
        row("rights", 'An array of access permissions in the format `{"TASK_ID": 42}`'),
        row("files", "An array of files. Each file is passed as an array of the form `array('url' => 'link')`"),
        row("ids", "Identifiers of the things, in any order"),
      ].join("\n"),
    );
    const params = (read({ "api-reference/things/thing-add.md": text }).model?.methods[0]?.params ?? []).map((p) => ({ name: p.name, type: stripSources(p.type) }));
    const object = { kind: "object", members: [] };
    expect(params.map((p) => [p.name, p.type])).toEqual([
      ["fields", object],
      ["filter", object],
      ["order", object],
      ["data", object],
      ["data2", object],
      ["rights", { kind: "array", items: object }],
      ["files", { kind: "array", items: object }],
      ["ids", { kind: "array", items: { kind: "unknown" } }],
    ]);
  });

  it("a keyed `array` over a linked table of fields is one object of those fields, not a list of them (crm.activity.add's `fields`)", () => {
    const fields = ["", "### Fields {#fields}", "", "#|", "|| **Name**", "`type` | **Description** ||", "|| **OWNER_ID***", "[`integer`](x) | Owner ||", "|#"].join("\n");
    const row = (name: string, words: string) => `|| **${name}**\n[\`array\`](x) | ${words} ||`;
    const text = returned("thing.add", "|| **result**\n[`boolean`](x) | Done ||", fields).replace(
      "|| **id***\n[`integer`](x) | Id ||",
      [
        row("fields", "An array of values for the [thing fields](#fields) in the following structure:\n\n```json\n{\n  \"OWNER_ID\": 1\n}\n```"),
        row("patch", 'Set of [fields](#fields) — an object of the form `{"field": "value"[, ...]}`'),
        row("rows", "Rows. An array of objects in the format `{…}` of the [fields](#fields)"),
      ].join("\n"),
    );
    const params = Object.fromEntries((read({ "api-reference/things/thing-add.md": text }).model?.methods[0]?.params ?? []).map((p) => [p.name, stripSources(p.type)]));
    const owner = { kind: "object", members: [{ name: "OWNER_ID", type: { kind: "primitive", type: "integer" }, required: true, nullable: false }] };
    expect(params["fields"]).toEqual(owner);
    expect(params["patch"]).toEqual(owner);
    // Words that say a list of such objects keep the list.
    expect(params["rows"]).toEqual({ kind: "array", items: owner });
  });

  it("a section's tables: groups of fields are one object, tables that repeat fields are its cases, a labelled one fills its member", () => {
    const table = (...rows: string[]) => ["#|", "|| **Name**", "`type` | **Description** ||", ...rows, "|#"].join("\n");
    const field = (name: string, type = "string") => `|| **${name}**\n[\`${type}\`](x) | ${name} ||`;
    const page = (section: string) =>
      returned("thing.get", "|| **result**\n[`thing`](#thing) | The thing ||", ["### thing", "", section].join("\n"));
    // crm.contact.get: the general fields, then "If the contact was created by an external system" and its table,
    // then the address fields: one contact.
    const groups = page([table(field("ID", "integer"), field("NAME")), "", "If it came from elsewhere:", "", table(field("ORIGIN_ID")), "", "Address fields:", "", table(field("ADDRESS"))].join("\n"));
    expect(resultOf({ "api-reference/things/thing-get.md": groups }, "thing.get")).toEqual({
      kind: "object",
      members: ["ID", "NAME", "ORIGIN_ID", "ADDRESS"].map((name) => ({ name, type: name === "ID" ? { kind: "primitive", type: "integer" } : str, required: false, nullable: false })),
    });
    // One table per kind of thing, each naming `title` again: a union of the cases.
    const cases = page([table(field("title"), field("dealId")), "", "For leads:", "", table(field("title"), field("leadId"))].join("\n"));
    const union = resultOf({ "api-reference/things/thing-get.md": cases }, "thing.get") as { kind: string; options: Array<{ members: Array<{ name: string }> }> };
    expect(union.kind).toBe("union");
    expect(union.options.map((o) => o.members.map((m) => m.name))).toEqual([["title", "dealId"], ["title", "leadId"]]);
    // "**Object** `owner`:" and its table: the members of the `owner` row, not the thing's own.
    const labelled = page([table(field("ID", "integer"), field("owner", "object")), "", "**Object** `owner`:", "", table(field("login"))].join("\n"));
    expect(resultOf({ "api-reference/things/thing-get.md": labelled }, "thing.get")).toEqual({
      kind: "object",
      members: [
        { name: "ID", type: { kind: "primitive", type: "integer" }, required: false, nullable: false },
        { name: "owner", type: { kind: "object", members: [{ name: "login", type: str, required: false, nullable: false }] }, required: false, nullable: false },
      ],
    });
    // Review: a label for a list of objects fills its items; a chain (owner, then owner's address) nests; a table of
    // common fields and one per kind are each kind with the common ones; a label that names nothing is said.
    const typeOf = (section: string) => resultOf({ "api-reference/things/thing-get.md": page(section) }, "thing.get");
    expect(typeOf([table(field("ID", "integer"), field("items", "object[]")), "", "**Object** `items`:", "", table(field("PRICE", "number"))].join("\n"))).toEqual({
      kind: "object",
      members: [
        { name: "ID", type: { kind: "primitive", type: "integer" }, required: false, nullable: false },
        { name: "items", type: { kind: "array", items: { kind: "object", members: [{ name: "PRICE", type: { kind: "primitive", type: "number" }, required: false, nullable: false }] } }, required: false, nullable: false },
      ],
    });
    const chain = typeOf([table(field("owner", "object")), "", "**Object** `owner`:", "", table(field("address", "object")), "", "**Object** `address`:", "", table(field("city"))].join("\n")) as { members: Array<{ type: unknown }> };
    expect(JSON.stringify(chain)).toBe(JSON.stringify({ kind: "object", members: [{ name: "owner", type: { kind: "object", members: [{ name: "address", type: { kind: "object", members: [{ name: "city", type: str, required: false, nullable: false }] }, required: false, nullable: false }] }, required: false, nullable: false }] }));
    const shared = typeOf([table(field("ID", "integer")), "", "For deals:", "", table(field("VALUE"), field("dealId")), "", "For leads:", "", table(field("VALUE"), field("leadId"))].join("\n")) as { kind: string; options: Array<{ members: Array<{ name: string }> }> };
    expect(shared.options.map((o) => o.members.map((m) => m.name))).toEqual([["ID", "VALUE", "dealId"], ["ID", "VALUE", "leadId"]]);
    const stray = read({ "api-reference/things/thing-get.md": page([table(field("ID", "integer")), "", "**Object** `nothing`:", "", table(field("x"))].join("\n")) });
    expect(stray.diagnostics.some((d) => d.code === "unplaced" && d.message.includes("'nothing'"))).toBe(true);
  });

  it("a filter `{ field_1: value_1, … }` over its fields' table is that object, open to prefixed keys; 'An array of objects' in that format stays a list", () => {
    const fields = ["", "### Fields {#fields}", "", "#|", "|| **Name**", "`type` | **Description** ||", "|| **ID**", "[`integer`](x) | Id ||", "|#"].join("\n");
    const keyed = "An array in the following format:\n\n```\n{\n    field_1: value_1,\n    field_n: value_n,\n}\n```";
    const text = returned("thing.list", "|| **result**\n[`boolean`](x) | Done ||", fields).replace(
      "|| **id***\n[`integer`](x) | Id ||",
      [`|| **filter**\n[\`array\`](#fields) | ${keyed} ||`, `|| **rows**\n[\`array\`](#fields) | Rows. An array of objects in the following format:\n\n\`\`\`\n{\n    field_1: value_1,\n}\n\`\`\` ||`].join("\n"),
    );
    const params = (read({ "api-reference/things/thing-list.md": text }).model?.methods[0]?.params ?? []).map((p) => [p.name, stripSources(p.type)]);
    const id = { name: "ID", type: { kind: "primitive", type: "integer" }, required: false, nullable: false };
    expect(params).toEqual([
      ["filter", { kind: "object", members: [id], open: true }],
      ["rows", { kind: "array", items: { kind: "object", members: [id] } }],
    ]);
  });

  it("'Possible values:' and one backticked value per item: the row's values; a placeholder, a nested list or 'for example' reads none", () => {
    const list = (...items: string[]) => items.map((i) => `- ${i} — meaning`).join("\n");
    expect(possibleValues(`Visibility.\n\nPossible values:\n${list("`Y`", "`N`")}`)).toEqual(["Y", "N"]);
    expect(possibleValues(`Access level. Possible values:\n${list('`""`', "`X`")}`)).toEqual(["", "X"]);
    expect(possibleValues(`Scope. Possible values:\n${list("`'P'`", "`'C'`")}\n\nThe default value is \`'P'\``)).toEqual(["P", "C"]);
    // The items' words may wrap onto lines of their own; a blank line ends the list.
    expect(possibleValues(`Kind.\nPossible values:\n\n- \`a\` — first\n  and more\n- \`b\` — second\n\nSee also x.`)).toEqual(["a", "b"]);
    // Not the row's values: placeholders, several values in an item, an item without one, a member's list inside an
    // item, words that say the list is not all, a single value, repeats.
    expect(possibleValues(`Code.\nPossible values:\n${list("`U{id}`", "`AU`")}`)).toBeNull();
    expect(possibleValues(`Field.\nPossible values:\n- \`DETAIL_PICTURE\` — image\n- \`PROPERTY_N\` — property, where \`N\` is its identifier`)).toBeNull();
    expect(possibleValues(`Flag.\nPossible values:\n- \`Y\`, \`N\` — yes or no\n- \`D\` — default`)).toBeNull();
    expect(possibleValues(`Flag.\nPossible values:\n- \`Y\` — yes\n- no otherwise`)).toBeNull();
    expect(possibleValues(`Object.\n- \`FIELD\` — a member. Possible values:\n  - \`A\` — a\n  - \`B\` — b`)).toBeNull();
    expect(possibleValues(`Object.\nPossible values:\n    - \`A\` — a\n    - \`B\` — b`)).toBeNull();
    expect(possibleValues(`Type, for example:\nPossible values:\n${list("`a`", "`b`")}`)).toBeNull();
    expect(possibleValues(`One.\nPossible values:\n${list("`a`")}`)).toBeNull();
    // A range is not its ends (review): "`1`–`5` — stars".
    expect(possibleValues(`Rating.\nPossible values:\n- \`1\`–\`5\` — stars\n- \`0\` — none`)).toBeNull();
    expect(possibleValues(`Rating.\nPossible values:\n- \`1\` to \`5\` — stars\n- \`0\` — none`)).toBeNull();
    expect(possibleValues(`Twice.\nPossible values:\n${list("`a`", "`a`")}`)).toBeNull();
  });

  it("'Possible values:' reads back any list of distinct plain values (fast-check)", () => {
    const value = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
    fc.assert(
      fc.property(fc.uniqueArray(value, { minLength: 2, maxLength: 12 }), fc.constantFrom("Possible values:", "Words. Possible values:"), (values, head) => {
        expect(possibleValues(`${head}\n${values.map((v) => `- \`${v}\` — its meaning`).join("\n")}`)).toEqual(values);
      }),
      { numRuns: 300 },
    );
  });

  it("a row's 'Possible values:' types it: a string's values, an integer's when all are digits, the catalogue's `enum` its values", () => {
    const values = (words: string, ...v: string[]) => `${words}\n\nPossible values:\n${v.map((x) => `- \`${x}\` — meaning`).join("\n")}`;
    const text = returned("thing.add", "|| **result**\n[`boolean`](x) | Done ||").replace(
      "|| **id***\n[`integer`](x) | Id ||",
      [
        `|| **VISIBLE**\n[\`string\`](x) | ${values("Visible.", "Y", "N")} ||`,
        `|| **LEVEL**\n[\`integer\`](x) | ${values("Level.", "0", "1", "2")} ||`,
        `|| **MIXED**\n[\`integer\`](x) | ${values("Not all digits.", "0", "A")} ||`,
        `|| **KIND**\n[\`enum\`](x) | ${values("Kind.", "text", "html")} ||`,
        `|| **COLOR**\n[\`string\`](x) | ${values("Color, for example.", "red", "blue")} ||`,
      ].join("\n"),
    );
    const params = Object.fromEntries((read({ "api-reference/things/thing-add.md": text }).model?.methods[0]?.params ?? []).map((p) => [p.name, stripSources(p.type)]));
    expect(params).toEqual({
      VISIBLE: { kind: "primitive", type: "string", enum: ["Y", "N"] },
      LEVEL: { kind: "primitive", type: "integer", enum: [0, 1, 2] },
      MIXED: { kind: "primitive", type: "integer" },
      KIND: { kind: "primitive", type: "string", enum: ["text", "html"] },
      COLOR: { kind: "primitive", type: "string" },
    });
  });

  it("'where the key is X and the value is [an object](#y)' is a map of those objects; without the words the link is the object", () => {
    const counter = ["", "### Counter {#counter}", "", "#|", "|| **Name**", "`type` | **Description** ||", "|| **counter**", "[`integer`](x) | The count ||", "|#"].join("\n");
    const map = returned("thing.counters", "|| **result**\n[`object`](x) | An object where the key is the counter name and the value is an object with [counter description](#counter) ||", counter);
    const one = returned("thing.counter", "|| **result**\n[`object`](x) | The [counter description](#counter) ||", counter);
    const item = { kind: "object", members: [{ name: "counter", type: { kind: "primitive", type: "integer" }, required: false, nullable: false }] };
    const files = { "api-reference/things/thing-counters.md": map, "api-reference/things/thing-counter.md": one };
    expect(resultOf(files, "thing.counters")).toEqual({ kind: "object", members: [], additional: item });
    expect(resultOf(files, "thing.counter")).toEqual(item);
    // A link in the key's clause names the keys, not the values (second review: the guard had no test): each field of
    // the linked structure is a key, valued as the value's clause says: here "its label", no type, so any value; with
    // a linked word (`[rest_field_description](…)`, the catalog's getFields), that word.
    const keys = returned("thing.keyed", "|| **result**\n[`object`](#counter) | An object, where `field_N` is the identifier of the [counter](#counter), and `value` is its label ||", counter);
    const any = { kind: "unknown", note: "the words name no type of the values" };
    expect(resultOf({ "api-reference/things/thing-keyed.md": keys }, "thing.keyed")).toEqual({ kind: "object", members: [{ name: "counter", type: any, required: false, nullable: false }], additional: any });
    const typed = returned("thing.typed", "|| **result**\n[`object`](../data-types.md#counter) | Object in the format `{\"field_1\": \"value_1\"}`, where `field` is the identifier of the object field [counter](../data-types.md#counter), and `value` is an object of type [`integer`](../data-types.md) ||", counter);
    expect(resultOf({ "api-reference/things/thing-typed.md": typed }, "thing.typed")).toMatchObject({ members: [{ name: "counter", type: { kind: "primitive", type: "integer" } }] });
    // "For each field, an object with a description is returned" (tasks.template.fields): a map of the linked object.
    const each = returned("thing.described", "|| **result**\n[`object`](x) | Object with fields. For each field, an object with a description is returned [(detailed description)](#counter) ||", counter);
    expect(resultOf({ "api-reference/things/thing-described.md": each }, "thing.described")).toEqual({ kind: "object", members: [], additional: item });
    // The map's values hold their rows: the page's ledger says nothing of them.
    expect(read(files).diagnostics.filter((d) => d.code === "unplaced")).toEqual([]);
  });

  it("returned data that depends on `select` takes the selectable fields, each optional; `select` 'returned in `result`' adds them to it", () => {
    const selectable = ["", "### Available Fields for Selection {#selectable}", "", "#|", "|| **Name**", "`type` | **Description** ||", "|| **ID***", "[`integer`](x) | Id ||", "|| **NAME**", "[`string`](x) | Name ||", "|#"].join("\n");
    const list = returned("group.list", "|| **result**\n[`object`](x) | Root ||\n|| **groups**\n[`object[]`](x) | List of groups. The structure of the object depends on the fields passed in `select` ||", selectable).replace(
      "|| **id***\n[`integer`](x) | Id ||",
      "|| **select**\n[`array`](x) | An array containing the list of fields to select. See the [available fields](#selectable) ||",
    );
    const get = returned("group.get", "|| **result**\n[`object`](x) | The group ||\n|| **ID**\n[`integer`](x) | Id ||", selectable).replace(
      "|| **id***\n[`integer`](x) | Id ||",
      "|| **select**\n[`array`](x) | List of additional fields to retrieve, returned in `result`. More details [below](#selectable) ||",
    );
    const files = { "api-reference/groups/group-list.md": list, "api-reference/groups/group-get.md": get };
    const id = { name: "ID", type: { kind: "primitive", type: "integer" }, required: false, nullable: false };
    const name = { name: "NAME", type: { kind: "primitive", type: "string" }, required: false, nullable: false };
    expect(resultOf(files, "group.list")).toEqual({ kind: "object", members: [{ name: "groups", type: { kind: "array", items: { kind: "object", members: [id, name], open: true } }, required: false, nullable: false }] });
    // `ID` the result describes itself: its row under `select` is held there, not added twice.
    expect(resultOf(files, "group.get")).toEqual({ kind: "object", members: [id, name] });
    expect(read(files).diagnostics.filter((d) => d.code === "unplaced")).toEqual([]);
  });

  it("`select` linked to the fields' table names the fields, `order` maps each to a direction (review: `SELECT: [\"ID\"]` and `order: {ID: \"desc\"}` were refused)", () => {
    const fields = ["", "### Fields {#fields}", "", "#|", "|| **Name**", "`type` | **Description** ||", "|| **ID**", "[`integer`](x) | Id ||", "|| **NAME**", "[`string`](x) | Name ||", "|#"].join("\n");
    const text = returned("thing.list", "|| **result**\n[`boolean`](x) | Done ||", fields).replace(
      "|| **id***\n[`integer`](x) | Id ||",
      [
        "|| **SELECT**\n[`array`](x) | An array containing the [list of fields](#fields) to select ||",
        "|| **order**\n[`object`](x) | Sorting in the format `{\"field_1\": \"value_1\"}`. For `field_N`, use the [fields](#fields) ||",
        "|| **filter**\n[`object`](x) | Filter by the [fields](#fields) ||",
      ].join("\n"),
    );
    const params = Object.fromEntries((read({ "api-reference/things/thing-list.md": text }).model?.methods[0]?.params ?? []).map((p) => [p.name, stripSources(p.type)]));
    const direction = { kind: "primitive", type: "string", enum: ["asc", "desc"], openEnum: true };
    expect(params["SELECT"]).toEqual({ kind: "array", items: { kind: "primitive", type: "string", enum: ["ID", "NAME"], openEnum: true } });
    expect(params["order"]).toEqual({ kind: "object", open: true, members: [{ name: "ID", type: direction, required: false, nullable: false }, { name: "NAME", type: direction, required: false, nullable: false }] });
    // A filter's values are the fields' own.
    expect(params["filter"]).toMatchObject({ kind: "object", members: [{ name: "ID", type: { kind: "primitive", type: "integer" } }, { name: "NAME", type: { kind: "primitive", type: "string" } }] });
    // A `select` whose words say nothing of fields is left as its table reads (second review: the gate had no test).
    const things = returned("thing.pick", "|| **result**\n[`boolean`](x) | Done ||", fields).replace("|| **id***\n[`integer`](x) | Id ||", "|| **select**\n[`array`](x) | Which [things](#fields) to return ||");
    expect(read({ "api-reference/things/thing-pick.md": things }).model?.methods[0]?.params[0]?.type).toMatchObject({ kind: "array", items: { kind: "object", members: [{ name: "ID" }, { name: "NAME" }] } });
    // An `order` whose words say nothing of sorting is no sorting (review: sale.propertyvalue.modify's `fields.order`,
    // the sale's order with its `id` and `propertyValues`): its members keep their types.
    const sale = returned("thing.modify", "|| **result**\n[`boolean`](x) | Done ||", fields).replace("|| **id***\n[`integer`](x) | Id ||", "|| **order**\n[`object`](x) | The order, its [fields](#fields) ||");
    const order = read({ "api-reference/things/thing-modify.md": sale }).model?.methods[0]?.params[0]?.type;
    expect(order).toMatchObject({ kind: "object", members: [{ name: "ID", type: { kind: "primitive", type: "integer" } }, { name: "NAME", type: { kind: "primitive", type: "string" } }] });
  });

  it("'Can be a string, number, or `null`' gives the value those forms, where the cell's type is one of them", () => {
    const text = returned("thing.get", "|| **result**\n[`object`](x) | Result ||\n|| **default**\n[`string`](x) | Default value. Can be a string, number, or `null` ||\n|| **other**\n[`integer`](x) | Can be a string or an array ||");
    expect(resultOf({ "api-reference/things/thing-get.md": text }, "thing.get")).toEqual({
      kind: "object",
      members: [
        { name: "default", type: { kind: "union", options: [{ kind: "primitive", type: "string" }, { kind: "primitive", type: "number" }] }, required: false, nullable: true },
        { name: "other", type: { kind: "primitive", type: "integer" }, required: false, nullable: false },
      ],
    });
  });

  it("'Can be `null`' makes a returned field nullable, 'or `false`' adds false; a parameter's words do not", () => {
    const text = returned("thing.get", "|| **result**\n[`object`](x) | Result ||\n|| **workPosition**\n[`string`](x) | Position. Can be `null` ||\n|| **idle**\n[`datetime`](x) | Idle date or `false` ||\n|| **name**\n[`string`](x) | Name, never null ||");
    expect(resultOf({ "api-reference/things/thing-get.md": text }, "thing.get")).toEqual({
      kind: "object",
      members: [
        { name: "workPosition", type: str, required: false, nullable: true },
        { name: "idle", type: { kind: "union", options: [{ kind: "primitive", type: "string", format: "date-time" }, { kind: "primitive", type: "boolean", enum: [false] }] }, required: false, nullable: false },
        { name: "name", type: str, required: false, nullable: false },
      ],
    });
    const param = returned("thing.set", "|| **result**\n[`boolean`](x) | Done ||").replace("| Id ||", "| Id, or `false` to reset; can be `null` ||");
    const p = read({ "api-reference/things/thing-set.md": param }).model?.methods[0]?.params[0];
    expect([p?.type, p?.nullable]).toEqual([{ kind: "primitive", type: "integer" }, false]);
  });

  it("'Returns `false` if …' on a bare `result` keeps the rows beside it as its members, and adds false", () => {
    const text = returned("thing.move", "|| **result**\n[`object`](x) | The thing's fields. Returns `false` if it cannot move ||\n|| **ID**\n[`integer`](x) | Identifier ||");
    const r = read({ "api-reference/things/thing-move.md": text });
    expect(resultOf({ "api-reference/things/thing-move.md": text }, "thing.move")).toEqual({
      kind: "union",
      options: [{ kind: "object", members: [{ name: "ID", type: { kind: "primitive", type: "integer" }, required: false, nullable: false }] }, { kind: "primitive", type: "boolean", enum: [false] }],
    });
    expect(r.diagnostics.filter((d) => d.code === "unplaced")).toEqual([]);
  });

  it("a fields method whose `result` says it holds field descriptions: each member describes a field, linked or beside", () => {
    const linked = returned("thing.fields", "|| **result**\n[`object`](x) | Object with field descriptions [(detailed description)](#result) ||", "#### Fields of the Result Object {#result}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **ID**\n[`integer`](x) | Identifier ||\n|#\n");
    const beside = returned("thing.getFields", "|| **result**\n[`array`](x) | Array with the description of thing fields ||\n|| **ID**\n[`integer`](x) | Identifier ||");
    const names = returned("thing.namesof.fields", "|| **result**\n[`object`](x) | Object with field names [below](#result) ||", "#### Result {#result}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **ID**\n[`string`](x) | Name of the identifier field ||\n|#\n");
    // Linked from other words (crm.activity.fields: "Values for the `result` field correspond to [fields of the object]").
    const corresponds = returned("other.fields", "|| **result**\n[`object`](x) | Root element of the response. Values for the `result` field correspond to [fields of the object](#all-fields) ||", "#### Overview of the Fields {#all-fields}\n\n#|\n|| **Field** `type` | **Description** ||\n|| **ID***\n[`integer`](x) | Identifier ||\n|#\n");
    // Not every linked table is the fields (review): the attributes of one field's description, keyed by field (a
    // map: crm.address.fields), and the result's own member (crm.documentgenerator.template.getfields).
    const attributes = returned("addr.fields", "|| **result**\n[`object`](x) | An object in the format `{\"field_1\": \"value_1\"}`, where `field` is the field identifier and `value` is the object with [field attributes](#attributes) ||", "#### Attributes {#attributes}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **isRequired**\n[`boolean`](x) | Required ||\n|#\n");
    const own = returned("tpl.getfields", "|| **result**\n[`object`](x) | Root element of the response. Contains the [`templateFields`](#tf) object ||", "#### Template fields {#tf}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **templateFields**\n[`object`](x) | The fields ||\n|#\n");
    const files = { "api-reference/things/thing-fields.md": linked, "api-reference/things/thing-get-fields.md": beside, "api-reference/things/thing-names.md": names, "api-reference/things/other-fields.md": corresponds, "api-reference/things/addr-fields.md": attributes, "api-reference/things/tpl-fields.md": own };
    expect(resultOf(files, "addr.fields")).toMatchObject({ kind: "object", members: [], additional: { kind: "object", members: [{ name: "isRequired", required: false }] } });
    expect(resultOf(files, "tpl.getfields")).toMatchObject({ kind: "object", members: [{ name: "templateFields", type: { kind: "object" } }] });
    const described = { kind: "object", members: [{ name: "ID", type: { kind: "object", members: [], open: true }, required: false, nullable: false }], open: true };
    expect(resultOf(files, "thing.fields")).toEqual(described);
    expect(resultOf(files, "other.fields")).toEqual(described);
    // The other phrases that say so (second review: they had no test).
    for (const words of ["Root element of the response. Contains [fields](#all-fields) linking records to entities", "Root element of the response containing all [comment fields](#all-fields)", "Object containing a list of available fields in the format `{\"field_1\": \"value_1\"}`, where `field_N` is the identifier of the [object field](#all-fields), and `value` is a description"]) {
      const text = returned("phrase.fields", `|| **result**\n[\`object\`](x) | ${words} ||`, "#### Overview of the Fields {#all-fields}\n\n#|\n|| **Field** `type` | **Description** ||\n|| **ID***\n[`integer`](x) | Identifier ||\n|#\n");
      expect(resultOf({ "api-reference/things/phrase-fields.md": text }, "phrase.fields"), words).toEqual(described);
    }
    expect(resultOf(files, "thing.getFields")).toEqual(described);
    // "Object with field names" (mailservice.fields): the names themselves, as the table types them.
    expect(resultOf(files, "thing.namesof.fields")).toEqual({ kind: "object", members: [{ name: "ID", type: str, required: false, nullable: false }] });
    expect(read(files).diagnostics.filter((d) => d.code === "unplaced" || d.code === "ambiguous-reading")).toEqual([]);
  });

  it("an escaped `*` in a bold name is the name's (`UF_\\*`), not the required mark; `UF_*` is then a form of keys", () => {
    const text = returned("thing.list", "|| **result**\n[`object`](x) | Result ||\n|| **UF_\\***\n[`string`](x) | Custom fields ||\n|| **NAME***\n[`string`](x) | Name ||");
    expect(resultOf({ "api-reference/things/thing-list.md": text }, "thing.list")).toEqual({
      kind: "object",
      members: [{ name: "NAME", type: str, required: true, nullable: false }],
      keys: [{ name: "UF_*", type: str, required: false, nullable: false }],
      keyNames: ["UF_*"],
      keyDescription: "`UF_*` (Custom fields)",
    });
  });

  it("sections named by a path ('Fields of the result.state object', 'Element of the result.members array') type the rows they name, path first", () => {
    const table = (rows: string[]) => ["#|", "|| **Name**\n`type` | **Description** ||", ...rows, "|#", ""].join("\n");
    const extra = [
      "#### Fields of the result object\n",
      table(["|| **uid**\n[`string`](x) | Id ||", "|| **state**\n[`object`](x) | Status ||", "|| **members**\n[`array`](x) | Members ||"]),
      "#### Fields of the result.state object\n",
      table(["|| **code**\n[`string`](x) | Code ||"]),
      "#### Element of the result.members array\n",
      table(["|| **party**\n[`integer`](x) | Party ||", "|| **state**\n[`object`](x) | Its status ||"]),
      "#### Fields of the result.members.state object\n",
      table(["|| **signedAt**\n[`string`](x) | Signed ||"]),
    ].join("\n");
    const files = { "api-reference/things/thing-list.md": returned("thing.list", "|| **result**\n[`object`](x) | The document ||", extra) };
    const obj = (...members: unknown[]) => ({ kind: "object", members });
    const f = (name: string, type: unknown) => ({ name, type, required: false, nullable: false });
    // The members' `state` is its own section's, not result's `state` of the same name.
    expect(resultOf(files, "thing.list")).toEqual(
      obj(
        f("uid", str),
        f("state", obj(f("code", str))),
        f("members", { kind: "array", items: obj(f("party", { kind: "primitive", type: "integer" }), f("state", obj(f("signedAt", str)))) }),
      ),
    );
    expect(read(files).diagnostics.filter((d) => d.code === "unplaced")).toEqual([]);
    // "result Object Fields" and "Structure of the `result` Object" name `result` too.
    for (const heading of ["#### result Object Fields", "#### Structure of the `result` Object"]) {
      const one = { "api-reference/things/thing-list.md": returned("thing.list", "|| **result**\n[`object`](x) | The document ||", `${heading}\n\n${table(["|| **uid**\n[`string`](x) | Id ||"])}`) };
      expect(resultOf(one, "thing.list")).toEqual(obj(f("uid", str)));
    }
  });

  it("a table after '**Object** `x`:' or 'The result is an array of objects, each containing the following fields:' in the returned data is that member's, or result's items", () => {
    const table = ["#|", "|| **Name**\n`type` | **Description** ||", "|| **id**\n[`string`](x) | Id ||", "|#", ""].join("\n");
    const f = (name: string, type: unknown) => ({ name, type, required: false, nullable: false });
    const labelled = { "api-reference/things/thing-get.md": returned("thing.get", "|| **result**\n[`object`](x) | Root ||\n|| **solution**\n[`object`](x) | The solution ||", `**Object** \`solution\`:\n\n${table}`) };
    expect(resultOf(labelled, "thing.get")).toEqual({ kind: "object", members: [f("solution", { kind: "object", members: [f("id", str)] })] });
    expect(read(labelled).diagnostics.filter((d) => d.code === "unplaced")).toEqual([]);
    const items = { "api-reference/things/thing-list.md": returned("thing.list", "|| **result**\n[`array`](x) | The result as an array of objects ||", `The result is an array of objects, each containing the following fields:\n\n${table}`) };
    expect(resultOf(items, "thing.list")).toEqual({ kind: "array", items: { kind: "object", members: [f("id", str)] } });
    // Other words before the table name nothing: it stays unplaced.
    const other = { "api-reference/things/thing-list.md": returned("thing.list", "|| **result**\n[`array`](x) | The result ||", `Deprecated fields:\n\n${table}`) };
    expect(read(other).diagnostics.filter((d) => d.code === "unplaced")).toHaveLength(1);
  });

  it("a list under 'Returns `false`:' says when false comes, not forms of the value; `object` and `array` share one linked structure; a second table with its own `result` is another form", () => {
    const user = "#### User Object {#user-object}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **id**\n[`integer`](x) | Id ||\n|#\n";
    const int = { kind: "primitive", type: "integer" };
    const userObject = { kind: "object", members: [{ name: "id", type: int, required: false, nullable: false }] };
    const falsy = returned("thing.get", "|| **result**\n[`object`](x) | The data [(detailed description)](#user-object).\n\nReturns `false`:\n- if `id` is empty\n- if there is no such thing ||", user);
    expect(resultOf({ "api-reference/things/thing-get.md": falsy }, "thing.get")).toEqual({ kind: "union", options: [userObject, { kind: "primitive", type: "boolean", enum: [false] }] });
    // "When … / When …" items are forms of the value: each one the items name (im.department.*: "when `USER_DATA =
    // 'N'` contains an array of employee IDs, when 'Y' an array of objects describing users (link)"), keyed by
    // identifiers where the words say so; the reading says so. Where an item names no form, the members stay unknown.
    const forms = returned("thing.get", "|| **result**\n[`object`](x) | The data:\n- when `A`, ids\n- when `B`, [objects](#user-object) ||", user);
    // A row typed `object` whose forms are identifiers or objects, with no words keying it: neither is an object.
    expect(read({ "api-reference/things/thing-get.md": forms }).diagnostics.map((d) => d.message)).toContainEqual(expect.stringContaining("several forms by condition"));
    const keyed = returned("thing.get", "|| **result**\n[`object`](x) | The root object where the key is the department ID, and the value:\n- when `A` contains an array of employee IDs,\n- when `B` contains an array of objects describing users [(detailed description)](#user-object) ||", user);
    expect(resultOf({ "api-reference/things/thing-get.md": keyed }, "thing.get")).toEqual({ kind: "object", members: [], additional: { kind: "union", options: [{ kind: "array", items: int }, { kind: "array", items: userObject }] }, keyDescription: "identifier" });
    const list = returned("thing.list", "|| **result**\n[`array`](x) | List of users.\n- When `A`, contains user IDs\n- When `B`, contains user objects [(detailed description)](#user-object) ||", user);
    expect(resultOf({ "api-reference/things/thing-list.md": list }, "thing.list")).toEqual({ kind: "union", options: [{ kind: "array", items: int }, { kind: "array", items: userObject }] });
    // Given up, as before: an item that names another form; "IDs" in an item's condition, not its form; an item that
    // links the objects and says IDs too; "array of" in some items only; words that key the value inside an item
    // (second review: each had been read as a union, without a word of doubt).
    const unread = (words: string, method = "thing.get") => {
      const r = read({ [`api-reference/things/${method.replace(".", "-")}.md`]: returned(method, `|| **result**\n${words} ||`, user) });
      return [resultOf({ [`api-reference/things/${method.replace(".", "-")}.md`]: returned(method, `|| **result**\n${words} ||`, user) }, method), r.diagnostics.some((d) => d.message.includes("several forms by condition"))];
    };
    for (const words of [
      "[`array`](x) | Users.\n- when `A`, a code\n- when `B`, [objects](#user-object)",
      "[`array`](x) | Users.\n- when `A`, user objects [(d)](#user-object)\n- if the IDs are not found, an empty object",
      "[`array`](x) | Users.\n- when `A`, contains user IDs (see [users](#user-object))\n- when `B`, contains manager identifiers",
      "[`object`](x) | The root object where the key is the department ID, and the value:\n- when `A` contains an array of employee IDs,\n- when `B` contains objects describing users [(d)](#user-object)",
      "[`object`](x) | Users:\n- when `A`, an object where the key is the user ID and the value is the user [(d)](#user-object)\n- when `B`, contains an array of user IDs",
    ]) {
      const [type, said] = unread(words);
      expect([words, said, (type as TypeRef).kind === "union"]).toEqual([words, true, false]);
    }
    const pair = returned("thing.list", "|| **result**\n[`object`](x)\n[`array`](x) | Users. By default, an object with identifier keys; when `TYPE = 'array'`, an array.\n\nThe user object is described [below](#user-object) ||", user);
    expect(resultOf({ "api-reference/things/thing-list.md": pair }, "thing.list")).toEqual({
      kind: "union",
      options: [{ kind: "object", members: [], additional: userObject, keyDescription: "identifier" }, { kind: "array", items: userObject }],
    });
    const tabs = ["## Returned Data", "", "{% list tabs %}", "", "- One", "", "    #|", "    || **Name**", "    `type` | **Description** ||", "    || **result**", "    [`integer`](x) | Id ||", "    |#", "", "- Series", "", "    #|", "    || **Name**", "    `type` | **Description** ||", "    || **result**", "    [`object`](x) | Root ||", "    || **id**", "    [`integer`](x) | Id ||", "    |#", "", "{% endlist %}", ""].join("\n");
    const page = returned("thing.update", "|| **time**\n[`time`](x) | Time ||").replace(/## Returned Data[\s\S]*$/, tabs);
    const r = read({ "api-reference/things/thing-update.md": page });
    expect(stripSources(r.model?.methods[0]?.result?.type as TypeRef)).toEqual({ kind: "union", options: [int, userObject] });
    expect(r.diagnostics.filter((d) => d.code === "unplaced")).toEqual([]);
  });

  it("`x.id` linked to x's structure on a data-types page is x's identifier, never the structure; the heading's anchor keeps `_`", () => {
    const types = ["# Data Types", "", "## Data Types", "", "#|", "|| **Type** | **Description** ||", "|| [`thing_item.id`](#thing_item) | Integer identifier of the item ||", "|#", "", "## Object Structure", "", "### thing_item", "", "#|", "|| **Value**", "`type` | **Description** ||", "|| **id**", "[`integer`](x) | Id ||", "|| **title**", "[`string`](x) | Title ||", "|#", ""].join("\n");
    const page = returned("thing.get", "|| **result**\n[`object`](../data-types.md#thing_item) | The item ||").replace("[`integer`](x) | Id ||", "[`thing_item.id`](../data-types.md#thing_item) | Id ||");
    const m = read({ "api-reference/things/data-types.md": types, "api-reference/things/items/thing-get.md": page }).model?.methods[0];
    expect(m?.params[0]?.type).toEqual({ kind: "primitive", type: "integer" });
    // The structure the link reaches (`#thing_item`, a heading with no anchor written) is the result's type.
    expect(stripSources(m?.result?.type as TypeRef)).toMatchObject({ kind: "object", members: [{ name: "id" }, { name: "title" }] });
  });

  it("second review: a key form beside result's rows keeps them; lists under other values' words; `x.id` linked to another page; a map's key clause in linear time", () => {
    const f = (name: string, type: unknown) => ({ name, type, required: false, nullable: false });
    // `UF_...` among the rows beside a bare `result`: a form of keys, not a dotted path that throws the rows away.
    const beside = returned("thing.get", "|| **result**\n[`object`](x) | Root ||\n|| **NAME**\n[`string`](x) | Name ||\n|| **UF_...**\n[`string`](x) | Custom fields ||");
    expect(resultOf({ "api-reference/things/thing-get.md": beside }, "thing.get")).toMatchObject({ members: [f("NAME", str)], keyNames: ["UF_..."] });
    // A list under "will return `null`:" says when null comes: the linked object, nullable. Under "Returns `0`:"
    // nothing adds the value, so the items stay forms of it (members unknown, said).
    const user = "#### User Object {#user-object}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **id**\n[`integer`](x) | Id ||\n|#\n";
    const nulls = returned("thing.get", "|| **result**\n[`object`](x) | The [user](#user-object). The method will return `null`:\n- if the id is empty\n- if there is none ||", user);
    expect(resultOf({ "api-reference/things/thing-get.md": nulls }, "thing.get")).toEqual({ kind: "union", options: [{ kind: "object", members: [f("id", { kind: "primitive", type: "integer" })] }, { kind: "null" }] });
    const zero = returned("thing.get", "|| **result**\n[`object`](x) | The [user](#user-object). Returns `0`:\n- if the id is empty\n- if there is none ||", user);
    expect(read({ "api-reference/things/thing-get.md": zero }).diagnostics.map((d) => d.message)).toContainEqual(expect.stringContaining("several forms by condition"));
    // `thing.id` linked to a structure on another page is the structure's `id`, not the structure.
    const other = "# Things\n\n## Thing {#thing}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **id**\n[`integer`](x) | Id ||\n|| **title**\n[`string`](x) | Title ||\n|#\n";
    const linked = returned("thing.get", "|| **result**\n[`object`](x) | Root ||\n|| **owner**\n[`thing.id`](./other.md#thing) | The owner ||");
    expect(resultOf({ "api-reference/things/thing-get.md": linked, "api-reference/things/other.md": other }, "thing.get")).toEqual({ kind: "object", members: [f("owner", { kind: "primitive", type: "integer" })] });
    // A key clause of many `](a)` with no value clause after it: one way to match each, so it fails at once (it took
    // seconds at 30 repeats when a link's `]` could also be a plain character).
    const slow = returned("thing.get", `|| **result**\n[\`object\`](#user-object) | An object, where the key is ${"](a)".repeat(2000)} ||`, user);
    expect(resultOf({ "api-reference/things/thing-get.md": slow }, "thing.get")).toEqual({ kind: "object", members: [f("id", { kind: "primitive", type: "integer" })] });
  });

  it("a `result` cell linked to a structure, with rows beside it, takes the rows: the link names what one of them holds", () => {
    const types = ["# Data Types", "", "## Object Structure", "", "### thing_doc", "", "#|", "|| **Value**", "`type` | **Description** ||", "|| **id**", "[`integer`](x) | Id ||", "|#", ""].join("\n");
    const page = returned("thing.add", "|| **result**\n[`object`](../data-types.md#thing_doc) | Root ||\n|| **document**\n[`object`](../data-types.md#thing_doc) | The created document ||");
    const r = read({ "api-reference/things/data-types.md": types, "api-reference/things/docs/thing-add.md": page });
    expect(stripSources(r.model?.methods[0]?.result?.type as TypeRef)).toEqual({ kind: "object", members: [{ name: "document", type: { kind: "object", members: [{ name: "id", type: { kind: "primitive", type: "integer" }, required: false, nullable: false }] }, required: false, nullable: false }] });
    expect(r.diagnostics.filter((d) => d.code === "unplaced")).toEqual([]);
  });

  it("rows named as forms of keys (`UF_...`, `\\<userId\\>`, `upload{id}`) are the keys their object takes, not members", () => {
    const files = (rows: string, extra = "") => ({ "api-reference/things/thing-list.md": returned("thing.list", `|| **result**\n[\`object\`](x) | Result ||\n${rows}`, extra) });
    const user = "### User {#user}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **id**\n[`integer`](x) | Id ||\n|#\n";
    // A map keyed by id: the form is any key, so every value is a user.
    const map = resultOf(files("|| **users**\n[`object`](x) | Users ||\n|| **users.\\<userId\\>**\n[`object`](#user) | A user ||", user), "thing.list");
    expect(map).toEqual({
      kind: "object",
      members: [
        {
          name: "users",
          type: {
            kind: "object",
            members: [],
            keys: [{ name: "<userId>", type: { kind: "object", members: [{ name: "id", type: { kind: "primitive", type: "integer" }, required: false, nullable: false }] }, required: false, nullable: false }],
            keyNames: ["<userId>"],
            keyDescription: "`<userId>` (A user)",
            additional: { kind: "object", members: [{ name: "id", type: { kind: "primitive", type: "integer" }, required: false, nullable: false }] },
            // The bare `object` row is open; the form is any key, so every key's value is a user all the same.
            open: true,
          },
          required: false,
          nullable: false,
        },
      ],
    });
    // Two forms beside a member: each keeps its own value type; the object stays closed to other keys.
    const thing = "### Thing {#thing}\n\n#|\n|| **Name**\n`type` | **Description** ||\n|| **TITLE**\n[`string`](x) | Title ||\n|| **UF_...**\n[`string`](x) | Custom fields ||\n|| **upload{id}**\n[`integer`](x) | An upload ||\n|#\n";
    const mixed = resultOf({ "api-reference/things/thing-list.md": returned("thing.list", "|| **result**\n[`object`](#thing) | Result ||", thing) }, "thing.list");
    expect(mixed).toMatchObject({ members: [{ name: "TITLE" }], keyNames: ["UF_...", "upload{id}"], keys: [{ type: str }, { type: { kind: "primitive", type: "integer" } }] });
    // Forms with a literal part leave other keys as they were: no `additional`.
    expect(mixed).not.toHaveProperty("additional");
    // `result.UF_...` is a dotted row whose last name ends in "and so on", not a path into `UF_`; the row keeps its
    // position in `keys`, and the page's ledger finds it held.
    const r = read(files("|| **result.UF_...**\n[`string`](x) | Custom fields ||"));
    expect(r.diagnostics.filter((d) => d.code === "unplaced")).toEqual([]);
    expect(r.model?.methods[0]?.result?.type).toMatchObject({ members: [], keyNames: ["UF_..."], keys: [{ name: "UF_...", source: { line: 21 } }] });
    // A bare `object` parameter stays open beside its forms. A parameter named as a form stays a parameter: a
    // method's parameters have no other keys to carry it.
    const params = ["|| **fields**\n[`object`](x) | Fields ||", "|| **fields.UF_...**\n[`string`](x) | Custom fields ||", "|| **UF_\\***\n[`string`](x) | Custom fields ||"];
    const withParams = returned("thing.list", "|| **result**\n[`boolean`](x) | Done ||").replace("|| **id***\n[`integer`](x) | Id ||", params.join("\n"));
    const m = read({ "api-reference/things/thing-list.md": withParams }).model?.methods[0];
    expect(m?.params.map((p) => p.name)).toEqual(["fields", "UF_*"]);
    expect(m?.params[0]?.type).toMatchObject({ members: [], open: true, keyNames: ["UF_..."] });
  });

  it("a catalogue heading that says 'See the description of [x](#x)' is x's structure, not a word with none", () => {
    const catalogue = [
      "# Data Types",
      "",
      "## Object References {#refs}",
      "",
      "#|",
      "|| **Type** | **Description** ||",
      "|| `shop_property` | Integer identifier of the property (e.g., `1`) ||",
      "|| `shop_other_property` | Integer identifier of the other property (e.g., `1`) ||",
      "|#",
      "",
      "### shop_property",
      "",
      "#|",
      "|| **Value**\n`type` | **Description** ||",
      "|| **code**\n[`string`](x) | Code ||",
      "|#",
      "",
      "### shop_other_property",
      "",
      "See the description of [shop_property](#shop_property).",
      "",
    ].join("\n");
    const text = returned("thing.get", "|| **result**\n[`object`](x) | Result ||\n|| **property**\n[`shop_other_property`](x) | The property ||");
    const r = read({ "api-reference/data-types.md": catalogue, "api-reference/things/thing-get.md": text });
    const t = r.model?.methods[0]?.result?.type;
    const member = t?.kind === "object" ? t.members[0]?.type : undefined;
    // The identifier or the structure, as for a word that has both (said once at the definition).
    expect(member?.kind).toBe("union");
    expect(JSON.stringify(member)).toContain("ShopProperty");
  });

  it("`x.id` where the table of words and the structure's `id` row disagree is either, said once at the definition", () => {
    const catalogue = (idType: string) =>
      [
        "# Data Types",
        "",
        "#|",
        "|| **Type** | **Description** ||",
        "|| [`shop_shipment`](#shop_shipment) | Integer identifier of the shipment (e.g., `1`) ||",
        "|#",
        "",
        "### shop_shipment",
        "",
        "#|",
        "|| **Name**\n`type` | **Description** ||",
        `|| **id**\n[\`${idType}\`](x) | Identifier of the shipment ||`,
        "|| **code**\n[`string`](x) | Code ||",
        "|#",
        "",
      ].join("\n");
    const text = returned("thing.get", "|| **result**\n[`object`](x) | Result ||\n|| **shipmentId**\n[`shop_shipment.id`](x) | The shipment ||\n|| **code**\n[`shop_shipment.code`](x) | Its code ||");
    const member = (idType: string) => {
      const r = read({ "api-reference/data-types.md": catalogue(idType), "api-reference/things/thing-get.md": text });
      const t = r.model?.methods[0]?.result?.type;
      const said = r.diagnostics.filter((d) => d.code === "ambiguous-reading" && d.message.includes(".id:")).map((d) => d.message);
      return { types: (t?.kind === "object" ? t.members : []).map((f) => stripSources(f.type)), said };
    };
    const str = { kind: "primitive", type: "string" };
    const int = { kind: "primitive", type: "integer" };
    // "Integer identifier" and a `string` row: both statements, both taken; `code` is the row's alone.
    expect(member("string")).toEqual({ types: [{ kind: "union", options: [str, int] }, str], said: [expect.stringContaining("shop_shipment.id: the table of words says integer, the structure's `id` row string")] });
    // They agree: the row's type, nothing said.
    expect(member("integer")).toEqual({ types: [int, str], said: [] });
  });

  it("a word the catalogue defines in words alone is what they say: an object of members given elsewhere, or any value; no unknown word", () => {
    const catalogue = [
      "# Data Types",
      "",
      "#|",
      "|| **Type** | **Description** ||",
      "|| `lang_map` | Object format:\n```\n{\n    lang_1: value_1,\n}\n```\n\nwhere `lang_n` - language ||",
      "|| `shop_userfield` | Value of a user field. The specific type of the value depends on the type of the field itself ||",
      "|| `shop_note` | A note about the shop ||",
      "|| `shop_enum_kind` | Kind of the shop: `1` — retail, `2` — wholesale. `0` — not defined. ||",
      "|| `shop_enum_loose` | Kind, for example: `1` — retail, `2` — wholesale ||",
      "|#",
      "",
    ].join("\n");
    const text = returned("thing.get", "|| **result**\n[`object`](x) | Result ||\n|| **labels**\n[`lang_map`](x) | Labels ||\n|| **uf**\n[`shop_userfield`](x) | A field ||\n|| **note**\n[`shop_note`](x) | A note ||\n|| **kind**\n[`shop_enum_kind`](x) | Kind ||\n|| **loose**\n[`shop_enum_loose`](x) | Kind ||");
    const r = read({ "api-reference/data-types.md": catalogue, "api-reference/things/thing-get.md": text });
    const t = r.model?.methods[0]?.result?.type;
    const members = Object.fromEntries((t?.kind === "object" ? t.members : []).map((f) => [f.name, f.type]));
    expect(members["labels"]).toEqual({ kind: "object", members: [], open: true });
    expect(members["uf"]).toMatchObject({ kind: "unknown", note: expect.stringContaining("depends on the type of the field") });
    // Values listed as "`1` — retail, `2` — wholesale": an integer of those; "for example" lists no set.
    expect(members["kind"]).toEqual({ kind: "primitive", type: "integer", enum: [1, 2, 0] });
    // A description that says neither stays an unknown word, with its warning.
    expect(members["note"]?.kind).toBe("unknown");
    expect(members["loose"]?.kind).toBe("unknown");
    expect(r.diagnostics.filter((d) => d.code === "unknown-type-word").map((d) => d.message)).toEqual([expect.stringContaining("shop_note"), expect.stringContaining("shop_enum_loose")]);
  });
});

describe("hostile pages (the fault probe of the reader after issue 29)", () => {
  const page = (name: string, params: string[], extra: string[] = [], result = ["|| **result**", "[`boolean`](../data-types.md) | Success ||"]) =>
    [`# Do It ${name}`, "", "> Scope: [`thing`](x)", "", "## Method Parameters", "", "#|", "|| **Name**", "`type` | **Description** ||", ...params, "|#", "", "## Returned Data", "", "#|", "|| **Name**", "`type` | **Description** ||", ...result, "|#", "", ...extra].join("\n");
  const source = (files: Record<string, string>) => ({ kind: "reference" as const, root: "r", files: Object.entries(files).map(([path, text]) => ({ path: `r/${path}`, text })) });

  it("a page's folder named with a star then a slash stays inside the @see comment, and a parameter named __proto__ is a property, not a prototype: the run writes, the types compile", async () => {
    const dir = mkdtempSync(join(tmpdir(), "crc-hostile-ref-"));
    try {
      const folder = "api-reference/a*/ export declare const PWNED: 1; /*";
      const pages: Record<string, string> = {
        [`${folder}/z.md`]: page("thing.do", ["|| **id**", "[`integer`](../data-types.md) | Id ||", "|| **__proto__**", "[`string`](../data-types.md) | A name like any other ||"]),
        "api-reference/b/b ${x} `q` \"d\".md": page("thing.other", ["|| **id**", "[`integer`](../data-types.md) | Id ||"]),
      };
      for (const [path, text] of Object.entries(pages)) {
        mkdirSync(join(dir, "r", path, ".."), { recursive: true });
        writeFileSync(join(dir, "r", path), text);
      }
      const gen = spawnSync(process.execPath, [join(ROOT, "dist/generator/cli/main.js"), "generate", "--spec", join(dir, "r"), "--out", join(dir, "out")], { cwd: dir, encoding: "utf8" });
      expect(gen.status, gen.stderr).toBe(0);
      const areas = join(dir, "out/types/areas");
      const types = readFileSync(join(areas, "thing.d.ts"), "utf8");
      expect(types).not.toContain("export declare const PWNED");
      expect(types).toContain("@see https://apidocs.bitrix24.com/api-reference/a%2A/%20export%20declare%20const%20PWNED%3A%201%3B%20/%2A/z.html");
      const legacy = JSON.parse(readFileSync(join(dir, "out/openapi/openapi.legacy.json"), "utf8")) as { paths: Record<string, { post: { requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } } }> };
      const props = Object.values(legacy.paths["/thing.do"]?.post.requestBody.content ?? {})[0]?.schema.properties ?? {};
      expect(Object.keys(props)).toEqual(["id", "__proto__"]);
      expect(Object.getPrototypeOf(props)).toBe(Object.prototype);
      expect(readFileSync(join(dir, "out/openapi/openapi.legacy.yaml"), "utf8")).toContain("__proto__:");
      expectStrictCompile(dir, { include: ["out/types/**/*.d.ts"] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("a folder of no method is told what a page of the reference holds, not a spec's section", () => {
    const got = buildFromSource(source({ "api-reference/t/t.md": "# Just words\n\nNo method here.\n" }));
    expect(got.diagnostics.filter((d) => d.code === "no-methods").map((d) => [d.file, d.message])).toEqual([[expect.any(String), expect.stringContaining("The folder describes no method, expected pages titled '# Words method.name'")]]);
  });

  it("a row whose path joins thousands of names is a warning, not a stack overflow; one of three still nests", () => {
    const deep = `${"a.".repeat(8_000)}b`;
    const got = buildFromSource(source({ "api-reference/t/t.md": page("thing.do", ["|| **id**", "[`integer`](../data-types.md) | Id ||", "|| **fields**", "[`object`](../data-types.md) | Fields ||", "|| **fields.inner**", "[`object`](../data-types.md) | Inner ||", "|| **fields.inner.name**", "[`string`](../data-types.md) | Name ||", `|| **${deep}**`, "[`integer`](../data-types.md) | Deep ||"]) }));
    const m = got.model?.methods.find((x) => x.name === "thing.do");
    expect(stripSources(m?.params.find((p) => p.name === "fields")?.type ?? { kind: "unknown" })).toEqual({ kind: "object", open: true, members: [{ name: "inner", type: { kind: "object", open: true, members: [{ name: "name", type: { kind: "primitive", type: "string" }, required: false, nullable: false }] }, required: false, nullable: false }] });
    expect(got.diagnostics.filter((d) => d.code === "unplaced").map((d) => d.message)).toEqual([expect.stringContaining("its path joins more than 32 names")]);
  });

  it("a run of backticks in a type cell costs linear time (it took 15 s at 200,000)", () => {
    const started = performance.now();
    const got = buildFromSource(source({ "api-reference/t/t.md": page("thing.do", ["|| **id**", "[`integer`](../data-types.md) | Id ||", "|| **a**", `${"`".repeat(200_000)} | x ||`]) }));
    // Hang guard: ten times what it takes now (tens of milliseconds); the old pattern took 15 s.
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(got.model?.methods.find((x) => x.name === "thing.do")?.params.map((p) => p.name)).toEqual(["id", "a"]);
  });

  it("type cells, titles, event titles and scope lists of long runs cost linear time (the review of the probe's fixes)", () => {
    const timed = (files: Record<string, string>) => {
      const started = performance.now();
      const got = buildFromSource(source(files));
      return { got, ms: performance.now() - started };
    };
    const cell = (c: string) => ({ "api-reference/t/t.md": page("thing.do", ["|| **id**", "[`integer`](../data-types.md) | Id ||", "|| **c**", `${c} | x ||`]) });
    // Each a hang guard of 3 s, ten times what the slowest (the links, 0.3 s) takes now; before, each took the time
    // after it.
    const cases: Array<[string, Record<string, string>]> = [
      ["spaces around no | nor or (42 s)", cell(`\`a ${" ".repeat(200_000)} b\``)],
      ["[] pairs before another character (32 s)", cell(`\`a ${"[]".repeat(100_000)} x\``)],
      ["links never closed (18 s)", cell("`a`](".repeat(80_000))],
      ["a title word of dots (19 s)", { "api-reference/t/u.md": page(`${".".repeat(200_000)}x thing.other`, ["|| **id**", "[`integer`](../data-types.md) | Id ||"]) }],
      ["an event title of one word (14.5 s)", { "api-reference/t/e.md": [`# ${"a".repeat(200_000)}`, "", "## What the Handler Receives", "", "#|", "|| **Name**", "`type` | **Description** ||", "|| **event**", "[`string`](../data-types.md) | Event ||", "|#", ""].join("\n") }],
    ];
    for (const [what, files] of cases) {
      // Beside a plain method page, so that every folder has a model.
      const { got, ms } = timed({ "api-reference/t/p.md": page("thing.plain", ["|| **id**", "[`integer`](../data-types.md) | Id ||"]), ...files });
      expect(ms, what).toBeLessThan(3_000);
      expect(got.model ? "model" : "none", what).toBe("model");
    }
    // A scope list's code of many dots before a letter (3.4 s at 100,000).
    const started = performance.now();
    const list = readScopeList([{ kind: "table", rows: [[{ text: "Scope Code", file: "p.md", line: 1, column: 1 }, { text: "Scope Name", file: "p.md", line: 1, column: 1 }], [{ text: "**a**", file: "p.md", line: 2, column: 1 }, { text: "A", file: "p.md", line: 2, column: 1 }]], end: 0, file: "p.md", line: 1, column: 1 }, { kind: "text", text: `Deprecated scopes are available — a${".".repeat(100_000)}x`, file: "p.md", line: 5, column: 1 }], []);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(list?.map((x) => x.code)).toContain("a");
  });

  it("a type of more than 8 nested lists is unknown, said, not a type thousands deep (its printing overflowed the stack)", () => {
    const got = buildFromSource(source({ "api-reference/t/t.md": page("thing.do", ["|| **id**", "[`integer`](../data-types.md) | Id ||", "|| **deep**", `\`string${"[]".repeat(3_000)}\` | Deep ||`, "|| **two**", "`string[]` | Two ||"]) }));
    const params = got.model?.methods.find((m) => m.name === "thing.do")?.params ?? [];
    expect(params.find((p) => p.name === "deep")?.type.kind).toBe("unknown");
    expect(stripSources(params.find((p) => p.name === "two")?.type ?? { kind: "unknown" })).toEqual({ kind: "array", items: { kind: "primitive", type: "string" } });
    expect(got.diagnostics.filter((d) => d.code === "unplaced").map((d) => d.message)).toEqual([expect.stringContaining("with 3000 '[]': lists nested more than 8 deep")]);
  });

  it("a JSDoc tag's text cannot close its comment (a spec's deprecation note read `*/ export declare const PWNED`)", async () => {
    const { doc } = await import("../../generator/emit/ts/printer.js");
    const text = doc(["A parameter."], { resourceName: (n: string) => n, see: () => "", fromReference: () => false } as never, undefined, ["@deprecated stop */ export declare const PWNED: 1; /*", "@see https://x.example/a*/b\nc"]);
    expect(text).not.toMatch(/\*\/ export/);
    expect(text.match(/\*\//g)).toEqual(["*/"]);
    expect(text).toContain("@deprecated stop *\\/ export declare const PWNED: 1; /*");
    expect(text).toContain("@see https://x.example/a*\\/b c");
  });

  it("a changelog line names a page whose file name holds a line break on one line", async () => {
    const { changelogFile } = await import("../../generator/emit/changelog.js");
    const at = { file: "docs/api-reference/a\n## Injected\n.md", line: 3, column: 1 };
    const change = { code: "method-added", severity: "minor", audiences: { client: "minor", server: "minor" }, method: "thing.do", version: "legacy", resource: null, message: "Method thing.do is new", from: null, to: at, at } as const;
    const file = changelogFile({ kind: "client", name: "c", version: "0.2.0", previousVersion: "0.1.0", diff: { bump: "minor", changes: [change as never] }, regenerated: null, specPath: "docs", specSha256: "0", previousText: undefined }, "h");
    expect(file.contents).not.toMatch(/^## Injected/m);
    expect(file.contents).toContain("api-reference/a ## Injected .md line 3");
  });

  it("sections whose tables link one another read at most 128 fields and 16 a row of the page, with a warning (20,000 wrote 50 MB from 3 KB)", () => {
    const n = 8;
    const sections = Array.from({ length: n }, (_, i) => [`### Section ${i} {#s${i}}`, "", "#|", "|| **Name**", "`type` | **Description** ||", ...Array.from({ length: n }, (_, j) => `|| **f${j}**\n[\`object\`](#s${j}) | x ||`), "|#", ""]).flat();
    const got = buildFromSource(source({ "api-reference/t/t.md": page("thing.do", ["|| **id**", "[`integer`](../data-types.md) | Id ||"], sections, ["|| **result**", "[`object`](#s0) | x ||"]) }));
    const count = (t: TypeRef): number => (t.kind === "object" ? t.members.reduce((k, f) => k + 1 + count(f.type), 0) : t.kind === "array" ? count(t.items) : 0);
    const result = got.model?.methods.find((x) => x.name === "thing.do")?.result?.type ?? { kind: "unknown" };
    // The page's tables: 2 + 2 + 8 × 9 rows (headers included): 128 + 16 × 76 = 1,344 fields at most.
    expect(count(result)).toBeGreaterThan(100);
    expect(count(result)).toBeLessThanOrEqual(128 + 16 * (2 * 2 + n * (n + 1)));
    expect(got.diagnostics.filter((d) => d.code === "unplaced" && d.message.includes("linked one into another")).map((d) => d.message)).toEqual([expect.stringContaining("pass 1344 fields")]);
  });
});
