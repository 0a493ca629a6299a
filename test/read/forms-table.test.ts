import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { METHOD_FORMS } from "../../generator/read/forms.js";
import { STATEFUL_FORMS, methodFormsTable } from "../../generator/read/method-forms.js";
import { specFile } from "../../generator/parse/markdown.js";
import { readSpec } from "../../generator/read/index.js";

/**
 * Issue 27: the tables of method sentence forms (`generator/read/forms.ts`, and the rows that need the reader's state
 * in `generator/read/method-forms.ts`, which were a chain of branches) write spec-source/README.md's table of them, so a new row cannot go undocumented and the page cannot describe a row that is gone. After a change of the
 * rows: `npm run build && node test/support/forms-table.mjs --write`.
 */

const README = readFileSync(new URL("../../spec-source/README.md", import.meta.url), "utf8");

describe("the README's table of method forms", () => {
  it("is the one forms.ts writes, between its markers", () => {
    const begin = README.indexOf("<!-- method-forms:begin");
    const end = README.indexOf("<!-- method-forms:end -->");
    expect(begin).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(begin);
    const written = README.slice(README.indexOf("-->", begin) + 3, end).trim();
    expect(written).toBe(methodFormsTable());
  });

  it("names every row once, by an id of its own, each with an example the row reads", () => {
    const ids = [...METHOD_FORMS, ...STATEFUL_FORMS].map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    // The first spelling of each example, or one of its sentences ("**Deprecated.** Use `x` instead."), is a sentence
    // the row's pattern matches, as the reader hands it over: bold marks off, labels ending in ":" included.
    for (const f of METHOD_FORMS) {
      const first = (f.doc.example.split(" · ")[0] ?? "").replace(/\s*\(then [^)]*\)$/, "").replace(/\*\*/g, "").trim();
      const sentences = [first, ...first.split(/(?<=\.)\s+/)];
      // The row is the first to match one of them: the table is read in order, and an earlier row would take it.
      expect(sentences.some((x) => METHOD_FORMS.find((g) => g.match.test(x)) === f), `${f.id}: '${first}'`).toBe(true);
    }
  });

  it.each(STATEFUL_FORMS.map((f) => [f.id, f] as const))("the stateful row %s reads its own example, in a method that says what it needs first", (_id, f) => {
    const read: Array<[string, string]> = [];
    const text = `# API\n\n## Endpoints\n\n### Tasks\n\n**tasks.task.unpin**. ${f.doc.before ? `${f.doc.before} ` : ""}${f.doc.example}\n`;
    readSpec(specFile("spec.md", text), { trace: (form, sentence) => read.push([form, sentence]) });
    const example = f.doc.example.replace(/\*\*/g, "");
    expect(read.find(([, sentence]) => example.startsWith(sentence.replace(/[.:]$/, "")) || sentence.startsWith(example.replace(/[.:]$/, "")))?.[0], JSON.stringify(read)).toBe(f.id);
  });
});
