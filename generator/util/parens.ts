/**
 * Parenthesised groups found in one left-to-right pass. Regexes such as `/\(([^)]*)\)/` rescan the rest of the line
 * from every `(` when no `)` follows, which is quadratic: a heading of 20,000 `(` took seconds (issue 9). These
 * helpers give the same groups in linear time.
 */

/** The first `(` that a `)` follows, and the text up to that `)`: what `/\(([^)]*)\)/` matches. */
export function firstParenGroup(s: string, from = 0): { start: number; end: number; inner: string } | null {
  const open = s.indexOf("(", from);
  if (open < 0) return null;
  const close = s.indexOf(")", open + 1);
  if (close < 0) return null;
  return { start: open, end: close + 1, inner: s.slice(open + 1, close) };
}

/** The group that ends the text (white space after it allowed): what `/\(([^)]*)\)\s*$/` matches. */
export function trailingParenGroup(s: string): string | null {
  const e = s.trimEnd();
  if (!e.endsWith(")")) return null;
  const prevClose = e.lastIndexOf(")", e.length - 2);
  const open = e.indexOf("(", prevClose + 1);
  if (open < 0 || open >= e.length - 1) return null;
  return e.slice(open + 1, e.length - 1);
}

/** The text with everything from its first `(` to its last `)` taken out: `s.replace(/\(.*\)/, "")` on one line. */
export function withoutParenSpan(s: string): string {
  const open = s.indexOf("(");
  const close = s.lastIndexOf(")");
  return open >= 0 && close > open ? s.slice(0, open) + s.slice(close + 1) : s;
}

/** The text without a parenthesised tail and the white space before it: `s.replace(/\s*\(.*\)\s*$/, "")`. */
export function withoutTrailingParens(s: string): string {
  const e = s.trimEnd();
  const open = s.indexOf("(");
  if (!e.endsWith(")") || open < 0 || open >= e.length - 1) return s;
  return s.slice(0, open).trimEnd();
}

/**
 * "`name` (paren)" items of a list, each with the group after the name: `/`(\w+)`\s*\(([^)]*)\)/g` in one pass.
 * `name` is a pattern for the name between the backticks.
 */
export function namedParenGroups(s: string, name = /^[A-Za-z_]\w*$/): Array<{ name: string; paren: string; start: number; end: number }> {
  const out: Array<{ name: string; paren: string; start: number; end: number }> = [];
  const opener = /`([^`]*)`\s*\(/g;
  let lastClose = -1;
  for (let m = opener.exec(s); m; m = opener.exec(s)) {
    const open = m.index + m[0].length - 1;
    if (lastClose < open) lastClose = s.indexOf(")", open + 1);
    if (lastClose < 0) break;
    const id = m[1] ?? "";
    if (!name.test(id)) continue;
    // As the regex: the group runs to the first `)`, so a later name inside it is not an item of its own.
    out.push({ name: id, paren: s.slice(open + 1, lastClose), start: m.index, end: lastClose + 1 });
    opener.lastIndex = lastClose + 1;
  }
  return out;
}

/**
 * The balanced group that opens at `open` (nested groups and code spans inside it kept whole), in one pass: what no
 * single regex matches. Null when `s[open]` is no `(` or the group does not close.
 */
export function balancedParenGroup(s: string, open: number): { start: number; end: number; inner: string } | null {
  if (s[open] !== "(") return null;
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === "`") {
      const close = s.indexOf("`", i + 1);
      if (close < 0) return null;
      i = close;
    } else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return { start: open, end: i + 1, inner: s.slice(open + 1, i) };
  }
  return null;
}

/** The text with every closed parenthesised group (nested ones included) taken out, in one pass. */
export function withoutParenGroups(s: string): string {
  const out: string[] = [];
  let depth = 0;
  let kept = 0;
  for (const c of s) {
    if (c === "(") {
      if (depth === 0) kept = out.length;
      depth++;
    } else if (c === ")" && depth > 0) {
      depth--;
      // Dropping the group: truncating the array is constant time, so the pass stays linear.
      if (depth === 0) out.length = kept;
      else out.push(c);
      continue;
    }
    out.push(c);
  }
  return out.join("");
}
