import { describe, expect, it } from "vitest";
import { formatDiagnostics } from "../../generator/diagnostics/format.js";
import { generate } from "../../generator/generate.js";
import { GEN, build, endpointSpec } from "../helpers.js";

const opts = { ...GEN, format: false };

/** Small broken specs and the exact diagnostic lines they must produce (text format). */
const goldens: Array<{ name: string; spec: string; lines: string[]; emits: boolean }> = [
  {
    name: "a method defined twice is an error that points at the first",
    spec: endpointSpec("**a.b**. Scope `x`.\n\n**a.b**. Scope `y`."),
    lines: [
      "spec.md:9:3: error duplicate-method: Method 'a.b' (legacy) is defined twice (first defined at spec.md:7:3). Remove one definition or give the second its version marker, e.g. '(3.0)'.",
    ],
    emits: false,
  },
  {
    name: "a table row with too few cells",
    spec: endpointSpec("**a.b**. Scope `x`.\n\n| Parameter | Type | Required | Meaning |\n|---|---|---|---|\n| `id` | integer |"),
    lines: [
      "spec.md:11:1: warning table-row-cells: Table row has 2 cell(s), expected 4; the missing cells are read as empty. Add the missing cells; an empty cell is written '| |'.",
    ],
    emits: true,
  },
  {
    name: "an unknown type word",
    spec: endpointSpec("**a.b**. Scope `x`.\n- `taskId`* frobnicate, the id."),
    lines: [
      "spec.md:8:13: warning unknown-type: Unknown type word 'frobnicate', expected integer, number, string, boolean, object, array, ISO 8601 or 'X or Y'. Use a type word of spec-source/README.md#types; the parameter is typed as unknown.",
    ],
    emits: true,
  },
  {
    // Before issue 25 a warning: the parameter went `unknown`, the router stopped checking it, and the version
    // jumped a major with exit 0 (decisions.md D31).
    name: "a near miss of a type word (a typo) is an error",
    spec: endpointSpec("**a.b**. Scope `x`.\n- `taskId`* integr, the id.\n- `name` strnig.\n- `flag` Booleans.\n- `ids` arrays."),
    lines: [
      "spec.md:8:13: error misspelled-type: Unknown type word 'integr'; did you mean 'integer'? Correct the type word (spec-source/README.md#types): a near miss of a known one is a typo, not a new type, and would publish a parameter the router no longer checks.",
      "spec.md:9:10: error misspelled-type: Unknown type word 'strnig'; did you mean 'string'? Correct the type word (spec-source/README.md#types): a near miss of a known one is a typo, not a new type, and would publish a parameter the router no longer checks.",
    ],
    emits: false,
  },
  {
    name: "a parameter line that cannot be read",
    spec: endpointSpec("**a.b**. Scope `x`.\n- `1st`* integer, the id."),
    lines: [
      "spec.md:8:3: warning unreadable-parameter: Cannot read a parameter from '`1st`* integer, the id.', expected '`name`[*] type[, meaning]'. Write the parameter as in spec-source/README.md#parameters.",
    ],
    emits: true,
  },
  {
    name: "a method without a scope sentence",
    spec: endpointSpec("**a.b**. Any user."),
    lines: [
      "spec.md:7:3: warning missing-scope: Method 'a.b' has no scope sentence, expected 'Scope `x`.'. Add 'Scope `name`.' after the method name; the method's x-scopes is null until then.",
    ],
    emits: true,
  },
  {
    name: "an unknown section",
    spec: `${endpointSpec("**a.b**. Scope `x`.")}\n## Pricing\n\nFree.\n`,
    lines: [
      "spec.md:9:1: warning unknown-section: Unknown section 'Pricing' at level 2; its text is kept as notes. Use a heading of spec-source/README.md#sections: at the level of the document's sections one of Overview, Resources, Responses, States, Endpoints, Addressing, Authentication, Events, Errors, Limits, Versioning.",
    ],
    emits: true,
  },
  {
    name: "a status that is no number",
    spec: endpointSpec("**a.b**. Scope `x`.\n- Errors: HTTP 4O0, code `X`."),
    lines: [
      "spec.md:8:11: warning bad-status: Unexpected HTTP status '4O0', expected a number from 100 to 599. Write the status as a number, e.g. 'HTTP 400'.",
    ],
    emits: true,
  },
  {
    name: "no title and no method",
    spec: "Some text.\n",
    lines: [
      "spec.md:1:1: error missing-title: The spec has no first-level heading, expected '# Title' on the first line. Start the file with '# <API title>'; it becomes info.title.",
      "spec.md:1:1: error no-methods: The spec describes no method, expected an 'Endpoints' section with '**method.name**.' paragraphs. See spec-source/README.md#methods (a spec file), or spec-source/README-reference.md#method-pages (a folder of the reference).",
    ],
    emits: false,
  },
];

describe("diagnostics goldens", () => {
  it.each(goldens)("$name", async ({ spec, lines, emits }) => {
    const r = await generate(spec, opts);
    expect(formatDiagnostics(r.diagnostics, "text").trimEnd().split("\n")).toEqual(lines);
    expect(r.files.length > 0).toBe(emits);
  });

  it("json and github formats carry the same positions", () => {
    const r = build(endpointSpec("**a.b**. Any user."));
    expect(JSON.parse(formatDiagnostics(r.diagnostics, "json"))).toEqual([
      { file: "spec.md", line: 7, column: 3, endLine: 7, endColumn: 10, severity: "warning", code: "missing-scope", message: "Method 'a.b' has no scope sentence, expected 'Scope `x`.'", hint: "Add 'Scope `name`.' after the method name; the method's x-scopes is null until then." },
    ]);
    expect(formatDiagnostics(r.diagnostics, "github")).toBe(
      "::warning file=spec.md,line=7,col=3::missing-scope: Method 'a.b' has no scope sentence, expected 'Scope `x`.'. Add 'Scope `name`.' after the method name; the method's x-scopes is null until then.\n",
    );
  });

  it("redacts webhook codes and tokens quoted from the spec", () => {
    const r = build(endpointSpec("**a.b**. Scope `x`.\n- `1st`* integer https://h.example/rest/7/s3cretc0de/x?auth=tok3n"));
    const text = formatDiagnostics(r.diagnostics, "text");
    expect(text).toContain("unreadable-parameter");
    expect(text).not.toContain("s3cretc0de");
    expect(text).not.toContain("tok3n");
  });
});
