import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generate, generateSource } from "../../generator/generate.js";
import type { PrintMemo } from "../../generator/emit/memo.js";
import { type InputSource, oneFile } from "../../generator/source/index.js";
import { GEN, ROOT, SPEC_TEXT, referenceFolder } from "../helpers.js";

/**
 * The print memo (emit/memo.ts) finds a text by a hash of what it was printed from: a declaration's data, or a method
 * and the model around it. Whatever changed between the run that filled it and the run that uses it, the second run's
 * output is the bytes it gives without a memo: a text found for inputs that differ in anything the text depends on
 * would be a stale text, written silently. An arbitrary line of the input is edited, dropped or repeated, so that the
 * change may fall on a method, a resource, a known gap, a heading (the `@see` anchors), a platform fact or an include.
 */

const memoOf = (entries: ReadonlyMap<string, unknown> = new Map()): PrintMemo => ({ salt: "t", entries: new Map(entries), next: new Map() });
const contents = (r: { files: Array<{ path: string; contents: string }> }) => r.files.map((f) => `${f.path}\n${f.contents}`);

/** A line edit: a word added at its end, the line dropped, or the line repeated. */
const edit = fc.record({ at: fc.nat(), how: fc.constantFrom("word", "drop", "repeat") });
function edited(text: string, e: { at: number; how: string }): string {
  const lines = text.split("\n");
  const i = e.at % lines.length;
  const line = lines[i] ?? "";
  lines.splice(i, 1, ...(e.how === "drop" ? [] : e.how === "repeat" ? [line, line] : [line.trim() ? `${line.replace(/(\s*\|*)$/, " changed$1")}` : line]));
  return lines.join("\n");
}

describe("the print memo of another input's run", () => {
  it("the shipped spec, a line edited: with the memo of the unedited run, the same bytes as without a memo", async () => {
    const filled = memoOf();
    await generate(SPEC_TEXT, { ...GEN, printMemo: filled });
    expect(filled.next.size).toBeGreaterThan(100);
    // Besides arbitrary lines, the edits that change a method's text and not the method: its section's heading (the
    // `@see` anchor) and the words of a gap stated apart from the methods it names (their docs' "Not shown").
    const targeted: Array<[string, string]> = [
      ["### Tasks", "### Tasks and more"],
      ["Their parameters and responses: not shown.", "Their parameters and answers: not shown."],
    ];
    for (const [from] of targeted) expect(SPEC_TEXT).toContain(from);
    const edits = fc.oneof(edit, fc.constantFrom(...targeted.map(([from, to]) => ({ from, to }))));
    await fc.assert(
      fc.asyncProperty(edits, async (e) => {
        const text = "from" in e ? SPEC_TEXT.replace(e.from, e.to) : edited(SPEC_TEXT, e);
        const plain = await generate(text, GEN);
        const memo = memoOf(filled.next);
        expect(contents(await generate(text, { ...GEN, printMemo: memo }))).toEqual(contents(plain));
      }),
      { numRuns: 8, examples: targeted.map(([from, to]): [{ from: string; to: string }] => [{ from, to }]) },
    );
    // The same source shipped under another name (the API's `specPath`; the CLI gives both the same): the `@see` tags
    // name the spec the types package ships, by that name, which is not the model's.
    const source = oneFile("spec.md", SPEC_TEXT);
    const shipped = memoOf();
    await generateSource(source, { ...GEN, specPath: "one/first.md", printMemo: shipped });
    const elsewhere = { ...GEN, specPath: "two/second.md" };
    expect(contents(await generateSource(source, { ...elsewhere, printMemo: memoOf(shipped.next) }))).toEqual(contents(await generateSource(source, elsewhere)));
  });

  it("a text found keeps the texts it was printed from: a run that changed nothing drops none of them", async () => {
    // A heading's words change every method's `@see`, so each method's types are printed again from their parts (the
    // declarations' layouts): with the memo of a rerun, as many are found as with the memo of the first run.
    const edited = SPEC_TEXT.replace("### Tasks", "### Tasks and more");
    const first = memoOf();
    await generate(SPEC_TEXT, { ...GEN, printMemo: first });
    const rerun = memoOf(first.next);
    await generate(SPEC_TEXT, { ...GEN, printMemo: rerun });
    expect(rerun.next.size).toBe(first.next.size);
    const printed = (m: PrintMemo) => [...m.next.keys()].filter((k) => !m.entries.has(k)).length;
    const afterFirst = memoOf(first.next);
    await generate(edited, { ...GEN, printMemo: afterFirst });
    const afterRerun = memoOf(rerun.next);
    await generate(edited, { ...GEN, printMemo: afterRerun });
    expect(printed(afterRerun)).toBe(printed(afterFirst));
    expect(printed(afterFirst)).toBeLessThan(first.next.size / 2);
  });

  it("the reference, a line of a page edited: with the memo of the unedited run, the same bytes as without a memo", async () => {
    // A reference method's texts depend on the model around it only through the pages' public URLs, which move its
    // own sources too: edits of the context are the spec's half above; this half edits pages, includes and catalogues.
    const source = referenceFolder(join(ROOT, "test/fixtures/reference-mini"), "docs");
    const filled = memoOf();
    await generateSource(source, { ...GEN, printMemo: filled });
    expect(filled.next.size).toBeGreaterThan(20);
    await fc.assert(
      fc.asyncProperty(fc.nat(), edit, async (page, e) => {
        const files = source.files.map((f, i) => (i === page % source.files.length ? { ...f, text: edited(f.text, e) } : f));
        const changed: InputSource = { ...source, files };
        const plain = await generateSource(changed, GEN);
        // Both ways: the unedited run's texts used by the edited input, and the edited run's by the unedited one.
        const memo = memoOf(filled.next);
        expect(contents(await generateSource(changed, { ...GEN, printMemo: memo }))).toEqual(contents(plain));
        expect(contents(await generateSource(source, { ...GEN, printMemo: memoOf(memo.next) }))).toEqual(contents(await generateSource(source, GEN)));
      }),
      { numRuns: 25 },
    );
  });
});

describe("model.json", () => {
  it("is the JSON of the generation's record and the model's members, printed once", async () => {
    const result = await generate(SPEC_TEXT, GEN);
    const file = result.files.find((f) => f.path === "model.json");
    const parsed = JSON.parse(file?.contents ?? "{}") as { $comment: string; generation: unknown };
    const model = result.model as unknown as Record<string, unknown>;
    // The model has neither member of the record, which would then be printed twice.
    expect(Object.keys(model).filter((k) => k === "$comment" || k === "generation")).toEqual([]);
    expect(file?.contents).toBe(`${JSON.stringify({ $comment: parsed.$comment, generation: parsed.generation, ...model }, null, 2)}\n`);
  });
});
