import fc from "fast-check";
import type { Root, RootContent, Table } from "mdast";
import { remark } from "remark";
import remarkGfm from "remark-gfm";
import { describe, expect, it } from "vitest";
import { generate } from "../../generator/generate.js";
import { parseInPieces, splitRow } from "../../generator/parse/chunks.js";
import { GEN, SPEC_TEXT, method, modelOf } from "../helpers.js";

const processor = remark().use(remarkGfm);
const whole = (text: string): Root => processor.parse(text);
const pieces = (text: string): Root => parseInPieces(text, whole);

/** Positions of every node, children included: what the readers see of a tree. */
function outline(nodes: readonly RootContent[]): unknown[] {
  return nodes.map((n) => ({
    type: n.type,
    start: n.position?.start,
    end: n.position?.end,
    ...("children" in n ? { children: outline(n.children as RootContent[]) } : {}),
    ...("value" in n ? { value: n.value } : {}),
  }));
}

describe("parsing in pieces gives the whole document's tree", () => {
  it("the real spec, repeated past the cutting size: same nodes at the same positions", () => {
    const text = Array.from({ length: 4 }, () => SPEC_TEXT).join("\n");
    expect(text.length).toBeGreaterThan(64 * 1024);
    expect(outline(pieces(text).children)).toEqual(outline(whole(text).children));
  });

  it("mutated specs (fast-check): same tree both ways", () => {
    const lines = SPEC_TEXT.split("\n");
    const edits = fc.array(
      fc.record({
        at: fc.nat(lines.length - 1),
        text: fc.constantFrom("```", "~~~", "# x", "#", "  # y", "<div>", "[a]: /b", "| a | b |", "|---|---|", "> q", "- item", "", "    code", "```js"),
      }),
      { maxLength: 6 },
    );
    fc.assert(
      fc.property(edits, (es) => {
        const copy = [...lines];
        for (const e of es) copy.splice(e.at, 0, e.text);
        const text = [copy.join("\n"), copy.join("\n")].join("\n");
        expect(outline(pieces(text).children)).toEqual(outline(whole(text).children));
      }),
      { numRuns: 12 },
    );
  });

  it("a long table: every row and cell at micromark's positions, the rows' count the same", () => {
    const rows = Array.from({ length: 2600 }, (_, i) =>
      [`| \`p${i}\` | integer | no | x |`, `| a${i} |  | \`c|d\` | e \\| f |  `, `|b${i}|`, `| x | y | z | w | extra |`][i % 4],
    );
    const text = `# T\n\npara\n\n| A | B | C | D |\n|---|:-:|---|---|\n${rows.join("\n")}\n\nafter\n`;
    const a = whole(text).children;
    const b = pieces(text).children;
    const cellsOf = (t: RootContent | undefined) =>
      (t as Table).children.map((r) => [r.position?.start, r.position?.end, r.children.map((c) => [c.position?.start, c.position?.end])]);
    expect(b.map((n) => n.type)).toEqual(a.map((n) => n.type));
    expect(cellsOf(b[2])).toEqual(cellsOf(a[2]));
    expect(b[2]?.position).toEqual(a[2]?.position);
    expect(outline(b.slice(3))).toEqual(outline(a.slice(3)));
  });

  it.each([
    ["| a | b | c |"],
    ["| a | b |"],
    ["| a | b | c | d | e |"],
    ["|a|b\\|x|`c|d`|"],
    ["  | a |  | c |  "],
    ["| a | b | c"],
    ["|"],
    ["| a \\\\| b |"],
  ])("splitRow cuts %j where micromark does", (row) => {
    const prefix = "| A | B | C |\n|---|---|---|\n";
    const text = `${prefix}${row}\n`;
    const table = whole(text).children[0] as Table;
    const want = table.children[1];
    const got = splitRow(text, prefix.length, text.length, 3);
    expect(got?.position).toEqual(want?.position);
    expect(got?.children.map((c) => c.position)).toEqual(want?.children.map((c) => c.position));
  });

  it("a spec with a 3,000-row parameter table reads every parameter, the last ones included", async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `| \`p${i}\` | ${i % 2 ? "integer" : "string"} | no | value ${i} |`);
    const text = `# Test API\n\n## Endpoints\n\n### Tasks\n\n**tasks.task.get**. Scope \`task\`.\n\n| Parameter | Type | Required | Meaning |\n|---|---|---|---|\n${rows.join("\n")}\n`;
    const m = method(modelOf(text), "tasks.task.get");
    expect(m.params).toHaveLength(3000);
    expect(m.params[2999]).toMatchObject({ name: "p2999", type: { kind: "primitive", type: "integer" }, source: { line: 3010, column: 3 } });
    expect(m.params[1500]).toMatchObject({ name: "p1500", type: { kind: "primitive", type: "string" } });
    expect((await generate(text, { ...GEN, format: false })).diagnostics).toEqual([]);
  });
});
