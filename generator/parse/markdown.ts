import type { Heading, ListItem, Root, RootContent, Table } from "mdast";
import { remark } from "remark";
import remarkGfm from "remark-gfm";
import type { Span } from "../diagnostics/catalogue.js";
import { parseInPieces } from "./chunks.js";

/** A spec file with its text and the offsets where lines start, to turn offsets into line and column. */
export interface SpecFile {
  /** The path as given to the generator, used in every position. */
  path: string;
  text: string;
  lineStarts: number[];
}

export function specFile(path: string, text: string): SpecFile {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  return { path, text, lineStarts };
}

function lineOf(file: SpecFile, offset: number): number {
  let lo = 0;
  let hi = file.lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((file.lineStarts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Line and column (both 1-based) of a span of offsets, clamped inside the file. */
export function spanOf(file: SpecFile, start: number, end: number = start): Span {
  const max = file.text.length;
  const s = Math.max(0, Math.min(start, max));
  const e = Math.max(s, Math.min(end, max));
  const sl = lineOf(file, s);
  const el = lineOf(file, e);
  return {
    file: file.path,
    line: sl + 1,
    column: s - (file.lineStarts[sl] ?? 0) + 1,
    endLine: el + 1,
    endColumn: e - (file.lineStarts[el] ?? 0) + 1,
  };
}

/** A run of inline markdown with the file offset of its first character; `text` keeps the source length. */
export interface Text {
  text: string;
  start: number;
}

/** The raw inline text of a block node; line breaks become spaces so that offsets still map 1:1 to the file. */
export function textOf(file: SpecFile, node: { position?: { start: { offset?: number }; end: { offset?: number } } }): Text {
  const start = node.position?.start.offset ?? 0;
  const end = node.position?.end.offset ?? start;
  return { text: file.text.slice(start, end).replace(/\r?\n/g, (m) => " ".repeat(m.length)), start };
}

export function sliceText(t: Text, from: number, to: number = t.text.length): Text {
  return { text: t.text.slice(from, to), start: t.start + from };
}

/** Trims white space and keeps the offset right. */
export function trimText(t: Text): Text {
  const lead = t.text.length - t.text.trimStart().length;
  return { text: t.text.trim(), start: t.start + lead };
}

/** A heading and everything up to the next heading of the same or a higher level. */
export interface Section {
  title: string;
  depth: number;
  blocks: RootContent[];
  children: Section[];
  /** Offsets of the heading (or of the document start for the root). */
  start: number;
  end: number;
  /** Titles of the enclosing sections, outermost first. */
  path: string[];
}

/** How deep lists and block quotes may nest. The spec uses three levels; mdast tools recurse per level. */
export const MAX_NESTING = 32;

/**
 * Lines whose container markers (`>`, `-`, `*`, `+`, `1.`) nest deeper than `limit`, and the text with the markers
 * past the limit turned into spaces (offsets unchanged, so positions stay right). remark parses any depth, but
 * its tree tools recurse once per level and overflow the stack near a few thousand levels (issue 9). Written by
 * hand: one pass over each line's leading markers, which no parser option bounds.
 */
export function boundNesting(text: string, limit = MAX_NESTING): { text: string; deep: Array<{ offset: number; depth: number }> } {
  const deep: Array<{ offset: number; depth: number }> = [];
  const parts: string[] = [];
  let last = 0;
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    let i = lineStart;
    while (i < lineEnd && (text[i] === " " || text[i] === "\t")) i++;
    const indent = i - lineStart;
    let depth = 0;
    let cut = -1;
    for (;;) {
      while (i < lineEnd && (text[i] === " " || text[i] === "\t")) i++;
      const c = text[i];
      let width = 0;
      if (c === ">") width = 1;
      else if ((c === "-" || c === "*" || c === "+") && (i + 1 >= lineEnd || text[i + 1] === " " || text[i + 1] === "\t")) width = 1;
      else {
        let j = i;
        while (j < lineEnd && j - i < 9 && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
        if (j > i && (text[j] === "." || text[j] === ")") && (j + 1 >= lineEnd || text[j + 1] === " ")) width = j - i + 1;
      }
      if (width === 0) break;
      depth++;
      if (cut < 0 && depth + (indent >> 1) > limit) cut = i;
      i += width;
    }
    if (cut >= 0) {
      deep.push({ offset: cut, depth: depth + (indent >> 1) });
      parts.push(text.slice(last, cut), text.slice(cut, i).replace(/[^\s]/g, " "));
      last = i;
    }
    lineStart = lineEnd + 1;
  }
  parts.push(text.slice(last));
  return { text: deep.length > 0 ? parts.join("") : text, deep };
}

/** Parses the spec (its nesting bounded first); `deep` says where markers past the bound were read as text. */
export function parseMarkdown(file: SpecFile): { root: Root; deep: Array<{ offset: number; depth: number }> } {
  const bounded = boundNesting(file.text);
  const processor = remark().use(remarkGfm);
  return { root: parseInPieces(bounded.text, (piece) => processor.parse(piece)), deep: bounded.deep };
}

function headingTitle(file: SpecFile, h: Heading): string {
  const first = h.children[0];
  const last = h.children[h.children.length - 1];
  if (!first || !last) return "";
  const start = first.position?.start.offset ?? 0;
  const end = last.position?.end.offset ?? start;
  return file.text.slice(start, end).replace(/\s+/g, " ").trim();
}

/** Splits the document into a tree of sections by heading level; blocks before the first heading go to the root. */
export function sectionize(file: SpecFile, root: Root): Section {
  const top: Section = { title: "", depth: 0, blocks: [], children: [], start: 0, end: file.text.length, path: [] };
  const stack: Section[] = [top];
  for (const node of root.children) {
    if (node.type === "heading") {
      while (stack.length > 1 && (stack[stack.length - 1]?.depth ?? 0) >= node.depth) stack.pop();
      const parent = stack[stack.length - 1] ?? top;
      const section: Section = {
        title: headingTitle(file, node),
        depth: node.depth,
        blocks: [],
        children: [],
        start: node.position?.start.offset ?? 0,
        end: node.position?.end.offset ?? 0,
        path: [...parent.path, ...(parent.depth > 0 ? [parent.title] : [])],
      };
      parent.children.push(section);
      stack.push(section);
    } else {
      const current = stack[stack.length - 1] ?? top;
      current.blocks.push(node);
    }
  }
  return top;
}

/** The cells of a table row as Text, padded to `width` with empty cells at the row's end. */
export function rowCells(file: SpecFile, row: Table["children"][number], width: number): Text[] {
  const cells = row.children.map((c) => {
    // A cell's position may take in its leading pipe and the white space around the content.
    let t = trimText(textOf(file, c));
    if (t.text.startsWith("|")) t = trimText(sliceText(t, 1));
    if (t.text.endsWith("|") && !t.text.endsWith("\\|")) t = trimText(sliceText(t, 0, t.text.length - 1));
    return t;
  });
  const end = row.position?.end.offset ?? 0;
  while (cells.length < width) cells.push({ text: "", start: end });
  // gfm keeps the pipes out of the cell but a cell's raw text may still hold escaped pipes: `\|` means `|`. A
  // position after one inside the same cell is off by a column per pipe; cells start where they start.
  return cells.map((c) => ({ text: c.text.replace(/\\\|/g, "|"), start: c.start }));
}

export function listItemText(file: SpecFile, item: ListItem): Text {
  const first = item.children[0];
  const last = item.children[item.children.length - 1];
  if (!first || !last) return textOf(file, item);
  return textOf(file, {
    position: { start: { offset: first.position?.start.offset ?? 0 }, end: { offset: last.position?.end.offset ?? 0 } },
  });
}
