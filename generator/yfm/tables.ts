/**
 * YFM tables (spec-source/README-reference.md#tables): `#|` opens, `|#` closes, a row is `|| cell | cell ||`, and a
 * cell may span lines and hold lists, code and whole tables of its own.
 *
 *     #|
 *     || **Name**
 *     `type` | **Description** ||
 *     || **id***
 *     [`integer`](../data-types.md) | Task identifier ||
 *     |#
 *
 * A cell of `>` or `^` alone spans the cell before or above it, and is no cell of its own.
 *
 * Scanned by hand, one pass over the characters (see blocks.ts for why no library): the separators count only outside
 * code spans, fences and nested tables, and `\|` is a pipe of the text (unions are written `string \| null`).
 */

export interface YfmCell {
  /** The cell as written, trimmed; a nested table stays in it as text. */
  text: string;
  file: string;
  line: number;
  column: number;
}

export interface YfmTable {
  rows: YfmCell[][];
  /** The offset just past the closing `|#` (or the end of the text, for a table never closed). */
  end: number;
  /**
   * Where the last row opened when `|#` came before its closing `||` (crm.contact.update's `params`). The row is
   * kept, ended by the `|#`, as the dialect's own parser ends it: its words are the page's, and the page's links
   * reach its sections. Said by the reader (reference/front-end.ts): the author left out the `||`.
   */
  unclosedRow?: { line: number; column: number };
}

/** Scans the table whose `#|` is at `start` of `text`, on line `startLine`. */
export function scanTable(text: string, start: number, file: string, startLine: number): YfmTable {
  const rows: YfmCell[][] = [];
  let row: YfmCell[] | null = null;
  let cellStart = -1;
  let depth = 0;
  let i = start;
  // Line and column are counted as the scan goes, so that a cell's position costs nothing.
  let line = startLine;
  let lineStart = text.lastIndexOf("\n", start - 1) + 1;
  let cellLine = line;
  let cellColumn = 1;
  let rowAt = { line, column: 1 };
  /** Backtick run lengths that have no closing run later on the current line (so none is looked for twice). */
  let unmatched = new Set<number>();
  let atLineStart = false;
  const endCell = (to: number) => {
    if (!row || cellStart < 0) return;
    const raw = text.slice(cellStart, to);
    const lead = raw.length - raw.trimStart().length;
    // The cell's position is that of its first character; an empty cell is where it starts.
    let l = cellLine;
    let c = cellColumn;
    for (let k = 0; k < lead; k++) {
      if (raw[k] === "\n") {
        l++;
        c = 1;
      } else c++;
    }
    const cellText = raw.trim();
    // `>` and `^` alone join the cell to the one before or above (YFM's colspan and rowspan): no cell of their own.
    if (cellText === ">" || cellText === "^") return;
    row.push({ text: cellText, file, line: l, column: c });
  };
  const newline = (at: number) => {
    line++;
    lineStart = at + 1;
    unmatched = new Set();
    atLineStart = true;
  };
  while (i < text.length) {
    const ch = text[i];
    if (ch === "\n") {
      newline(i);
      i++;
      continue;
    }
    if (atLineStart && (ch === " " || ch === "\t")) {
      i++;
      continue;
    }
    const lineBegins = atLineStart;
    atLineStart = false;
    // A fence inside a cell: its lines are the cell's text until the closing fence, whose line may go on (`` ``` || ``).
    if (lineBegins && (text.startsWith("```", i) || text.startsWith("~~~", i)) && opensFence(text, i)) {
      const mark = text[i] as string;
      let n = 0;
      while (text[i + n] === mark) n++;
      let j = text.indexOf("\n", i);
      while (j >= 0) {
        const next = j + 1;
        newline(j);
        let k = next;
        while (text[k] === " " || text[k] === "\t") k++;
        let m = 0;
        while (text[k + m] === mark) m++;
        if (m >= n) {
          i = k + m;
          atLineStart = false;
          break;
        }
        j = text.indexOf("\n", next);
      }
      if (j < 0) i = text.length;
      continue;
    }
    if (ch === "\\") {
      // An escape: the next character is text, except a line break, which still ends the line.
      i += text[i + 1] === "\n" ? 1 : 2;
      continue;
    }
    if (ch === "`") {
      let n = 0;
      while (text[i + n] === "`") n++;
      const close = unmatched.has(n) ? -1 : closingRun(text, i + n, n);
      if (close < 0) {
        unmatched.add(n);
        i += n;
      } else i = close + n;
      continue;
    }
    if (ch === "#" && text[i + 1] === "|") {
      depth++;
      i += 2;
      continue;
    }
    if (ch === "|" && text[i + 1] === "#" && depth > 0) {
      depth--;
      if (depth === 0) {
        if (!row) return { rows, end: i + 2 };
        endCell(i);
        // `|| ||` at a row's end opens an empty row that the `|#` then ends: nothing of the page is in it.
        if (row.every((c) => c.text === "")) return { rows, end: i + 2 };
        rows.push(row);
        return { rows, end: i + 2, unclosedRow: rowAt };
      }
      i += 2;
      continue;
    }
    if (ch === "|" && depth === 1) {
      if (text[i + 1] === "|") {
        if (row) {
          endCell(i);
          rows.push(row);
          row = null;
          cellStart = -1;
        } else {
          row = [];
          cellStart = i + 2;
          cellLine = line;
          cellColumn = i + 2 - lineStart + 1;
          rowAt = { line, column: i - lineStart + 1 };
        }
        i += 2;
        continue;
      }
      if (row) {
        endCell(i);
        cellStart = i + 1;
        cellLine = line;
        cellColumn = i + 1 - lineStart + 1;
      }
      i++;
      continue;
    }
    i++;
  }
  if (row) {
    endCell(text.length);
    rows.push(row);
  }
  return { rows, end: text.length };
}

/**
 * Whether the backticks or tildes at `i` open a fence: as in CommonMark, the info string after backticks holds no
 * backtick, so ```` ```string | null``` ```` at the start of a line is a code span.
 */
function opensFence(text: string, i: number): boolean {
  if (text[i] !== "`") return true;
  let j = i;
  while (text[j] === "`") j++;
  const end = text.indexOf("\n", j);
  return !text.slice(j, end < 0 ? undefined : end).includes("`");
}

/** The offset of the next run of exactly `n` backticks on the same line, or -1. */
function closingRun(text: string, from: number, n: number): number {
  let i = from;
  while (i < text.length) {
    const ch = text[i];
    if (ch === "\n") return -1;
    if (ch === "`") {
      let m = 0;
      while (text[i + m] === "`") m++;
      if (m === n) return i;
      i += m;
      continue;
    }
    i++;
  }
  return -1;
}
