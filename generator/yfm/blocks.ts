import slugify from "slugify";
import { scanTable, type YfmTable } from "./tables.js";

/**
 * The block layer of YFM, the Markdown dialect of the platform's reference (spec-source/README-reference.md).
 *
 * Written by hand, on purpose: no remark or micromark extension reads YFM's tables (`#| … |#`) or its `{% %}`
 * blocks, and CommonMark breaks on some of them (a fence closed as "``` ||" swallows the table's end). The dialect's
 * own parser (@diplodoc/transform, markdown-it) gives line-only positions and two of its packages want Node 24; it is
 * the oracle of test/yfm/oracle.test.ts, not a dependency. A page is scanned once, line by line, into the blocks the
 * readers need, each at its file, line and column; the inline text of a block stays a string that the readers look
 * into. Nothing here is quadratic: every line is looked at once, and a table's characters once (tables.ts).
 */

export interface At {
  file: string;
  line: number;
  column: number;
}

export type YfmBlock =
  | ({ kind: "heading"; depth: number; text: string; anchor: string | null } & At)
  | ({ kind: "table" } & YfmTable & At)
  /**
   * A fenced block's body, the fence's indentation taken from each line (`column` is the fence's). A line indented
   * less than its fence loses what indentation it has; `columns` then gives each body line's page column, where
   * some line's differs from `column`.
   */
  | ({ kind: "code"; lang: string; text: string; columns?: number[] } & At)
  /** A paragraph, or a list item with its continuation lines, as written. */
  | ({ kind: "text"; text: string } & At)
  /** The lines of a block quote, `> ` removed. */
  | ({ kind: "quote"; text: string } & At)
  /** `{% note warning "DEPRECATED" %}` … `{% endnote %}`: the opening and closing markers around blocks. */
  | ({ kind: "note"; note: string; title: string } & At)
  | ({ kind: "end-note" } & At)
  /** `{% include [title](path) %}` that was not spliced (its target is missing, or it includes itself). */
  | ({ kind: "include"; target: string; why: "missing" | "cycle" | "too-deep" | "too-large" } & At)
  /** A `{% if %}` never closed: what follows it is dropped when its condition is the documentation's developers'. */
  | ({ kind: "unclosed-if"; dropped: boolean } & At);

export interface YfmPage {
  file: string;
  blocks: YfmBlock[];
  /** Paths of the files spliced into this page by `{% include %}`, in order. */
  included: string[];
  /** Every include this page asked for, its own and its includes': from which file, the target, the file found or null. */
  resolutions: Array<[string, string, string | null]>;
}

/** How the scanner finds an included file: by its path relative to the page (and, failing that, to the root). */
export type IncludeResolver = (fromFile: string, target: string) => { file: string; text: string } | null;

/** `## Words {#anchor}`: the marks, then the words, read by hand (a regex with optional parts around `.*?` backtracks cubically on long runs of spaces). */
function heading(line: string): { depth: number; text: string; anchor: string | null } | null {
  let depth = 0;
  while (depth < line.length && line[depth] === "#") depth++;
  if (depth < 1 || depth > 6 || (line[depth] !== " " && line[depth] !== "\t")) return null;
  let text = line.slice(depth).trim();
  // A closing sequence of `#`s after a space is no part of the words.
  const closing = /[ \t]#+$/.exec(text);
  if (closing) text = text.slice(0, closing.index).trimEnd();
  let anchor: string | null = null;
  const open = text.lastIndexOf("{#");
  if (open >= 0 && text.endsWith("}") && !/[}\s]/.test(text.slice(open + 2, -1)) && text.length - open > 3) {
    anchor = text.slice(open + 2, -1);
    text = text.slice(0, open).trimEnd();
  }
  return { depth, text, anchor };
}
const FENCE = /^([ \t]*)(`{3,}|~{3,})[ \t]*([^`\s]*)/;
const TAG = /^[ \t]*(?:[-*+][ \t]+)?\{%-?[ \t]*([a-z]+)\b(.*?)-?%\}[ \t]*$/;
const INCLUDE_TARGET = /\[[^\]]*\]\(([^)\s]+)\)/;

/** A `{% if %}` the dialect's own build drops: the blocks for the documentation's developers only. */
const DEV_ONLY = /\bbuild\s*==\s*['"]dev['"]/;

/** The deepest chain of includes followed; the reference's go two deep. */
const INCLUDE_DEPTH = 8;

/**
 * Scans a page into blocks, splicing `{% include %}` targets in place (their blocks keep their own file and lines)
 * and dropping `{% if build == 'dev' %}` blocks as the dialect's build does.
 */
export function scanPage(file: string, text: string, resolve: IncludeResolver, memo: IncludeMemo = new Map()): YfmPage {
  const included: string[] = [];
  const resolutions: YfmPage["resolutions"] = [];
  const blocks = scanFile(file, text, { resolve, chain: [file], included, resolutions, memo, budget: { left: MAX_PAGE_BLOCKS } });
  return { file, blocks, included, resolutions };
}

/**
 * The blocks of each included file, scanned once per run: a shared include (the system errors, on nearly every page)
 * is not scanned again for every page, and includes of includes do not multiply (a file's blocks keep its own lines,
 * wherever it is spliced).
 */
export type IncludeMemo = Map<string, { blocks: YfmBlock[]; included: string[]; resolutions: YfmPage["resolutions"] }>;

interface ScanContext {
  resolve: IncludeResolver;
  chain: string[];
  included: string[];
  resolutions: YfmPage["resolutions"];
  memo: IncludeMemo;
  /** Blocks a page may still splice in: a page of includes that multiply stops with a warning, not out of memory. */
  budget: { left: number };
}

/** The most blocks one page takes in with its includes; the reference's largest page has a few thousand. */
const MAX_PAGE_BLOCKS = 100_000;

function scanFile(file: string, text: string, ctx: ScanContext): YfmBlock[] {
  const blocks: YfmBlock[] = [];
  const lines = text.split("\n");
  /** Offsets of each line's start, for the table scanner that works on the text. */
  const starts: number[] = new Array(lines.length);
  for (let i = 0, o = 0; i < lines.length; i++) {
    starts[i] = o;
    o += (lines[i] as string).length + 1;
  }
  // `{% if %}` nesting: each level says whether its blocks are kept, and where it opened.
  const conditions: boolean[] = [];
  const opened: number[] = [];
  const kept = () => conditions.every(Boolean);
  let para: { lines: string[]; line: number; column: number; quote: boolean } | null = null;
  const flush = () => {
    if (para) blocks.push({ kind: para.quote ? "quote" : "text", text: para.lines.join("\n"), file, line: para.line, column: para.column });
    para = null;
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    const tag = TAG.exec(line);
    if (tag) {
      const [, name, rest = ""] = tag;
      if (name === "if") {
        flush();
        conditions.push(!DEV_ONLY.test(rest));
        opened.push(i);
        i++;
        continue;
      }
      if (name === "else" || name === "elsif") {
        flush();
        // Only a dev-only `if` is dropped; its `else` is what every other build shows.
        if (conditions.length > 0) conditions[conditions.length - 1] = !conditions[conditions.length - 1] || !DEV_ONLY.test(rest);
        i++;
        continue;
      }
      if (name === "endif") {
        flush();
        conditions.pop();
        opened.pop();
        i++;
        continue;
      }
    }
    if (!kept()) {
      i++;
      continue;
    }
    const column = line.length - line.trimStart().length + 1;
    const at = { file, line: i + 1, column };
    if (tag) {
      const [, name, rest = ""] = tag;
      flush();
      if (name === "note") {
        const m = /^\s*([a-z]+)?\s*(?:"([^"]*)")?/.exec(rest);
        blocks.push({ kind: "note", note: m?.[1] ?? "info", title: m?.[2] ?? "", ...at });
      } else if (name === "endnote") blocks.push({ kind: "end-note", ...at });
      else if (name === "include") {
        const target = INCLUDE_TARGET.exec(rest)?.[1];
        if (target) blocks.push(...spliceInclude(file, target, at, ctx));
      }
      // Tabs, cuts and lists of tabs only group what they hold; the readers look at what is inside.
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    // As in CommonMark, a backtick fence's info string holds no backtick: ```a | b``` opening a line is a code span.
    if (fence && !(fence[2]?.startsWith("`") && line.slice(fence[0].length).includes("`"))) {
      flush();
      const [, indent = "", marks = "", lang = ""] = fence;
      const body: string[] = [];
      const columns: number[] = [];
      let shifted = false;
      let j = i + 1;
      for (; j < lines.length; j++) {
        const whole = lines[j] as string;
        const l = whole.trimStart();
        if (l.startsWith(marks[0] as string) && l.length - l.replace(/^[`~]+/, "").length >= marks.length && /^[`~]+[ \t]*$/.test(l)) break;
        const kept = whole.startsWith(indent) ? whole.slice(indent.length) : l;
        body.push(kept);
        // An empty line has no column of its own: the fence's.
        const lineColumn = kept === "" ? column : whole.length - kept.length + 1;
        columns.push(lineColumn);
        if (lineColumn !== column) shifted = true;
      }
      blocks.push({ kind: "code", lang: lang.toLowerCase(), text: body.join("\n"), ...(shifted ? { columns } : {}), ...at });
      i = j + 1;
      continue;
    }
    if (line.trimStart().startsWith("#|")) {
      flush();
      const table = scanTable(text, (starts[i] as number) + column - 1, file, i + 1);
      blocks.push({ kind: "table", rows: table.rows, end: table.end, ...(table.unclosedRow ? { unclosedRow: table.unclosedRow } : {}), ...at });
      // The next line after the table's end.
      let j = i;
      while (j + 1 < lines.length && (starts[j + 1] as number) <= table.end) j++;
      i = j + 1;
      continue;
    }
    const h = column === 1 ? heading(line) : null;
    if (h) {
      flush();
      blocks.push({ kind: "heading", depth: h.depth, text: h.text, anchor: h.anchor, ...at });
      i++;
      continue;
    }
    if (line.trim() === "") {
      flush();
      i++;
      continue;
    }
    const quote = /^[ \t]*>[ \t]?(.*)$/.exec(line);
    const isItem = /^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/.test(line);
    if (para && (isItem || (quote !== null) !== para.quote)) flush();
    if (!para) para = { lines: [], line: i + 1, column, quote: quote !== null };
    para.lines.push(quote ? (quote[1] ?? "") : line.trim());
    i++;
  }
  flush();
  // An `if` never closed: said at the line that opened it (whether what followed was dropped or kept).
  for (const [k, line] of opened.entries()) blocks.push({ kind: "unclosed-if", dropped: !conditions[k], file, line: line + 1, column: 1 });
  return blocks;
}

function spliceInclude(file: string, target: string, at: At, ctx: ScanContext): YfmBlock[] {
  if (ctx.chain.length > INCLUDE_DEPTH) return [{ kind: "include", target, why: "too-deep", ...at }];
  const found = ctx.resolve(file, target.replace(/#.*$/, ""));
  ctx.resolutions.push([file, target.replace(/#.*$/, ""), found?.file ?? null]);
  if (!found) return [{ kind: "include", target, why: "missing", ...at }];
  if (ctx.chain.includes(found.file)) return [{ kind: "include", target, why: "cycle", ...at }];
  let scanned = ctx.memo.get(found.file);
  if (!scanned) {
    const included: string[] = [];
    const resolutions: YfmPage["resolutions"] = [];
    scanned = { blocks: scanFile(found.file, found.text, { ...ctx, chain: [...ctx.chain, found.file], included, resolutions }), included, resolutions };
    ctx.memo.set(found.file, scanned);
  }
  if (scanned.blocks.length > ctx.budget.left) return [{ kind: "include", target, why: "too-large", ...at }];
  ctx.budget.left -= scanned.blocks.length;
  ctx.included.push(found.file, ...scanned.included);
  ctx.resolutions.push(...scanned.resolutions);
  return scanned.blocks;
}

/**
 * A heading's anchor as the dialect makes it when none is written: the words of its text tokens through `slugify`
 * with @diplodoc/transform's own options (plugins/anchors: lower case, and every character but word characters,
 * spaces and `$_-,;=/` removed). Code spans are no text token, so they drop out whole ("Structure of the `result`
 * Object" is `structure-of-the-object`); a link keeps its words, emphasis its words without the marks. So
 * "Section_Element" is `section_element`, as the published page's anchor and the links to it are; a hand-made slug had
 * dropped the underscore. Each pattern stops at the first character that ends what it matches: linear in the heading.
 */
export function slugOf(text: string): string {
  const visible = text
    .replace(/`[^`]*`/g, "")
    .replace(/\[([^\][]*)\]\([^()]*\)/g, "$1")
    .replace(/(^|[^\p{L}\p{N}_])_([^_]+)_(?![\p{L}\p{N}_])/gu, "$1$2")
    .replace(/\*/g, "")
    .trim();
  // CommonJS: the module's function is its `default` member too, the one TypeScript's node resolution types.
  return slugify.default(visible, { lower: true, remove: /[^\w\s$_\-,;=/]+/g });
}
