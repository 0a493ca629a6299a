import { type Span, diagnostic, type Diagnostic } from "../diagnostics/catalogue.js";
import type { KnownGap, Source, Statement } from "../model/types.js";
import { type SpecFile, type Text, sliceText, spanOf, trimText } from "../parse/markdown.js";
import { nearTypeWord } from "./types.js";

/** What every reader gets: the file for positions, and lists it appends diagnostics and known gaps to. */
export interface ReadContext {
  file: SpecFile;
  diagnostics: Diagnostic[];
  gaps: KnownGap[];
  /** The method or resource being read: diagnostics carry it so that a config's `ignore` can name it. */
  subject?: { method?: string; resource?: string };
  /**
   * Lines where a reader read a fact that has no position of its own (a scope, who may call, a verb, a deprecation):
   * the no-drop ledger (read/ledger.ts) counts them as placed.
   */
  placed?: Set<number>;
  /** Method groups a table of the areas with 3.0 methods names (`humanresources.*`): named methods of version 3.0. */
  namedV3?: Array<{ name: string; source: Source }>;
  /** Told the id of the form that read each sentence of a method (tests: which row reads a README example). */
  trace?: (form: string, sentence: string) => void;
}

/** Marks the line of `t` as read into a typed fact that keeps no position of its own. */
export function place(ctx: ReadContext, t: Text): void {
  (ctx.placed ??= new Set()).add(spanOf(ctx.file, t.start).line);
}

export function sourceOf(ctx: ReadContext, t: Text): Source {
  const s = spanOf(ctx.file, t.start);
  return { file: s.file, line: s.line, column: s.column };
}

export function spanOfText(ctx: ReadContext, t: Text): Span {
  return spanOf(ctx.file, t.start, t.start + t.text.length);
}

export function report(ctx: ReadContext, ...args: Parameters<typeof diagnostic>): void {
  const d = diagnostic(...args);
  ctx.diagnostics.push(ctx.subject ? { ...d, subject: ctx.subject } : d);
}

/**
 * A word in a type position that is no type word: in the spec, a near miss of a known one (`integr`) is an error with
 * "did you mean" (decisions.md D31: a typo would publish a parameter the router no longer checks); any other word
 * is a warning, and the parameter is `unknown`.
 */
export function reportTypeWord(ctx: ReadContext, at: Span, word: string): void {
  const near = nearTypeWord(word);
  if (near) report(ctx, "misspelled-type", at, { word, near });
  else report(ctx, "unknown-type", at, { word });
}

export interface CodeSpan {
  value: string;
  /** Index of the opening backtick inside the Text. */
  index: number;
  end: number;
}

/** Backtick code spans of a run of inline markdown (single backticks, as the spec writes them). */
export function codeSpans(t: Text): CodeSpan[] {
  const out: CodeSpan[] = [];
  const re = /`([^`]*)`/g;
  for (let m = re.exec(t.text); m; m = re.exec(t.text)) {
    out.push({ value: m[1] ?? "", index: m.index, end: m.index + m[0].length });
  }
  return out;
}

export function refsOf(t: Text): string[] {
  return codeSpans(t).map((c) => c.value);
}

export function statement(ctx: ReadContext, t: Text): Statement {
  const tt = trimText(t);
  return { text: collapse(tt.text), refs: refsOf(tt), source: sourceOf(ctx, tt) };
}

/** Folds runs of white space (line breaks of the source) into one space. */
export function collapse(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/**
 * Splits at separators that stand outside backticks and brackets. `isSeparator` gets the text and an index
 * and answers the separator's length there, or 0.
 */
export function splitTop(t: Text, isSeparator: (s: string, i: number) => number): Text[] {
  const parts: Text[] = [];
  let depth = 0;
  let inCode = false;
  let from = 0;
  const s = t.text;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === "`") inCode = !inCode;
    if (inCode) continue;
    if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if ((ch === ")" || ch === "]" || ch === "}") && depth > 0) depth--;
    if (depth === 0) {
      const len = isSeparator(s, i);
      if (len > 0) {
        parts.push(sliceText(t, from, i));
        from = i + len;
        i += len - 1;
      }
    }
  }
  parts.push(sliceText(t, from));
  return parts.map(trimText).filter((p) => p.text.length > 0);
}

/**
 * Sentences: a period outside backticks and brackets, followed by white space and a capital letter, a digit,
 * a backtick or a bold marker. "e.g. a code" (and "incl.", "approx.", "cf.") does not split.
 */
export function sentences(t: Text): Text[] {
  return splitTop(t, (s, i) => {
    if (s[i] !== ".") return 0;
    const rest = s.slice(i + 1);
    const m = /^\s+(?=[A-Z0-9`*Ѐ-ӿ])/.exec(rest);
    if (!m) return 0;
    // Abbreviations that end in a period and are followed by a capital are not sentence ends in this spec.
    // "incl. `archiveLink`" is a developer's "includes", not the end of a sentence (whose rest would be read alone).
    const before = s.slice(Math.max(0, i - 7), i);
    if (/\be\.g$|\bi\.e$|\bincl$|\bapprox$|\bcf$/i.test(before)) return 0;
    return 1 + m[0].length;
  }).map((p) => (p.text.endsWith(".") ? sliceText(p, 0, p.text.length - 1) : p));
}

/** Clauses separated by `;` at the top level. */
export function clauses(t: Text): Text[] {
  return splitTop(t, (s, i) => (s[i] === ";" ? 1 : 0));
}

/** Records a "not shown" (or "not stated") known gap. */
export function addGap(
  ctx: ReadContext,
  t: Text,
  subject: string,
  appliesTo: string[],
  kind: KnownGap["kind"] = "not-shown",
): void {
  ctx.gaps.push({ subject: collapse(subject), kind, appliesTo, source: sourceOf(ctx, trimText(t)) });
}

/** `X: not shown` / `X: not shown beyond ...` sentences. */
export const NOT_SHOWN = /^(.*?)[:,]?\s*not shown\b(.*)$/i;

/**
 * The words "not shown" without the emphasis an author puts on them ("**Not shown:**", "are **not shown**:",
 * "_not shown_"): the markers are no part of what is not shown, and read as words they became a gap's subject `**`.
 */
export function unemphasisedNotShown(s: string): string {
  return s.replace(/(\*\*|__|\*|_)(not shown)(?:\1(:?)|(:)\1)/gi, (_m, _e: string, w: string, a?: string, b?: string) => `${w}${a ?? b ?? ""}`);
}

/**
 * A paragraph that opens with a bold label other than "Not shown" ("**Note:** the response is not shown", "**Important:**
 * …"): the label is the paragraph's look, and the sentence is its method's, not a gap of the area with `**` in it.
 */
function boldLabelled(s: string): boolean {
  return /^\*\*/.test(s) && !/^\*\*not shown\b/i.test(s);
}

/** An area's gap in a paragraph: what it says is not shown, unless a bold label other than "Not shown" opens it. */
export function areaGapSubject(s: string): string | null {
  return boldLabelled(s) ? null : notShownSubject(s);
}

/**
 * What a "not shown" sentence says is not shown, in its three forms: "Response: not shown", "The full field list and
 * the response are not shown" (the verb is no part of it), and the label first, "Not shown: the list of scopes".
 * null when the sentence says no such thing.
 */
export function notShownSubject(s: string): string | null {
  const m = NOT_SHOWN.exec(unemphasisedNotShown(s));
  if (!m) return null;
  const before = (m[1] ?? "").trim().replace(/\s+(?:are|is)$/i, "");
  return before || (m[2] ?? "").replace(/^\s*[:—–-]\s*/, "").replace(/\.$/, "").trim();
}
