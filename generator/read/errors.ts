import type { MethodError } from "../model/types.js";
import { type Text, sliceText, trimText } from "../parse/markdown.js";
import {
  type ReadContext,
  clauses,
  collapse,
  report,
  sentences,
  sourceOf,
  spanOfText,
  splitTop,
} from "./inline.js";
import { pushAll } from "../util/arrays.js";

/**
 * Reads a method's error sentence (spec-source/README.md#errors):
 *
 *     Errors, HTTP 400: empty code with `Required parameters are not set`; code `ERROR_CORE` for file name problems.
 *     Errors, HTTP 400, code `ERROR_CORE`: `PHONE_NUMBER is empty`; `CRM is not installed.`
 *     Errors: 400 `ERROR_ARGUMENT` (texts: `a`, `b`); 403 `ACCESS_DENIED` (offline binding by non-administrator).
 *     Errors: `A` (`text a`), `B` (`text b`). Statuses 400 and 403.
 *     Errors: HTTP 4xx, code `ATTACH_NOT_FOUND`, text `Attach not found`; a constructor-type error.
 *
 * Returns the errors and the trailing sentences that are not errors (such as "... : not shown").
 */

/** Error codes are digits, Latin letters and underscore (the legacy error body's rule); anything else is a text. */
const CODE = /^[A-Za-z0-9_]*$/;

interface Shared {
  statuses: number[];
  statusClass: string | null;
  code: string | null;
}

function readStatus(ctx: ReadContext, t: Text, quiet = false): { statuses: number[]; statusClass: string | null; length: number } | null {
  const m = /^(?:HTTP\s+)(\S+?)(?:\s+or\s+(\S+?))?(?=[\s,;:()]|$)/.exec(t.text) ?? /^(\d{3}|\dxx)(?:\s+or\s+(\d{3}))?(?=[\s,;:()]|$)/.exec(t.text);
  if (!m) return null;
  const statuses: number[] = [];
  let statusClass: string | null = null;
  for (const raw of [m[1], m[2]]) {
    if (!raw) continue;
    if (/^\dxx$/i.test(raw)) statusClass = raw.toLowerCase();
    else if (/^\d{3}$/.test(raw) && Number(raw) >= 100 && Number(raw) <= 599) statuses.push(Number(raw));
    else if (!quiet) report(ctx, "bad-status", spanOfText(ctx, t), { text: raw });
  }
  return { statuses, statusClass, length: m[0].length };
}

function isTextSpan(value: string): boolean {
  return !CODE.test(value) || value === "";
}

/** Parenthesis content: `text` pieces, `HTTP 400`, `texts: a, b`, `code X, text Y`, or a cause. */
function readParen(ctx: ReadContext, inner: Text, into: Draft): void {
  const codeIn = /code `([^`]*)`/.exec(inner.text);
  const textIn = /text `([^`]*)`/.exec(inner.text);
  if (codeIn) {
    into.code = codeIn[1] ?? "";
    if (textIn) into.texts.push(textIn[1] ?? "");
    const cause = inner.text.slice(0, codeIn.index).replace(/[:,\s]+$/, "");
    if (cause) into.causes.push(collapse(cause));
    return;
  }
  const texts = /^texts?:\s*(.*)$/.exec(inner.text);
  if (texts) {
    for (const m of (texts[1] ?? "").matchAll(/`([^`]*)`/g)) into.texts.push(m[1] ?? "");
    return;
  }
  for (const piece of splitTop(inner, (s, i) => (s[i] === ";" || s[i] === "," ? (s[i + 1] === " " ? 2 : 1) : 0))) {
    const status = readStatus(ctx, piece);
    if (status && status.length === piece.text.length) {
      pushAll(into.statuses, status.statuses);
      into.statusClass ??= status.statusClass;
      continue;
    }
    const only = /^`([^`]*)`$/.exec(piece.text);
    if (only && isTextSpan(only[1] ?? "")) into.texts.push(only[1] ?? "");
    else into.causes.push(collapse(piece.text));
  }
}

interface Draft {
  statuses: number[];
  statusClass: string | null;
  code: string | null;
  texts: string[];
  causes: string[];
}

/** One error item: status, code, texts and cause in the orders the spec writes them. */
function readItem(ctx: ReadContext, item: Text, shared: Shared): Draft {
  const d: Draft = { statuses: [], statusClass: null, code: null, texts: [], causes: [] };
  // "HTTP status **400**, empty code, message `Wrong group ID`": the bold marks and the word "status" off, each
  // replaced by as many spaces, so that every offset stays where it is in the file.
  const plain = item.text.replace(/\*\*/g, "  ").replace(/^(\s*HTTP) status(:?)(?=\s)/i, (_m, h: string, colon: string) => `${h}       ${colon ? " " : ""}`);
  let t = trimText({ text: plain, start: item.start });
  const take = (n: number) => {
    t = trimText(sliceText(t, n));
    const sep = /^[,:]\s*/.exec(t.text);
    if (sep) t = trimText(sliceText(t, sep[0].length));
  };
  for (let guard = 0; guard < 12 && t.text.length > 0; guard++) {
    const status = /^(HTTP\s+|\d)/.test(t.text) ? readStatus(ctx, t) : null;
    if (status) {
      pushAll(d.statuses, status.statuses);
      d.statusClass ??= status.statusClass;
      take(status.length);
      continue;
    }
    let m = /^empty code\b/.exec(t.text);
    if (m) {
      d.code = "";
      take(m[0].length);
      continue;
    }
    m = /^code `([^`]*)`/.exec(t.text) ?? (d.code === null && d.texts.length === 0 ? /^`([A-Za-z0-9_]*)`/.exec(t.text) : null);
    if (m && (m[0].startsWith("code") || !isTextSpan(m[1] ?? "x y"))) {
      d.code = m[1] ?? "";
      take(m[0].length);
      continue;
    }
    // Texts parted by commas, "or", or a developer's " / ".
    m = /^(?:text|with(?: one of:?)?|texts?:|message|msg)\s+((?:`[^`]*`(?:\s*,\s*(?:or\s+)?|\s+or\s+|\s+\/\s+)?)+)/.exec(t.text) ?? /^((?:`[^`]*`(?:\s*,\s*|\s+\/\s+)?)+)(?=$|\s*\(|\s*[,;])/.exec(t.text);
    if (m && [...(m[1] ?? "").matchAll(/`([^`]*)`/g)].every((x) => isTextSpan(x[1] ?? ""))) {
      for (const x of (m[1] ?? "").matchAll(/`([^`]*)`/g)) d.texts.push(x[1] ?? "");
      take(m[0].length);
      continue;
    }
    if (t.text.startsWith("(")) {
      const close = matchingParen(t.text);
      readParen(ctx, trimText(sliceText(t, 1, close)), d);
      take(close + 1);
      continue;
    }
    // Prose: a cause; a status inside it ("some errors come with HTTP 200") still counts.
    const inner = /\bHTTP\s+(\d{3})\b/.exec(t.text);
    if (inner) d.statuses.push(Number(inner[1]));
    d.causes.push(collapse(t.text.replace(/^(?:with\s+|for\s+)/, (w) => (w.startsWith("for") ? w : ""))));
    break;
  }
  if (d.statuses.length === 0 && d.statusClass === null) {
    d.statuses = [...shared.statuses];
    d.statusClass = shared.statusClass;
  }
  if (d.code === null) d.code = shared.code;
  return d;
}

function matchingParen(s: string): number {
  let depth = 0;
  let inCode = false;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "`") inCode = !inCode;
    if (inCode) continue;
    if (s[i] === "(") depth++;
    else if (s[i] === ")" && --depth === 0) return i;
  }
  return s.length;
}

function toErrors(ctx: ReadContext, d: Draft, at: Text): MethodError[] {
  const statuses = [...new Set(d.statuses)];
  const base = {
    status: statuses.length === 1 ? (statuses[0] ?? null) : null,
    statuses,
    statusClass: d.statusClass,
    statusFrom: statuses.length === 1 ? ("method" as const) : null,
    code: d.code,
    cause: d.causes.length > 0 ? d.causes.join("; ") : null,
    source: sourceOf(ctx, at),
  };
  if (d.texts.length === 0) return [{ ...base, text: null }];
  return d.texts.map((text) => ({ ...base, text }));
}

export interface ErrorReadResult {
  errors: MethodError[];
  others: Text[];
}

/** Reads an `Errors ...` / `Error ...` sentence run. */
export function readErrorSentence(ctx: ReadContext, t: Text): ErrorReadResult {
  const [first, ...rest] = sentences(t);
  const others: Text[] = [];
  const errors: MethodError[] = [];
  if (!first) return { errors, others };
  const body = trimText(sliceText(first, (/^Errors?\b[,:]?\s*/.exec(first.text)?.[0] ?? "").length));
  // A header before the first top-level colon carries what all items share ("HTTP 400, code `ERROR_CORE`").
  const parts = splitTop(body, (s, i) => (s[i] === ":" ? 1 : 0));
  let shared: Shared = { statuses: [], statusClass: null, code: null };
  let list = body;
  if (parts.length >= 2 && parts[0] && /^(HTTP\s+|\d{3}\b|\dxx\b)/.test(parts[0].text)) {
    const head = readItem(ctx, parts[0], shared);
    shared = { statuses: head.statuses, statusClass: head.statusClass, code: head.code };
    const colon = body.text.indexOf(":", parts[0].start - body.start + parts[0].text.length);
    list = trimText(sliceText(body, colon + 1));
  }
  let items = clauses(list);
  // "`A` (`a`), `B` (`b`)": one clause holding a comma list of coded errors.
  if (items.length === 1 && items[0]) {
    const pieces = splitTop(items[0], (s, i) => (s[i] === "," && s[i + 1] === " " ? 2 : 0));
    if (pieces.length > 1 && pieces.every((p) => /^`[A-Za-z0-9_]+`/.test(p.text))) items = pieces;
  }
  // "Errors: HTTP 400, code `0`, ...; code `100`, ...": the first item's status holds for the rest.
  const firstItem = items[0];
  if (shared.statuses.length === 0 && firstItem && /^HTTP\s+\S+,/.test(firstItem.text)) {
    const s = readStatus(ctx, firstItem, true);
    if (s) shared = { ...shared, statuses: s.statuses, statusClass: s.statusClass };
  }
  for (const item of items) pushAll(errors, toErrors(ctx, readItem(ctx, item, shared), item));
  for (const sentence of rest) {
    const statuses = /^Status(?:es)?\s+((?:\d{3}(?:\s*,\s*|\s+and\s+|\s+or\s+)?)+)$/.exec(sentence.text);
    if (statuses) {
      const list2 = [...(statuses[1] ?? "").matchAll(/\d{3}/g)].map((m) => Number(m[0]));
      for (const e of errors) {
        if (e.statuses.length === 0) {
          e.statuses = list2;
          e.status = list2.length === 1 ? (list2[0] ?? null) : null;
          e.statusFrom = e.status === null ? null : "method";
        }
      }
      continue;
    }
    others.push(sentence);
  }
  return { errors, others };
}
