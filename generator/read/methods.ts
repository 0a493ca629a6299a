import type { List, RootContent } from "mdast";
import type { Method, Resource, Statement, Version } from "../model/types.js";
import { type Section, type Text, listItemText, sliceText, textOf, trimText } from "../parse/markdown.js";
import { type ReadContext, addGap, areaGapSubject, collapse, notShownSubject, report, sentences, sourceOf, spanOfText, statement, unemphasisedNotShown } from "./inline.js";
import { pushAll } from "../util/arrays.js";
import type { State } from "./method-state.js";
import { newMethod, readHeader, readMethodBlock } from "./method-body.js";
/**
 * Reads an area of Endpoints (`### Tasks`, `### 3.0-only methods`, ...): one method per paragraph that starts
 * with its bold name, with the bullets, numbered lists and tables that follow it (spec-source/README.md#methods):
 *
 *     **tasks.task.getaccess**. Scope `task`. Any user.
 *     - `taskId`* integer. `users` array of user ids; default: the current user.
 *     - Response `result.allowedActions` (see Allowed actions).
 *     - Errors: HTTP 400, code `0`, text `wrong task id` (taskId of wrong type).
 */

export interface MethodSectionFragment {
  methods: Method[];
  /** Shapes a method section defines ("Reminder object: ..."). */
  shapes: Resource[];
  /** Methods the section only names. */
  named: Array<{ name: string; source: Method["source"] }>;
  notes: Statement[];
}

/**
 * "**name** (marker). " at the start of a paragraph: `[whole, name, marker]`, or null. The marker's parentheses may
 * hold code spans with parentheses in them. Scanned by hand: the regex it replaces nested quantifiers over the same
 * characters and took 64 s on a header with 22 unclosed code spans (issue 9).
 */
function readMethodHeader(text: string): [string, string, string | undefined] | null {
  if (!text.startsWith("**")) return null;
  const close = text.indexOf("**", 2);
  const name = text.slice(2, close);
  if (close < 0 || name.length === 0 || name.includes("*")) return null;
  // A method's name, not a bold label: a label has spaces (`**Value conventions**`), ends in a colon (`**Returns:**`,
  // `**Errors** (HTTP 400):`) or is one capitalised word (`**Note**`). Any other bold start is a method header, a
  // name the spec cannot spell included, so that its text never falls to the method before it.
  const bare = name.trim();
  if (/\s/.test(bare) || /:$/.test(bare) || (/^[A-Z][a-z]*$/.test(bare) && !METHOD_NAME.test(bare))) return null;
  if (!METHOD_NAME.test(bare) && /^\s*(?:\([^)]*\))?\s*:/.test(text.slice(close + 2))) return null;
  let at = close + 2;
  while (/\s/.test(text[at] ?? "")) at++;
  let marker: string | undefined;
  if (text[at] === "(") {
    // Up to the first `)` outside a code span; an opening `(` outside one means there is no marker.
    for (let i = at + 1; i < text.length; i++) {
      const c = text[i];
      if (c === "`") {
        const end = text.indexOf("`", i + 1);
        if (end >= 0) i = end;
      } else if (c === "(") break;
      else if (c === ")") {
        marker = text.slice(at + 1, i);
        at = i + 1;
        break;
      }
    }
  }
  while (/\s/.test(text[at] ?? "")) at++;
  if (text[at] === "." || text[at] === ":") at++;
  while (/\s/.test(text[at] ?? "")) at++;
  return [text.slice(0, at), name, marker];
}

/** A dotted method name as the spec writes them: `tasks.task.get`, `vote.AttachedVote.recall`, `sale.paysystem.*`. */
const METHOD_NAME = /^[a-z][A-Za-z0-9_-]*(?:\.(?:[A-Za-z0-9_-]+|\*))+$/;

/** A method's name in a heading (`#### tasks.task.get (3.0)`, `#### Get a Task v 3.0 tasks.task.get`). */
export interface HeadingMethod {
  name: string;
  /** The marker the bold form writes in parentheses: `3.0`, `legacy`, `deprecated…`, `synonym…`. */
  marker: string;
}

/**
 * The method a heading names, or null: the last dotted lower-case name in it (first part of two letters or more,
 * so that `e.g.` is none), in backticks or not. The version is the title's: `(3.0)`, `v 3.0`, `version 3.0`,
 * `(legacy)`; a `deprecated` word is the deprecation marker.
 */
export function methodInHeading(title: string): HeadingMethod | null {
  // A heading of more than a line's length names no method; the bound keeps the scan linear on hostile input.
  if (title.length > 300) return null;
  const names = [...title.matchAll(/(?<![\w.])([a-z][a-z0-9_]+(?:\.[A-Za-z0-9_]+)+)(?![\w.(])/g)];
  // The name outside parentheses: "task.comment.add (deprecated; use `tasks.task.chat.message.send`)" is the first.
  const outside = names.filter((n) => (title.slice(0, n.index).match(/\(/g)?.length ?? 0) <= (title.slice(0, n.index).match(/\)/g)?.length ?? 0));
  const last = outside[outside.length - 1] ?? names[names.length - 1];
  if (!last) return null;
  const rest = title.replace(last[0], " ");
  const paren = /\(([^)]*)\)/.exec(rest)?.[1]?.trim() ?? "";
  const marker = /^(?:3\.0|legacy)$/.test(paren) || /^(?:deprecated|synonyms?)\b/.test(paren)
    ? paren
    : /\b3\.0\b/.test(rest)
      ? "3.0"
      : /\blegacy\b/i.test(rest)
        ? "legacy"
        : /\bdeprecated\b/i.test(rest)
          ? "deprecated"
          : "";
  return { name: last[1] ?? "", marker };
}

/**
 * A method written as a heading: the heading is its header, and its text with every subsection's (`Method
 * Parameters`, `Error Handling`…) is read as the paragraphs after a bold header are.
 */
export function readMethodHeadingSection(ctx: ReadContext, section: Section, version: Version, area: string): MethodSectionFragment {
  const h = methodInHeading(section.title);
  const blocks: RootContent[] = [];
  /** The lists under an errors subsection (`Error Handling`, `Possible Error Codes`): their items are errors. */
  const errorLists = new Set<RootContent>();
  /** The paragraphs under a result subsection (`Response Handling`, `Returned Data`): each says the result. */
  const resultBlocks = new Set<RootContent>();
  /** The paragraphs under an errors subsection: one that opens with a status and a code is an error item. */
  const errorBlocks = new Set<RootContent>();
  const collect = (s: Section, under: "errors" | "result" | null) => {
    for (const b of s.blocks) {
      if (under === "errors" && b.type === "list") errorLists.add(b);
      if (under === "errors" && b.type === "paragraph") errorBlocks.add(b);
      if (under === "result" && b.type === "paragraph") resultBlocks.add(b);
    }
    pushAll(blocks, s.blocks);
    for (const c of s.children) collect(c, ERRORS_SUBSECTION.test(c.title.trim()) ? "errors" : RESULT_SUBSECTION.test(c.title.trim()) ? "result" : under);
  };
  collect(section, null);
  const found = h ? ctx.file.text.indexOf(h.name, section.start) : -1;
  const at: Text = { text: h?.name ?? "", start: found < 0 ? section.start : found };
  return readMethodSection(ctx, { ...section, title: area, blocks, children: [] }, version, h ? { name: h.name, marker: h.marker, at, errorLists, resultBlocks, errorBlocks } : undefined);
}

/** A method's subsection of its result, by its title. */
const RESULT_SUBSECTION = /^(?:response handling|returned data|response|result|returns|return value)$/i;

/** Read before a result subsection's own words: they are read as a `Result:` sentence. */
const RESULT_LABEL = "Result: ";

/** Read before an errors subsection's item in a paragraph of its own: it is read as an `Errors:` sentence. */
const ERRORS_LABEL = "Errors: ";
/**
 * An error item's opening: a status and then a code ("HTTP status: **400**, code `X`", "HTTP 403, `X`", "…, empty
 * code"), or "Some errors come with HTTP 200, …" (as an item of "Errors:" says it). A code alone ("Code `ERROR_CORE` is
 * the platform's generic code; …") or a status before words ("HTTP 200, `result` is `false` when …") opens no item.
 */
const ERROR_ITEM_OPENING = /^(?:HTTP(?: [Ss]tatus(?:es)?)?:?\s*\**[1-5]\d\d\**(?:\s*(?:,|or|and)\s*\**[1-5]\d\d\**)*\s*,\s*(?:[Ee]mpty code|[Cc]ode\s+`|`[A-Z][A-Z0-9_]*`)|(?:[Ss]ome|[Oo]ther) errors (?:come|are returned) with HTTP\s+[1-5]\d\d\b)/;

/** A method's subsection of errors, by its title. */
const ERRORS_SUBSECTION = /^(?:error handling|errors?|possible errors?|(?:possible )?error codes?)$/i;

export function readMethodSection(
  ctx: ReadContext,
  section: Section,
  version: Version,
  opening?: { name: string; marker: string; at: Text; errorLists?: ReadonlySet<RootContent>; resultBlocks?: ReadonlySet<RootContent>; errorBlocks?: ReadonlySet<RootContent> },
): MethodSectionFragment {
  const out: MethodSectionFragment = { methods: [], shapes: [], named: [], notes: [] };
  let st: State | null = null;
  // A shape is named after the area's words ("7.4 Calendar (legacy)" is Calendar): no numbering, no version mark.
  const shapeArea = section.title.replace(/^\d+(?:\.\d+)*\.?\s+/, "").replace(/\s*\((?:legacy|3\.0|v3)\)$/i, "");
  const finish = () => {
    if (!st) return;
    if (!st.hasScopeSentence && version === "legacy") {
      report(ctx, "missing-scope", { ...st.method.source, endLine: st.method.source.line, endColumn: st.method.source.column + st.method.name.length + 4 }, { name: st.method.name });
    }
    if (!st.hasScopeSentence) {
      ctx.gaps.push({
        subject: "Scope of the method",
        kind: "not-stated",
        appliesTo: [`method:${st.method.version}:${st.method.name}`],
        source: st.method.source,
      });
    }
    if (st.fieldListNotShown) for (const p of st.method.params) if (p.type.kind === "object") p.type.open = true;
    out.methods.push(st.method);
    pushAll(out.shapes, st.shapes);
    st = null;
    ctx.subject = undefined;
  };
  const open = (name: string, rawMarker: string, at: Text): State => {
    finish();
    const marker = collapse(rawMarker);
    const v: Version = /^3\.0$/.test(marker) ? "v3" : /^legacy$/.test(marker) ? "legacy" : version;
    const method = newMethod(ctx, name, v, section.title, at);
    ctx.subject = { method: method.name };
    const dep = /^deprecated(?:;\s*use `([^`]+)`)?/.exec(marker);
    if (dep) method.deprecated = { replacement: dep[1] ?? null, text: marker };
    const syn = /^synonyms? ((?:`[^`]+`(?:,\s*)?)+)/.exec(marker);
    if (syn) method.aliases = [...(syn[1] ?? "").matchAll(/`([^`]+)`/g)].map((x) => x[1] ?? "");
    const opened: State = {
      method,
      tableTarget: null,
      callForms: null,
      hasScopeSentence: false,
      afterScope: false,
      inHeader: true,
      shapeArea,
      shapes: [],
      paramIndex: new Map(),
      fieldListNotShown: false,
    };
    st = opened;
    return opened;
  };
  // A method written as a heading opens before its first block; its paragraphs are its header's sentences.
  if (opening) open(opening.name, opening.marker, opening.at);
  for (const block of section.blocks) {
    if (block.type === "paragraph") {
      const t = textOf(ctx.file, block);
      const header = readMethodHeader(t.text);
      if (header) {
        const opened = open(collapse(header[1] ?? ""), header[2] ?? "", sliceText(t, 2));
        readHeader(ctx, opened, trimText(sliceText(t, header[0].length)));
        opened.inHeader = false;
        continue;
      }
      if (/^\*\*/.test(t.text) && (!/^\*\*[^*]+\*\*/.test(t.text) || /^\*\*[^*]*?[a-z]\w*\.\w[^*]*\*\*/.test(t.text))) {
        // "**tasks.task.stopwatch. Scope ..." with the bold never closed, or a bold dotted name no header reads
        // ("**`sks.task.get** (3.0)", a stray backtick): no method of its own, and not the previous method's either
        // (its parameters would be reported as that method's duplicates, its names as that method's unplaced).
        finish();
        const head = sliceText(t, 0, Math.min(t.text.length, 60));
        report(ctx, "unreadable-method-header", spanOfText(ctx, head), { text: collapse(head.text) });
        out.notes.push(statement(ctx, t));
        continue;
      }
      // Under a method's own heading every paragraph is the method's; after a bold name one may speak of the area.
      if (opening && st) {
        // Under a `Response Handling` subsection a paragraph in its own words ("`boolean`.", "`{ID}`.") is the result.
        if (opening.resultBlocks?.has(block) && !/^(?:`?result\b|Result|Returns?|Response)\b|\bnot shown\b/i.test(t.text.replace(/^\*\*/, ""))) {
          readHeader(ctx, st, { text: `${RESULT_LABEL}${t.text}`, start: t.start - RESULT_LABEL.length });
          continue;
        }
        // Under an `Error Handling` subsection a paragraph that opens with a status or a code ("HTTP status: **400**,
        // code `ERROR_CORE`, with a text meaning …") is an error item, as after "Errors:"; a label ends in ":".
        if (opening.errorBlocks?.has(block) && ERROR_ITEM_OPENING.test(t.text) && !/:\s*$/.test(t.text)) {
          // "HTTP status:" says "HTTP": the rest of the word as spaces, so that every offset stays where it is.
          const item = t.text.replace(/^HTTP status(?:es)?:?(?=\s)/i, (w) => `HTTP${" ".repeat(w.length - 4)}`);
          readHeader(ctx, st, { text: `${ERRORS_LABEL}${item}`, start: t.start - ERRORS_LABEL.length });
          continue;
        }
        // Only what names its own subjects ("Errors of `a`, `b`: not shown", "Methods that are named …") is the area's.
        if (!readSectionParagraph(ctx, out, t, section, null, true)) readHeader(ctx, st, t);
        continue;
      }
      // Before the area's first method a paragraph is the area's: a gap, names, or a note of the area.
      if (!st) {
        if (!readSectionParagraph(ctx, out, t, section, null)) out.notes.push(statement(ctx, t));
        continue;
      }
      if (!readSectionParagraph(ctx, out, t, section, (st as State).method)) {
        readHeader(ctx, st, t);
        continue;
      }
      finish();
      continue;
    }
    if (!st) {
      if (block.type === "list" && readNamedList(ctx, out, block, section)) continue;
      // "> **Not shown:** the other 3.0 methods …" before the area's first method: the area's gap, as the same words
      // unquoted are. Any other quoted text stays a warning.
      if (block.type === "blockquote" && block.children.every((c) => c.type === "paragraph" && areaGapSubject(collapse(textOf(ctx.file, c).text)) !== null)) {
        for (const c of block.children) readSectionParagraph(ctx, out, textOf(ctx.file, c), section, null);
        continue;
      }
      out.notes.push(statement(ctx, textOf(ctx.file, block)));
      report(ctx, "unread-text", spanOfText(ctx, textOf(ctx.file, block)), { what: block.type, text: collapse(textOf(ctx.file, block).text).slice(0, 80) });
      continue;
    }
    const current = st as State;
    if (block.type === "list" && !current.errorList && opening?.errorLists?.has(block)) current.errorList = { statuses: [], code: null };
    readMethodBlock(ctx, current, block);
  }
  finish();
  return out;
}

/**
 * A list of method names alone, outside any method ("- `event.get`", "- `disk.*` methods"): methods the area only
 * names, as the sentence "Methods that are named but …: `x`, `y`." names them. Where the area's title or text says
 * their parameters and responses are not shown, that is their gap.
 */
function readNamedList(ctx: ReadContext, out: MethodSectionFragment, list: List, section: Section): boolean {
  const items = list.children.map((item) => listItemText(ctx.file, item));
  const names = items.map((t) => /^`([^`]+)`(?:\s+methods?)?\.?$/.exec(collapse(t.text))?.[1] ?? null);
  if (names.length === 0 || names.some((n) => n === null || !/^[a-z][\w.*/-]*$/i.test(n))) return false;
  const before = out.named.length;
  for (const [i, n] of names.entries()) {
    const t = items[i];
    if (!t || !n) continue;
    for (const name of expandNames(n)) out.named.push({ name, source: sourceOf(ctx, t) });
  }
  const said = [section.title, ...section.blocks.filter((b) => b.type === "paragraph").map((b) => textOf(ctx.file, b).text)].join(" ");
  if (/\bnot shown\b/i.test(said.replace(/\*\*/g, ""))) {
    const first = items[0];
    if (first) addGap(ctx, first, "Parameters and responses of the named methods", out.named.slice(before).map((n) => `method:legacy:${n.name}`));
  }
  return true;
}

/** Section-level paragraphs: "Errors of `a` and `b`: not shown.", "Methods that are named but ...: `x`, `y`." */
function readSectionParagraph(ctx: ReadContext, out: MethodSectionFragment, t: Text, section: Section, after: Method | null = null, named = false): boolean {
  const s = collapse(t.text);
  const errorsOf = /^Errors of ((?:`[^`]+`(?:\s*,\s*|\s+and\s+)?)+):\s*not shown/.exec(s);
  if (errorsOf) {
    const names = [...(errorsOf[1] ?? "").matchAll(/`([^`]+)`/g)].map((x) => x[1] ?? "");
    addGap(ctx, t, `Errors of ${names.join(", ")}`, names.map((n) => `method:legacy:${n}`));
    return true;
  }
  if (/^Methods that are named\b/.test(s)) {
    const [list, ...rest] = sentences(t);
    for (const span of list ? [...list.text.matchAll(/`([^`]+)`/g)] : []) {
      const at = sliceText(list ?? t, span.index ?? 0, (span.index ?? 0) + span[0].length);
      for (const name of expandNames(span[1] ?? "")) out.named.push({ name, source: sourceOf(ctx, at) });
    }
    for (const r of rest) {
      const subject = notShownSubject(collapse(r.text));
      if (subject !== null) addGap(ctx, r, `${subject} of the named methods`, out.named.map((n) => `method:legacy:${n.name}`));
    }
    out.notes.push(statement(ctx, t));
    return true;
  }
  // "The following methods are named, but their parameters and responses are not shown: `x`, `y`." names them and
  // says what is not shown of them in one sentence.
  // Without names of its own ("… are mentioned, but their parameters and responses are **not shown**:"), the list that
  // follows names them, and readNamedList gives them the gap.
  const namedBut = /^(?:The following )?methods (?:are|that are) (?:named|mentioned|listed),?\s*but (?:their|whose) ([^:]+?) (?:are|is) not (?:shown|described)(?: here)?\s*:/i.exec(unemphasisedNotShown(s));
  if (namedBut) {
    const from = out.named.length;
    for (const span of t.text.matchAll(/`([^`]+)`/g)) {
      const at = sliceText(t, span.index ?? 0, (span.index ?? 0) + span[0].length);
      for (const name of expandNames(span[1] ?? "")) out.named.push({ name, source: sourceOf(ctx, at) });
    }
    if (out.named.length > from) addGap(ctx, t, `${namedBut[1] ?? ""} of the named methods`, out.named.slice(from).map((n) => `method:legacy:${n.name}`));
    out.notes.push(statement(ctx, t));
    return true;
  }
  // A bold label other than "Not shown" ("**Note:** the response is not shown") keeps the sentence its method's.
  // "Response: not shown", "The full field list and the response are not shown", "Not shown: the response".
  const subject = areaGapSubject(s);
  if (subject !== null) {
    // Under a method's heading, only a gap that says it speaks of methods or areas ("Other 3.0 methods …") is the area's.
    if (named && !/\b(?:methods|areas?)\b|^Other\b/i.test(subject)) return false;
    // "Other 3.0 methods ...: not shown" speaks of the area; "Response: not shown" right after a method could be
    // that method's as well. The area's reading is taken, and said.
    if (after && !/\b(?:methods|areas?)\b|^Other\b/i.test(subject)) {
      report(ctx, "ambiguous-reading", spanOfText(ctx, t), {
        text: s.slice(0, 80),
        reading: `a gap of the area '${section.title}', not of the method '${after.name}' above it (write it in the method's paragraph or a bullet to make it the method's)`,
      });
    }
    addGap(ctx, t, subject, [`area:${section.title}`]);
    return true;
  }
  return false;
}

/** `sale.paysystem.add/update/delete/handler.*` names four methods; `disk.*` is a family. */
export function expandNames(raw: string): string[] {
  const m = /^(.*\.)([^.]*\/[^.]*(?:\..*)?)$/.exec(raw);
  if (!m) return [raw];
  const [head, tail] = [m[1] ?? "", m[2] ?? ""];
  const first = tail.split("/");
  return first.map((part) => `${head}${part}`);
}
