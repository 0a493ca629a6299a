import type { Root, RootContent, Table, TableCell, TableRow } from "mdast";
import { pushAll } from "../util/arrays.js";

/**
 * Parses a long document in pieces whose trees are the same as the whole document's. micromark resolves a
 * document's events with splices over one growing array, which is superlinear in the size of a block and of the
 * document: a table of 100,000 rows took about a minute in one piece (issue 9; docs/performance-notes.md).
 *
 * Two cuts are made, each only where CommonMark and GFM guarantee that nothing crosses it:
 *
 * - before an ATX heading at column 0 outside a fenced code block: a heading at column 0 always starts a new
 *   top-level block (it is not a paragraph's lazy continuation, and it ends any list item or block quote). A document
 *   with an HTML block, a link reference or a footnote definition is not cut there: those reach across blocks;
 * - inside a table of more than 2,000 rows that start with `|`: the first 1,000 rows are parsed with the text
 *   before them, and the rows after them are split by `splitRow`, which cuts cells where micromark does. Their
 *   cells hold their source as one text node: the readers read cells from source offsets, never from inline
 *   children (a test reads a long table both ways and compares the models). A table that does not parse as one
 *   table there, or rows with tabs, fall back to the whole piece.
 *
 * Every node's position is shifted back to the document's offsets and lines (columns do not change: every cut is
 * at a line start). A test parses the real spec and mutated specs both ways and compares the trees.
 * Written by hand: no parser offers resumable or incremental parsing of mdast with positions.
 */

/** Headings are cut at only in documents at least this long: below it one parse is as fast. */
const CUT_HEADINGS_FROM = 64 * 1024;
/** Rows of a long table parsed by micromark; the rest are split by `splitRow`. */
const TABLE_SLICE_ROWS = 1000;

type Parse = (text: string) => Root;

export function parseInPieces(text: string, parse: Parse): Root {
  const pieces = text.length >= CUT_HEADINGS_FROM && !reachesAcrossBlocks(text) ? headingCuts(text) : [0];
  const root: Root = { type: "root", children: [] };
  const lineAt = lineIndex(text);
  for (let i = 0; i < pieces.length; i++) {
    const start = pieces[i] ?? 0;
    const end = pieces[i + 1] ?? text.length;
    pushAll(root.children, parsePiece(text, start, end, parse, lineAt));
  }
  root.position = {
    start: { line: 1, column: 1, offset: 0 },
    end: { line: lineAt(text.length), column: text.length - text.lastIndexOf("\n"), offset: text.length },
  };
  return root;
}

/** HTML blocks, link reference and footnote definitions: constructs whose reach crosses a heading. */
function reachesAcrossBlocks(text: string): boolean {
  return /^ {0,3}(?:<|\[[^\]\n]*\]:)/m.test(text);
}

/** Offsets of line starts where a piece may begin: ATX headings at column 0 outside fences. */
function headingCuts(text: string): number[] {
  const cuts = [0];
  let fence: { char: string; length: number } | null = null;
  for (let at = 0; at < text.length; ) {
    let end = text.indexOf("\n", at);
    if (end < 0) end = text.length;
    const line = text.slice(at, end);
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (f && f[1]?.[0] === fence.char && (f[1]?.length ?? 0) >= fence.length && line.trim() === f[1]?.trim()) fence = null;
    } else if (f && !(f[1]?.[0] === "`" && line.slice(f[0].length).includes("`"))) {
      fence = { char: f[1]?.[0] ?? "`", length: f[1]?.length ?? 3 };
    } else if (at > 0 && /^#{1,6}(?:[ \t]|$)/.test(line)) {
      cuts.push(at);
    }
    at = end + 1;
  }
  return cuts;
}

/** Line numbers (1-based) of offsets, by binary search over the line starts, computed once per document. */
function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/** Moves every position of a subtree by an offset and a line delta. Iterative: trees can be deep. */
function shift(nodes: readonly RootContent[], offsetDelta: number, lineDelta: number): void {
  const stack: Array<{ position?: RootContent["position"]; children?: unknown }> = [...nodes];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node) break;
    const p = node.position;
    if (p) {
      p.start = { ...p.start, line: p.start.line + lineDelta, offset: (p.start.offset ?? 0) + offsetDelta };
      p.end = { ...p.end, line: p.end.line + lineDelta, offset: (p.end.offset ?? 0) + offsetDelta };
    }
    if (Array.isArray(node.children)) pushAll(stack, node.children as RootContent[]);
  }
}

/** The runs of a piece that are long tables: where the delimiter row ends and the rows run from and to. */
function longTables(text: string, start: number, end: number): Array<{ header: number; rows: number[] }> {
  const out: Array<{ header: number; rows: number[] }> = [];
  const lineStarts: number[] = [];
  for (let at = start; at < end; ) {
    lineStarts.push(at);
    const e = text.indexOf("\n", at);
    at = e < 0 || e >= end ? end : e + 1;
  }
  const lineOf = (i: number) => text.slice(lineStarts[i] ?? end, Math.max(lineStarts[i] ?? end, (lineStarts[i + 1] ?? end) - 1));
  for (let i = 1; i < lineStarts.length; i++) {
    if (!/^ {0,3}\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/.test(lineOf(i)) || !lineOf(i).includes("-")) continue;
    const rows: number[] = [];
    let j = i + 1;
    while (j < lineStarts.length && /^ {0,3}\|/.test(lineOf(j))) rows.push(lineStarts[j++] ?? end);
    if (rows.length > TABLE_SLICE_ROWS * 2) out.push({ header: lineStarts[i - 1] ?? start, rows });
    i = j;
  }
  return out;
}

function parseRange(text: string, start: number, end: number, parse: Parse, lineOfStart: number): RootContent[] {
  const tree = parse(text.slice(start, end));
  shift(tree.children, start, lineOfStart - 1);
  return tree.children;
}

function parsePiece(text: string, start: number, end: number, parse: Parse, lineAt: (offset: number) => number): RootContent[] {
  const startLine = lineAt(start);
  const tables = longTables(text, start, end);
  if (tables.length === 0) return parseRange(text, start, end, parse, startLine);
  const out: RootContent[] = [];
  let from = start;
  for (const t of tables) {
    const firstSliceEnd = t.rows[TABLE_SLICE_ROWS] ?? end;
    const head = parseRange(text, from, firstSliceEnd, parse, lineAt(from));
    const table = head[head.length - 1];
    if (table?.type !== "table" || table.children.length !== TABLE_SLICE_ROWS + 1) {
      return parseRange(text, start, end, parse, startLine);
    }
    if (from > start && !/^[ \t]*(?:\n|$)/.test(text.slice(from, Math.min(end, from + 200)))) return parseRange(text, start, end, parse, startLine);
    pushAll(out, head);
    const rest = t.rows.slice(TABLE_SLICE_ROWS);
    const rows: TableRow[] = [];
    for (const rowStart of rest) {
      const row = splitRow(text, rowStart, nextLineStart(text, rowStart, end), lineAt(rowStart));
      if (!row) return parseRange(text, start, end, parse, startLine);
      rows.push(row);
    }
    pushAll((table as Table).children, rows);
    const last = rows[rows.length - 1]?.position;
    if (last && table.position) table.position.end = { ...last.end };
    from = t.rows[t.rows.length - 1] === undefined ? end : nextLineStart(text, t.rows[t.rows.length - 1] ?? end, end);
  }
  if (from < end) {
    // What follows the last table is parsed on its own; a row-less line right after a table would have been a
    // lazy row of it, so such a piece is read whole instead.
    if (!/^[ \t]*(?:\n|$)/.test(text.slice(from, Math.min(end, from + 200)))) return parseRange(text, start, end, parse, startLine);
    pushAll(out, parseRange(text, from, end, parse, lineAt(from)));
  }
  return out;
}

function nextLineStart(text: string, at: number, end: number): number {
  const e = text.indexOf("\n", at);
  return e < 0 || e >= end ? end : e + 1;
}

/**
 * One GFM table row, split as micromark splits it: the row runs from its first non-blank character to the line's
 * end; each unescaped `|` after the first character starts a cell (the pipe belongs to the cell it opens), except a
 * trailing one, which closes the last cell; pipes inside code spans split cells too (GFM). A cell's content is one
 * text node of its trimmed source: the readers read cells from their source offsets, never from inline children.
 * `null` for a line this splitter does not decide the same way (tabs, carriage returns): the caller then parses.
 */
export function splitRow(text: string, from: number, to: number, line: number): TableRow | null {
  let end = to;
  if (text[end - 1] === "\n") end--;
  const raw = text.slice(from, end);
  if (raw.includes("\t") || raw.includes("\r")) return null;
  let begin = from;
  while (begin < end && text[begin] === " ") begin++;
  if (begin >= end || text[begin] !== "|") return null;
  const point = (offset: number) => ({ line, column: offset - from + 1, offset });
  const bounds: number[] = [begin];
  let lastNonBlank = end - 1;
  while (lastNonBlank > begin && text[lastNonBlank] === " ") lastNonBlank--;
  for (let i = begin + 1; i < end; i++) {
    if (text[i] !== "|" || i === lastNonBlank) continue;
    let slashes = 0;
    for (let j = i - 1; j >= begin && text[j] === "\\"; j--) slashes++;
    if (slashes % 2 === 0) bounds.push(i);
  }
  const cells: TableCell[] = bounds.map((cellStart, k) => {
    const cellEnd = bounds[k + 1] ?? end;
    let a = text[cellStart] === "|" ? cellStart + 1 : cellStart;
    let b = k === bounds.length - 1 && text[lastNonBlank] === "|" && lastNonBlank > cellStart ? lastNonBlank : cellEnd;
    while (a < b && text[a] === " ") a++;
    while (b > a && text[b - 1] === " ") b--;
    const children: TableCell["children"] =
      b > a ? [{ type: "text", value: text.slice(a, b), position: { start: point(a), end: point(b) } }] : [];
    return { type: "tableCell", children, position: { start: point(cellStart), end: point(cellEnd) } };
  });
  return { type: "tableRow", children: cells, position: { start: point(begin), end: point(end) } };
}
