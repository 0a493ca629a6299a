import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type YfmBlock, scanPage } from "../../generator/yfm/blocks.js";

/** The YFM block layer (generator/yfm/): tables, fences inside cells, includes, dev-only blocks, positions. */

const none = () => null;
const tables = (blocks: YfmBlock[]) => blocks.filter((b): b is Extract<YfmBlock, { kind: "table" }> => b.kind === "table");
const cellTexts = (blocks: YfmBlock[]) => tables(blocks).map((t) => t.rows.map((r) => r.map((c) => c.text)));

describe("YFM tables", () => {
  it("reads rows and cells, a cell spanning lines, with each cell's line and column", () => {
    const text = ["# T", "", "#|", "|| **Name**", "`type` | **Description** ||", "|| **id***", "[`integer`](../data-types.md) | Task identifier.", "", "More text ||", "|#", "after"].join("\n");
    const page = scanPage("p.md", text, none);
    expect(cellTexts(page.blocks)).toEqual([
      [
        ["**Name**\n`type`", "**Description**"],
        ["**id***\n[`integer`](../data-types.md)", "Task identifier.\n\nMore text"],
      ],
    ]);
    const [t] = tables(page.blocks);
    expect(t?.rows[1]?.map((c) => [c.line, c.column])).toEqual([
      [6, 4],
      [7, 33],
    ]);
    // The text after the table is a block of its own, at its line.
    expect(page.blocks.at(-1)).toMatchObject({ kind: "text", text: "after", line: 11, column: 1 });
  });

  it("keeps pipes inside code spans and escaped pipes in the cell", () => {
    const text = "#|\n|| **a**\n```string | null``` | x \\| y ||\n|#\n";
    expect(cellTexts(scanPage("p.md", text, none).blocks)).toEqual([[["**a**\n```string | null```", "x \\| y"]]]);
  });

  it("a fence inside a cell closed as '``` ||' ends the fence and the row, not the table", () => {
    const text = ["#|", "|| **a** | example:", "```json", '{"a": "|#"}', "``` ||", "|| **b** | two ||", "|#", "next"].join("\n");
    const page = scanPage("p.md", text, none);
    expect(cellTexts(page.blocks)).toEqual([[["**a**", 'example:\n```json\n{"a": "|#"}\n```'], ["**b**", "two"]]]);
    expect(page.blocks.at(-1)).toMatchObject({ kind: "text", text: "next" });
  });

  it("a table inside a cell stays the cell's text", () => {
    const text = ["#|", "|| outer | #|", "|| in1 | in2 ||", "|# ||", "|| second | row ||", "|#"].join("\n");
    expect(cellTexts(scanPage("p.md", text, none).blocks)).toEqual([[["outer", "#|\n|| in1 | in2 ||\n|#"], ["second", "row"]]]);
  });

  it("a table never closed ends at the end of the page, with its rows", () => {
    const text = "#|\n|| a | b ||\n|| c | d ||";
    expect(cellTexts(scanPage("p.md", text, none).blocks)).toEqual([[["a", "b"], ["c", "d"]]]);
  });

  it("a row the table's `|#` ends before its `||` is kept and said; an empty one (`|| ||` at a row's end) is nothing", () => {
    const text = ["intro", "#|", "|| a | b ||", "|| **params**", "[`object`](x) | More, [below](#p)", "|#"].join("\n");
    const blocks = scanPage("p.md", text, none).blocks;
    expect(cellTexts(blocks)).toEqual([[["a", "b"], ["**params**\n[`object`](x)", "More, [below](#p)"]]]);
    expect(blocks.find((b) => b.kind === "table")).toMatchObject({ unclosedRow: { line: 4, column: 1 } });
    const empty = scanPage("p.md", "#|\n|| a | b || ||\n|#", none).blocks;
    expect(cellTexts(empty)).toEqual([[["a", "b"]]]);
    expect(empty[0]).not.toHaveProperty("unclosedRow");
  });
});

describe("YFM blocks", () => {
  it("a heading's anchor, where none is written, is the dialect's slug: `_` kept, code spans, marks and link targets dropped", async () => {
    const { slugOf } = await import("../../generator/yfm/blocks.js");
    expect(slugOf("Section_Element")).toBe("section_element");
    // A code span is no text token of the dialect's heading (checked against @diplodoc/transform in oracle.test.ts).
    expect(slugOf("Structure of the `result` Object")).toBe("structure-of-the-object");
    expect(slugOf("_em_ x")).toBe("em-x");
    expect(slugOf("Fields of the result.state object")).toBe("fields-of-the-resultstate-object");
    expect(slugOf("Object [crm_status](../data-types.md#x)")).toBe("object-crm_status");
  });

  it("headings keep their written anchors; notes open and close", () => {
    const text = ['## Parameter fields {#fields}', "", '{% note warning "DEPRECATED" %}', "", "Use x.", "", "{% endnote %}"].join("\n");
    const { blocks } = scanPage("p.md", text, none);
    expect(blocks.map((b) => b.kind)).toEqual(["heading", "note", "text", "end-note"]);
    expect(blocks[0]).toMatchObject({ depth: 2, text: "Parameter fields", anchor: "fields" });
    expect(blocks[1]).toMatchObject({ note: "warning", title: "DEPRECATED" });
  });

  it("drops what only the documentation's developers see, and keeps the else", () => {
    const text = ["{% if build == 'dev' %}", "secret", "{% else %}", "public", "{% endif %}", "{% if lang == 'en' %}", "kept", "{% endif %}"].join("\n");
    expect(scanPage("p.md", text, none).blocks.map((b) => (b.kind === "text" ? b.text : b.kind))).toEqual(["public", "kept"]);
  });

  it("splices includes by path, relative to the page; their blocks keep their own file and lines", () => {
    const files: Record<string, string> = { "docs/_includes/errors.md": "### Errors\n\ntext of the include" };
    const resolve = (from: string, target: string) => {
      const path = new URL(target, `file:///${from}`).pathname.slice(1);
      return files[path] !== undefined ? { file: path, text: files[path] as string } : null;
    };
    const page = scanPage("docs/api/page.md", "# P\n\n{% include [errors](../_includes/errors.md) %}\n\nend", resolve);
    expect(page.included).toEqual(["docs/_includes/errors.md"]);
    expect(page.blocks.map((b) => [b.kind, b.file, b.line])).toEqual([
      ["heading", "docs/api/page.md", 1],
      ["heading", "docs/_includes/errors.md", 1],
      ["text", "docs/_includes/errors.md", 3],
      ["text", "docs/api/page.md", 5],
    ]);
  });

  it("an include that is missing or includes itself is a block saying so, not a loop", () => {
    const self = (_: string, target: string) => (target === "self.md" ? { file: "self.md", text: "{% include [me](self.md) %}" } : null);
    expect(scanPage("self.md", "{% include [me](self.md) %}", self).blocks).toMatchObject([{ kind: "include", why: "cycle" }]);
    expect(scanPage("p.md", "{% include [x](nowhere.md) %}", none).blocks).toMatchObject([{ kind: "include", why: "missing", target: "nowhere.md" }]);
  });
});

describe("YFM scanning of any text", () => {
  const alphabet = fc.constantFrom("#|", "|#", "||", "|", "`", "```", "\n", "\\|", "**a**", " ", "x", "{% note info %}", "{% endnote %}", "{% if build == 'dev' %}", "{% endif %}", "## h", "> q", "- i");
  it("never throws, and every block and cell points inside the text", () => {
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 80 }), (parts) => {
        const text = parts.join("");
        const lines = text.split("\n");
        const { blocks } = scanPage("p.md", text, none);
        for (const b of blocks) {
          expect(b.line).toBeGreaterThanOrEqual(1);
          expect(b.line).toBeLessThanOrEqual(lines.length);
          if (b.kind !== "table") continue;
          for (const c of b.rows.flat()) {
            expect(c.line).toBeLessThanOrEqual(lines.length);
            expect(c.column).toBeLessThanOrEqual((lines[c.line - 1]?.length ?? 0) + 1);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("costs linear time: a table of many rows, and many unmatched backticks, scan in one pass", () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => `|| **f${i}** | \`a | b ||`).join("\n");
    const { blocks } = scanPage("p.md", `#|\n${rows}\n|#`, none);
    expect(tables(blocks)[0]?.rows.length).toBe(20_000);
  });
});

describe("YFM input that would cost more than linear (review of issue 28)", () => {
  it("includes that include each other many times over are scanned once each, and a page's splices are bounded", () => {
    // Seven files, each including the next six times: 6^7 splices if each were scanned anew.
    const files = new Map<string, string>();
    for (let i = 0; i < 7; i++) files.set(`f${i}.md`, i === 6 ? "#|\n|| a | b ||\n|#\n" : Array.from({ length: 6 }, () => `{% include [x](f${i + 1}.md) %}`).join("\n"));
    const resolve = (_: string, target: string) => (files.has(target) ? { file: target, text: files.get(target) as string } : null);
    const started = performance.now();
    const page = scanPage("p.md", "{% include [x](f0.md) %}", resolve);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(page.blocks.length).toBeLessThanOrEqual(100_001);
    expect(page.blocks.some((b) => b.kind === "include" && b.why === "too-large")).toBe(true);
  });

  it("a heading with a long run of spaces, and an escape at a line's end, read in one pass at the right lines", () => {
    const { blocks } = scanPage("p.md", `# a${" ".repeat(20_000)}x {#id}\n`, none);
    expect(blocks[0]).toMatchObject({ kind: "heading", text: `a${" ".repeat(20_000)}x`, anchor: "id" });
    const t = tables(scanPage("p.md", "#|\n|| a \\\n| b ||\n|| c | d ||\n|#", none).blocks)[0];
    expect(t?.rows[1]?.map((c) => [c.text, c.line, c.column])).toEqual([
      ["c", 4, 4],
      ["d", 4, 8],
    ]);
  });

  it("an `if` never closed is a block of its own at the line that opened it", () => {
    const { blocks } = scanPage("p.md", "one\n\n{% if build == 'dev' %}\nsecret\n", none);
    expect(blocks.map((b) => b.kind)).toEqual(["text", "unclosed-if"]);
    expect(blocks[1]).toMatchObject({ line: 3, dropped: true });
  });
});
