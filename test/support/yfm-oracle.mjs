// The YFM table oracle (issue 28, item 2): the dialect's own parser, @diplodoc/transform (markdown-it and its YFM
// table plugin; a devDependency, pinned, never shipped), against the generator's table scanner (generator/yfm/), over
// the pages of a folder, table by table, row by row, cell by cell; and the headings' anchors (compareAnchors).
//
//   node test/support/yfm-oracle.mjs [FOLDER]      every page (default spec-source/platform-docs); prints the figures
//
// test/yfm/oracle.test.ts runs it over a sample in `npm test`. Compared: the tables of the page's own text at the top
// level (includes are spliced by our scanner only), their rows in order with the line each starts on, each row's cell
// count, and each cell's first paragraph as text (spaces collapsed; markdown-it's inline content).
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const MarkdownIt = require("markdown-it");
const tablePlugin = require("@diplodoc/transform/lib/plugins/table");
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The oracle's tables of a page: for each top-level table, its rows as [line, [first paragraph of each cell]]. */
export function oracleTables(text) {
  const md = new MarkdownIt({ html: true }).use(tablePlugin.default ?? tablePlugin);
  const tokens = md.parse(text, {});
  const tables = [];
  let depth = 0;
  let table = null;
  let row = null;
  let cell = null;
  for (const t of tokens) {
    if (t.type === "yfm_table_open") {
      depth++;
      if (depth === 1) tables.push((table = []));
      continue;
    }
    if (t.type === "yfm_table_close") {
      depth--;
      continue;
    }
    if (depth !== 1) continue;
    if (t.type === "yfm_tr_open") table.push((row = { line: (t.map?.[0] ?? -1) + 1, cells: [] }));
    else if (t.type === "yfm_td_open") row.cells.push((cell = { text: null }));
    else if (t.type === "inline" && cell && cell.text === null) cell.text = collapse(t.content);
    else if (t.type === "fence" && cell && cell.text === null) cell.text = "";
    else if (t.type === "yfm_td_close") cell = null;
  }
  return tables.map((rows) => rows.map((r) => ({ line: r.line, cells: r.cells.map((c) => c.text ?? "") })));
}

/** Our scanner's tables of the same page, in the same shape. */
export async function ourTables(file, text) {
  const { scanPage } = await import(join(ROOT, "dist/generator/yfm/blocks.js"));
  const page = scanPage(file, text, () => null);
  return page.blocks
    .filter((b) => b.kind === "table" && b.file === file)
    .map((t) => t.rows.map((r) => ({ line: r[0]?.line ?? -1, cells: r.map((c) => collapse(firstParagraph(c.text))) })));
}

function firstParagraph(cell) {
  // A cell's first block: up to a blank line, or a list or fence starting a line of its own.
  const lines = cell.split("\n");
  const out = [];
  for (const l of lines) {
    if (l.trim() === "" || (out.length > 0 && /^\s*(?:[-*+]\s|\d+[.)]\s|```|~~~|#\||\{%)/.test(l))) break;
    // A fence opens the cell (a code span ```a | b``` opening a line is no fence: its info string holds a backtick).
    if (out.length === 0 && /^\s*(?:```|~~~)/.test(l) && !/^\s*`{3,}[^`]*`/.test(l)) return "";
    out.push(l);
  }
  return out.join("\n").replace(/^\s*[-*+]\s+/, "");
}

function collapse(s) {
  return s.replace(/\s+/g, " ").trim();
}

/** Compares one page; returns the differences found, each with its kind and line. */
export async function comparePage(file, text) {
  const want = oracleTables(text);
  const got = await ourTables(file, text);
  const diffs = [];
  if (want.length !== got.length) {
    diffs.push({ kind: "table count", file, line: (want[0]?.[0]?.line ?? got[0]?.[0]?.line) ?? 1, detail: `oracle ${want.length}, ours ${got.length}` });
    return { tables: want.length, rows: 0, cells: 0, diffs };
  }
  let rows = 0;
  let cells = 0;
  for (const [i, w] of want.entries()) {
    const g = got[i];
    if (w.length !== g.length) {
      diffs.push({ kind: "row count", file, line: w[0]?.line ?? 1, detail: `oracle ${w.length}, ours ${g.length}` });
      continue;
    }
    for (const [j, wr] of w.entries()) {
      const gr = g[j];
      rows++;
      if (wr.line !== gr.line) diffs.push({ kind: "row line", file, line: wr.line, detail: `ours ${gr.line}` });
      if (wr.cells.length !== gr.cells.length) {
        diffs.push({ kind: "cell count", file, line: wr.line, detail: `oracle ${wr.cells.length}, ours ${gr.cells.length}` });
        continue;
      }
      for (const [k, wc] of wr.cells.entries()) {
        cells++;
        if (wc !== gr.cells[k]) diffs.push({ kind: "cell text", file, line: wr.line, detail: `cell ${k + 1}: oracle ${JSON.stringify(wc.slice(0, 60))}, ours ${JSON.stringify(gr.cells[k].slice(0, 60))}` });
      }
    }
  }
  return { tables: want.length, rows, cells, diffs };
}

export function pagesOf(folder) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".md")) out.push(p);
    }
  };
  walk(folder);
  return out.sort();
}

export async function compareFolder(folder, pages = pagesOf(folder)) {
  const totals = { pages: 0, tables: 0, rows: 0, cells: 0, diffs: [] };
  for (const p of pages) {
    const r = await comparePage(relative(folder, p).split(sep).join("/"), readFileSync(p, "utf8"));
    totals.pages++;
    totals.tables += r.tables;
    totals.rows += r.rows;
    totals.cells += r.cells;
    totals.diffs.push(...r.diffs);
  }
  return totals;
}

/**
 * Headings' anchors against the dialect's own (its anchors plugin, in @diplodoc/transform's whole transform): every
 * heading of depth 2 to 6 outside a fence with no anchor written, our `slugOf` beside the `id` the dialect gives it
 * (numbered as the dialect numbers a repeated one). The headings of a page are rendered together, each on its own.
 */
export async function compareAnchors(folder, pages = pagesOf(folder)) {
  const transform = require("@diplodoc/transform");
  const { slugOf } = await import(join(ROOT, "dist/generator/yfm/blocks.js"));
  const totals = { headings: 0, diffs: [] };
  for (const p of pages) {
    const heads = [];
    let fence = false;
    for (const line of readFileSync(p, "utf8").split("\n")) {
      if (/^\s*(?:```|~~~)/.test(line)) fence = !fence;
      const m = fence ? null : /^#{2,6}[ \t]+(.*?)\s*$/.exec(line);
      if (m && !/\{#[^}]*\}$/.test(m[1])) heads.push(m[1]);
    }
    if (heads.length === 0) continue;
    const html = transform(heads.map((h) => `## ${h}\n\nx\n`).join("\n"), { path: "a.md" }).result.html;
    const ids = [...html.matchAll(/<h2[^>]*\bid="([^"]*)"/g)].map((m) => m[1]);
    const seen = {};
    heads.forEach((h, i) => {
      const base = slugOf(h);
      const ours = seen[base] ? `${base}${seen[base]++}` : ((seen[base] = 1), base);
      totals.headings++;
      if (ids[i] !== ours) totals.diffs.push({ file: relative(folder, p), heading: h, oracle: ids[i], ours });
    });
  }
  return totals;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const folder = join(ROOT, process.argv[2] ?? "spec-source/platform-docs");
  const t = await compareFolder(folder);
  const byKind = {};
  for (const d of t.diffs) (byKind[d.kind] ??= []).push(d);
  console.log(`${t.pages} pages, ${t.tables} tables, ${t.rows} rows, ${t.cells} cells compared; ${t.diffs.length} differences`);
  for (const [k, v] of Object.entries(byKind)) {
    console.log(`${v.length} ${k}`);
    for (const d of v.slice(0, 5)) console.log(`    ${d.file}:${d.line} ${d.detail}`);
  }
  const a = await compareAnchors(folder);
  console.log(`${a.headings} headings' anchors compared; ${a.diffs.length} differences`);
  for (const d of a.diffs.slice(0, 10)) console.log(`    ${d.file}: ${JSON.stringify(d.heading)} oracle ${d.oracle}, ours ${d.ours}`);
}
