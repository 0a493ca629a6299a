import { describe, expect, it } from "vitest";
import type { Field, Model, Resource } from "../../generator/model/types.js";
import { build, endpointSpec, method, modelOf, withoutSources } from "../helpers.js";

/** Issue 11: the field grammar, one reading whatever the surface. */

function params(md: string): Field[] {
  return withoutSources(method(modelOf(endpointSpec(md)), "a.b").params);
}

function resourceSpec(table: string): string {
  return `# T\n\n## Resources and their fields\n\n### Thing (result of \`a.b\`)\n\n${table}\n\n## Endpoints\n\n### Tasks\n\n**a.b**. Scope \`x\`. No parameters. Result: object.\n`;
}

function resource(model: Model, name: string): Resource {
  const r = model.resources.find((x) => x.name === name);
  if (!r) throw new Error(`no resource ${name}`);
  return r;
}

const str = { kind: "primitive", type: "string" } as const;
const int = { kind: "primitive", type: "integer" } as const;
const num = { kind: "primitive", type: "number" } as const;

describe("the three misreadings of issue 11", () => {
  it("`item`* object: `NAME` string, `PRICE` number, `QUANTITY` integer — three members, not two parameters", () => {
    const ps = params("**a.b**. Scope `x`.\n- `item`* object: `NAME` string, `PRICE` number, `QUANTITY` integer.");
    expect(ps.map((p) => p.name)).toEqual(["item"]);
    expect(ps[0]?.required).toBe(true);
    expect(ps[0]?.type).toEqual({
      kind: "object",
      members: [
        { name: "NAME", type: str, required: false, nullable: false, description: "" },
        { name: "PRICE", type: num, required: false, nullable: false, description: "" },
        { name: "QUANTITY", type: int, required: false, nullable: false, description: "" },
      ],
    });
  });

  it("`options` object: `NOTIFY` string `Y` or `N`, default `N` — the values and the default are the member's", () => {
    const ps = params("**a.b**. Scope `x`.\n- `options` object: `NOTIFY` string `Y` or `N`, default `N`.");
    expect(ps).toHaveLength(1);
    expect(ps[0]?.default).toBeUndefined();
    expect(ps[0]?.type).toEqual({
      kind: "object",
      members: [
        {
          name: "NOTIFY",
          type: { ...str, enum: ["Y", "N"] },
          required: false,
          nullable: false,
          description: "default `N`",
          default: { value: "N", text: "N" },
        },
      ],
    });
  });

  it("a resource table headed `Meaning`: `Y`/`N` is an enumeration and '... or null' is nullable", () => {
    const model = modelOf(
      resourceSpec("| Field | Type | Meaning |\n|---|---|---|\n| ACTIVE | string | `Y`/`N` |\n| NOTE | string | free text or null |\n| KIND | string | `a`, `b` or `c` |"),
    );
    const fields = (resource(model, "Thing").type as { members: Field[] }).members;
    expect(fields.map((f) => [f.name, f.type, f.nullable])).toEqual([
      ["ACTIVE", { ...str, enum: ["Y", "N"] }, false],
      ["NOTE", str, true],
      ["KIND", { ...str, enum: ["a", "b", "c"] }, false],
    ]);
  });

  it("the same in a member table headed `Meaning` after `x`* object:", () => {
    const ps = params("**a.b**. Scope `x`. `settings`* object:\n\n| Member | Type | Meaning |\n|---|---|---|\n| flag | string | `Y`/`N` |\n| section | string | calendar id, or null |");
    const members = (ps[0]?.type as { members: Field[] }).members;
    expect(members.map((m) => [m.name, m.type, m.nullable])).toEqual([
      ["flag", { ...str, enum: ["Y", "N"] }, false],
      ["section", str, true],
    ]);
  });
});

describe("members: every surface gives the same object", () => {
  const expected = {
    kind: "object",
    members: [
      { name: "NAME", type: str, required: true, nullable: false, description: "" },
      { name: "MODE", type: { ...str, enum: ["a", "b"] }, required: false, nullable: false, description: "", default: { value: "a", text: "a" } },
    ],
  };
  it.each([
    ["after ':'", "- `item` object: `NAME`* string, `MODE` string `a` (default) or `b`."],
    ["after 'with'", "- `item` object with `NAME`* string and `MODE` string `a` (default) or `b`."],
    ["in '(members: ...)'", "- `item` object (members: `NAME`* string, `MODE` string `a` (default) or `b`)."],
    ["as nested bullets", "- `item` object:\n  - `NAME`* string.\n  - `MODE` string `a` (default) or `b`."],
    ["as a member table", "- `item` object:\n\n| Member | Type | Meaning |\n|---|---|---|\n| `NAME`* | string | |\n| MODE | string | `a` (default) or `b` |"],
    ["as a member table with a Required column", "- `item` object:\n\n| Name | Data type | Mandatory | Description |\n|---|---|---|---|\n| NAME | string | yes | |\n| MODE | string `a` (default) or `b` | | |"],
    ["in a Meaning cell", "\n| Parameter | Type | Meaning |\n|---|---|---|\n| item | object | members: `NAME`* string, `MODE` string `a` (default) or `b` |"],
  ])("%s", (_, body) => {
    const ps = params(`**a.b**. Scope \`x\`.\n${body}`);
    expect(ps.map((p) => p.name)).toEqual(["item"]);
    expect(ps[0]?.type).toEqual(expected);
  });

  it("members nest to any depth in a parenthesis and in nested bullets", () => {
    const inline = params("**a.b**. Scope `x`. `o` object (members: `A` integer, `B` object (members: `C` string), `D` boolean), more words.");
    const nested = params("**a.b**. Scope `x`.\n- `o` object (more words):\n  - `A` integer.\n  - `B` object:\n    - `C` string.\n  - `D` boolean.");
    const shape = (ps: Field[]) => JSON.stringify(ps[0]?.type);
    expect(shape(inline)).toBe(shape(nested));
    expect(inline[0]?.description).toBe("more words");
  });

  it("a member list ends with its clause: a parameter after ';' or a new sentence is the method's", () => {
    const ps = params("**a.b**. Scope `x`. `o` object: `A` integer, `B` string; `C` boolean. `D` integer.");
    expect(ps.map((p) => p.name)).toEqual(["o", "C", "D"]);
    expect((ps[0]?.type as { members: Field[] }).members.map((m) => m.name)).toEqual(["A", "B"]);
  });
});

describe("allowed values, default and null read the same from the type, the meaning and a table", () => {
  const expected = { type: { ...str, enum: ["day", "week", "month"] }, default: { value: "week", text: "week" }, nullable: true };
  it.each([
    ["in the type phrase", "- `view` string `day`, `week` (default) or `month` or null."],
    ["after the type", "- `view` string or null, `day`, `week` (default) or `month`."],
    ["in a parenthesis after the type", "- `view` string or null (`day`, `week` (default), `month`)."],
    ["in a Type column", "\n| Parameter | Type | Meaning |\n|---|---|---|\n| view | string `day`, `week` (default) or `month` or null | |"],
    ["in a Meaning column", "\n| Parameter | Type | Meaning |\n|---|---|---|\n| view | string | `day`, `week` or `month`, default `week`, or null |"],
    ["in a Default column", "\n| Parameter | Type | Default | Allowed values |\n|---|---|---|---|\n| view | string or null | `week` | `day`, `week`, `month` |"],
  ])("%s", (_, body) => {
    const [p] = params(`**a.b**. Scope \`x\`.\n${body}`);
    expect({ type: p?.type, default: p?.default?.value === undefined ? undefined : { value: p.default.value, text: p.default.text }, nullable: p?.nullable }).toEqual(
      expected,
    );
  });
});

describe("where text can be read two ways, the reader warns and says which reading it took", () => {
  function warnings(md: string) {
    return build(endpointSpec(md)).diagnostics.filter((d) => d.severity === "warning");
  }

  it("values that do not fit the type stay in the description, with a warning", () => {
    const ws = warnings("**a.b**. Scope `x`.\n- `mode` integer `on` or `off`.");
    expect(ws.map((w) => w.code)).toEqual(["ambiguous-reading"]);
    expect(ws[0]?.message).toContain("read as the type integer");
    expect(ws[0]?.line).toBe(8);
    const [p] = params("**a.b**. Scope `x`.\n- `mode` integer `on` or `off`.");
    expect(p?.type).toEqual(int);
    expect(p?.description).toBe("`on` or `off`");
  });

  it("values in the Type column and other values in the Meaning column: the Type column's are read", () => {
    const md = "**a.b**. Scope `x`.\n\n| Parameter | Type | Meaning |\n|---|---|---|\n| mode | string `a` or `b` | `c`, `d` |";
    const ws = warnings(md);
    expect(ws.map((w) => w.code)).toEqual(["ambiguous-reading"]);
    expect(ws[0]?.message).toContain("the values of the type (a, b)");
    expect(params(md)[0]?.type).toEqual({ ...str, enum: ["a", "b"] });
  });

  it("a table column no synonym names is a warning naming it; its text stays in the description", () => {
    const md = "**a.b**. Scope `x`.\n\n| Parameter | Type | Since |\n|---|---|---|\n| mode | string | version 2 |";
    const ws = warnings(md);
    expect(ws.map((w) => [w.code, w.line, w.column])).toEqual([["unknown-table-column", 9, 22]]);
    expect(ws[0]?.message).toContain("'Since'");
    expect(params(md)[0]?.description).toBe("version 2");
  });

  it("two defaults: the one marked among the values is read, with a warning", () => {
    const md = "**a.b**. Scope `x`.\n- `m` string `a` (default) or `b`, default `b`.";
    const ws = warnings(md);
    expect(ws.map((w) => w.code)).toEqual(["ambiguous-reading"]);
    expect(ws[0]?.message).toContain('the default "a" marked among the values');
    expect(params(md)[0]?.default).toEqual({ value: "a", text: "a" });
  });

  it("a 'not shown' paragraph right after a method is the area's, and the reader says so", () => {
    const md = "**a.b**. Scope `x`.\n- `id`* integer.\n\nResponse: not shown.\n\n**c.d**. Scope `x`.\n\nOther methods of the area: not shown.";
    const r = build(endpointSpec(md));
    const ws = r.diagnostics.filter((d) => d.severity === "warning");
    expect(ws.map((w) => [w.code, w.line])).toEqual([["ambiguous-reading", 10]]);
    expect(ws[0]?.message).toContain("a gap of the area 'Tasks', not of the method 'a.b'");
    expect(r.model?.knownGaps.filter((g) => g.appliesTo.includes("area:Tasks")).map((g) => g.subject)).toEqual([
      "Response",
      "Other methods of the area",
    ]);
  });

  it("text the grammar writes gives no warning", () => {
    expect(warnings("**a.b**. Scope `x`.\n- `item`* object: `NAME` string, `MODE` string `a` or `b`, default `a`.\n- `n` integer or null, count.")).toEqual([]);
  });
});

describe("resource-to-method links: every form gives the method the same result", () => {
  const resourceSection = (title: string, extra = "") =>
    `### ${title}\n\n${extra}| Field | Type | Meaning |\n|---|---|---|\n| ID | integer | |\n`;
  function resultOf(resources: string, methodLine: string, version: "legacy" | "v3" = "legacy") {
    const spec = `# T\n\n## Resources and their fields\n\n${resources}\n## Endpoints\n\n### Area\n\n${methodLine}\n`;
    const m = method(modelOf(spec), "a.b", version);
    return withoutSources({ key: m.result?.key ?? null, type: m.result?.type });
  }
  const thing = { kind: "ref", resource: "Thing" };

  it.each([
    ["title '(result of `a.b`)'", resourceSection("Thing (result of `a.b`)"), "**a.b**. Scope `x`. No parameters."],
    ["title '(`a.b`)'", resourceSection("Thing (`a.b`)"), "**a.b**. Scope `x`. No parameters."],
    ["'Returned by `a.b`.'", resourceSection("Thing", "Returned by `a.b`.\n\n"), "**a.b**. Scope `x`. No parameters."],
    ["method line 'Response `result`: Thing.'", resourceSection("Thing"), "**a.b**. Scope `x`. No parameters. Response `result`: Thing."],
    ["method line 'Result: the thing (see Thing).'", resourceSection("Thing"), "**a.b**. Scope `x`. No parameters. Result: the thing (see Thing)."],
  ])("%s: result is the resource", (_, resources, line) => {
    expect(resultOf(resources, line)).toEqual({ key: null, type: thing });
  });

  it.each([
    ["'Returned by ... (key `thing` inside `result`)' and a bare 'Response `result.thing`'", resourceSection("Thing", "Returned by `a.b`, `c.d` (key `thing` inside `result`).\n\n"), "**a.b**. Scope `x`. No parameters. Response `result.thing`."],
    ["'Response `result.thing` (see Thing)'", resourceSection("Thing"), "**a.b**. Scope `x`. No parameters. Response `result.thing` (see Thing)."],
    ["'Result `thing` (see Thing)'", resourceSection("Thing"), "**a.b**. Scope `x`. No parameters. Result `thing` (see Thing)."],
    ["'`result.thing` holds the thing'", resourceSection("Thing"), "**a.b** (3.0): no parameters; `result.thing` holds the thing."],
  ])("%s: result.thing is the resource", (name, resources, line) => {
    expect(resultOf(resources, line, name.includes("holds") ? "v3" : "legacy")).toEqual({ key: "thing", type: thing });
  });

  it("'in 3.0 `a.b` uses key `item`' links the 3.0 method under its own key", () => {
    const resources = resourceSection("Thing", "Returned by `a.b` (key `thing` inside `result`; in 3.0 `a.b` uses key `item`).\n\n");
    const both = `**a.b** (legacy). Scope \`x\`. No parameters. Response \`result.thing\`.\n\n**a.b** (3.0): no parameters. Response \`result.item\`.`;
    expect(resultOf(resources, both, "legacy")).toEqual({ key: "thing", type: thing });
    expect(resultOf(resources, both, "v3")).toEqual({ key: "item", type: thing });
  });

  it.each([
    ["'(`a.b` item)' in Other resources", "### Other resources\n\n- Thing (`a.b` item): ID (integer).\n", "**a.b**. Scope `x`. No parameters."],
    ["'Result: array of Thing items'", resourceSection("Thing"), "**a.b**. Scope `x`. No parameters. Result: array of Thing items."],
  ])("%s: result is a list of the resource", (_, resources, line) => {
    expect(resultOf(resources, line)).toEqual({ key: null, type: { kind: "array", items: thing } });
  });

  it("a key the resource does not link stays unknown", () => {
    const resources = resourceSection("Thing", "Returned by `a.b` (key `thing` inside `result`).\n\n");
    expect(resultOf(resources, "**a.b**. Scope `x`. No parameters. Response `result.other`.")).toEqual({ key: "other", type: { kind: "unknown" } });
  });
});

describe("a Meaning cell is read as the rest of a bullet", () => {
  it("'at least one of' in a Meaning cell is the method's constraint, as in a bullet", () => {
    const bullet = method(modelOf(endpointSpec("**a.b**. Scope `x`.\n- `A` string, first; at least one of `A`, `B` is required.\n- `B` string.")), "a.b");
    const table = method(
      modelOf(endpointSpec("**a.b**. Scope `x`.\n\n| Parameter | Type | Meaning |\n|---|---|---|\n| A | string | first; at least one of `A`, `B` is required |\n| B | string | |")),
      "a.b",
    );
    for (const m of [bullet, table]) {
      expect(m.constraints.map((c) => (c.kind === "at-least-one" ? c.params : []))).toEqual([["A", "B"]]);
      expect(m.params.map((p) => [p.name, p.description])).toEqual([
        ["A", "first"],
        ["B", ""],
      ]);
    }
  });

  it("sentences of a Meaning cell join as a bullet's clauses do, and 'Default: words' is read there too", () => {
    const [p] = params("**a.b**. Scope `x`.\n\n| Parameter | Type | Meaning |\n|---|---|---|\n| users | array of user ids | Who sees it. Default: the current user. |");
    expect(p?.description).toBe("Who sees it; Default: the current user");
    expect(p?.default).toEqual({ text: "the current user" });
  });
});

describe("nothing of the spec vanishes, and a diagnostic names the right thing (issue 10)", () => {
  it("a method paragraph under ## Versioning is a warning at its line, not silence", () => {
    const spec = `${endpointSpec("**a.b**. Scope `x`.")}\n## Versioning\n\n**new.method**. Scope \`x\`. Any user.\n- \`id\`* integer.\n`;
    const r = build(spec);
    expect(r.model?.methods.map((m) => m.name)).toEqual(["a.b"]);
    expect(r.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([["method-outside-endpoints", 11, 1]]);
    expect(r.diagnostics[0]?.message).toContain("'new.method' is described under 'Versioning'");
  });

  it("a table under a heading whose reader reads no tables is a warning, and kept as a note", () => {
    const spec = `${endpointSpec("**a.b**. Scope `x`.")}\n## Versioning\n\n| Version | Path |\n|---|---|\n| 3.0 | /rest/api/ |\n`;
    const r = build(spec);
    expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([["unread-text", 11]]);
    expect(r.model?.versioning.map((s) => s.text)).toEqual([expect.stringContaining("| 3.0 | /rest/api/ |")]);
  });

  it("an unclosed bold method name is reported at its line; its parameters are no other method's", () => {
    const md = "**a.b**. Scope `x`. `taskId`* integer.\n\n**c.d. Scope `x`. `taskId`* integer. Response `result.task`.\n\n- `id`* integer.";
    const r = build(endpointSpec(md));
    expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["unreadable-method-header", 9],
      ["unread-text", 11],
    ]);
    expect(r.diagnostics[0]?.message).toContain("'**c.d. Scope");
    expect(r.model?.methods.find((m) => m.name === "a.b")?.params.map((p) => p.name)).toEqual(["taskId"]);
  });
});
