import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers.js";
// @ts-expect-error a script of test/support, in JavaScript so that `node` runs it over the whole folder
import { compareAnchors, compareFolder, pagesOf } from "../support/yfm-oracle.mjs";

/**
 * Our YFM table scanner against the dialect's own parser, @diplodoc/transform (issue 28, item 2), on every eighth page
 * of the repository's copy of the reference: the same tables, rows, row lines, cell counts and cells' first
 * paragraphs. The whole folder is `node test/support/yfm-oracle.mjs` (README). The differences that remain are the
 * oracle's readings of broken pages, each kind explained in spec-source/README-reference.md#the-oracle.
 */
interface Totals {
  pages: number;
  tables: number;
  rows: number;
  cells: number;
  diffs: Array<{ kind: string; file: string; line: number; detail: string }>;
}

describe("YFM tables against the dialect's own parser", () => {
  it("read the same tables, rows and cells on a sample of the reference's pages", async () => {
    const folder = join(ROOT, "spec-source/platform-docs");
    const pages = (pagesOf(folder) as string[]).filter((_, i) => i % 8 === 0);
    const t = (await compareFolder(folder, pages)) as Totals;
    expect(t.pages).toBeGreaterThanOrEqual(270);
    expect(t.tables).toBeGreaterThan(700);
    expect(t.cells).toBeGreaterThan(9000);
    // Measured when written; the kinds are the oracle's misreadings of pages broken in the source.
    expect(t.diffs.length, JSON.stringify(t.diffs.slice(0, 5), null, 1)).toBeLessThanOrEqual(20);
    expect(t.diffs.length / t.cells).toBeLessThan(0.002);
  }, 120_000);

  it("make the same anchors of headings that write none (links to `#section_element` reach `#### Section_Element`)", async () => {
    const folder = join(ROOT, "spec-source/platform-docs");
    const pages = (pagesOf(folder) as string[]).filter((_, i) => i % 8 === 0);
    const a = (await compareAnchors(folder, pages)) as { headings: number; diffs: unknown[] };
    expect(a.headings).toBeGreaterThan(1000);
    // All 12,897 of the whole copy agree (node test/support/yfm-oracle.mjs).
    expect(a.diffs).toEqual([]);
  }, 120_000);
});
