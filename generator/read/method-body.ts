import { METHOD_FORMS, readMethodForm, relabel } from "./forms.js";
import type { List, ListItem, RootContent, Table } from "mdast";
import type { Field, Method, Version } from "../model/types.js";
import { type Text, listItemText, sliceText, textOf, trimText } from "../parse/markdown.js";
import { readErrorSentence } from "./errors.js";
import {
  type ReadContext,
  clauses,
  collapse,
  place,
  report,
  sentences,
  sourceOf,
  spanOfText,
  statement,
} from "./inline.js";
import { readNameList, readParams } from "./params.js";
import { fillSources, objectDetails } from "./object-details.js";
import { isResultSentence, readResultAlternatives } from "./results.js";
import { tableRows } from "./tables.js";
import { pushAll } from "../util/arrays.js";
import { emptyMethod } from "../model/fragments.js";
import { type State, addParams, isErrorsStart, readApplicationContext } from "./method-state.js";
import { STATEFUL_FORMS, type Sentence } from "./method-forms.js";
import { isErrorTable, isLabelTable, readCallFormTable, readErrorTable, readParamTable, readResultTable, resultIsLabel } from "./method-tables.js";

/**
 * One method's text after its bold name or heading (spec-source/README.md#methods): its header's sentences, the
 * paragraphs, bullets, numbered lists, quotes and tables under it. Sentences go through the table of forms
 * (read/forms.ts, then read/method-forms.ts), tables through read/method-tables.ts; a sentence no row takes is a note
 * of the method. read/methods.ts finds the methods of a section and hands each its text here.
 */

export function newMethod(ctx: ReadContext, name: string, version: Version, area: string, at: Text): Method {
  return emptyMethod(name, version, area, sourceOf(ctx, at));
}

/** Classifies one sentence (or bullet) of a method and folds it into the method. */
function readMethodSentence(ctx: ReadContext, st: State, written: Text, whole: Text = written): void {
  const t = relabelled(delinked(unlabelled(written)));
  const s = collapse(t.text);
  const m = st.method;
  // Whether the sentence before this one was the scope: a role alone is who may call only right after it.
  const afterScope = st.afterScope;
  st.afterScope = false;
  // The table of sentence forms first (read/forms.ts, D30); the chain below is the forms not yet moved there.
  // A form that only adds words to a parameter's description places nothing (read/ledger.ts).
  let described = false;
  const formed = readMethodForm(m, s, {
    applicationContext: () => readApplicationContext(ctx, m, t),
    readFrom: (offset) => readMethodSentence(ctx, st, trimText(sliceText(t, offset))),
    errorsFollow: (statuses, code = null) => {
      st.errorStatuses = statuses;
      st.errorList = { statuses, code };
    },
    describe: (name, words) => {
      const target = st.paramIndex.get(name);
      if (!target) return false;
      target.description = collapse(`${target.description}${target.description ? "; " : ""}${words}`);
      // "`ORDER` format: `{field: ASC|DESC}`" after the table: the words say the object's shape, as in its row.
      if (target.type.kind === "object") target.type = fillSources(objectDetails(target.type, words), target.source);
      described = true;
      // "`FILTER` key prefixes:" with a table after it: the table is the parameter's, not new parameters.
      if (/:\s*$/.test(words)) st.describesNext = target;
      return true;
    },
    callFormsFollow: () => {
      st.callForms = t;
    },
    keepOrder: () => {
      m.constraints.push({ kind: "keep-order", params: m.params.map((p) => p.name), text: s, source: sourceOf(ctx, t) });
    },
    membersFollow: (name) => {
      const target = st.paramIndex.get(name);
      if (!target) return false;
      if (target.type.kind !== "object") target.type = { kind: "object", members: [] };
      st.tableTarget = target;
      return true;
    },
  });
  if (formed === "placed") {
    if (!described) place(ctx, t);
    ctx.trace?.(formedBy(s) ?? "", s);
    return;
  }
  // Then the forms that need the reader's state (the parameters so far, the result, the scope sentence before), in
  // order; a sentence no row takes is a note of the method.
  const x: Sentence = { ctx, st, m, t, s, whole, afterScope, again: (o) => readMethodSentence(ctx, st, o) };
  for (const row of STATEFUL_FORMS) {
    if (row.match(x) && row.read(x)) {
      ctx.trace?.(row.id, s);
      return;
    }
  }
  m.notes.push(statement(ctx, t));
}

/** The id of the row of forms.ts that read a sentence (for the trace of tests). */
function formedBy(s: string): string | null {
  return METHOD_FORMS.find((f) => f.match.test(s))?.id ?? null;
}


export function readHeader(ctx: ReadContext, st: State, t: Text): void {
  // An errors label holds for the list right after it, not past a paragraph.
  st.errorList = undefined;
  for (const whole of sentences(unlabelled(t))) {
    // "Scope `task` · any user": a middle dot parts the sentence as a full stop would.
    for (const sentence of dotted(whole)) readHeaderSentence(ctx, st, sentence);
  }
}

/** A sentence's parts between middle dots (` · `), as Texts. */
export function dotted(t: Text): Text[] {
  if (!t.text.includes(" · ")) return [t];
  const out: Text[] = [];
  let from = 0;
  for (let at = t.text.indexOf(" · "); at >= 0; at = t.text.indexOf(" · ", from)) {
    out.push(trimText(sliceText(t, from, at)));
    from = at + 3;
  }
  out.push(trimText(sliceText(t, from)));
  return out.filter((x) => x.text !== "");
}

function readHeaderSentence(ctx: ReadContext, st: State, sentence: Text): void {
  // "Scope `x`. Any user; data depends on rights: ..." keeps its own clauses together.
  // 3.0 dialect: "body `taskId` integer; `result.item` holds the task; includes `archiveLink` (...)".
  if (/^(?:body `|no parameters\b)/i.test(sentence.text)) {
    for (const clause of clauses(sentence)) readMethodSentence(ctx, st, clause);
    return;
  }
  // "`CALL_ID`* string; `USER_ID` integer": parameters run across clauses.
  readMethodSentence(ctx, st, sentence);
}

/**
 * Each cell of a label table read as the sentence "Label: cell". The label is put before the cell's text with the
 * start moved back by its length, so every offset inside the cell stays right (the label's own are not in the file).
 */
function readLabelTable(ctx: ReadContext, st: State, table: Table): void {
  const { h, rows } = tableRows(ctx, table);
  for (const cells of rows) {
    for (const [i, name] of h.names.entries()) {
      const cell = cells[i];
      if (!cell || !cell.text.trim()) continue;
      const label = `${name.charAt(0).toUpperCase()}${name.slice(1)}: `;
      readMethodSentence(ctx, st, { text: `${label}${cell.text}`, start: cell.start - label.length });
    }
  }
}

/**
 * A paragraph that starts with a bold label (`**Returns:** …`, `**Scope:** …`) read as the sentence without the
 * bold: the markers become spaces, so every offset stays where it was.
 */
function unlabelled(t: Text): Text {
  if (!t.text.startsWith("**")) return t;
  const close = t.text.indexOf("**", 2);
  if (close < 0 || close > 60 || t.text.slice(2, close).includes("`")) return t;
  return trimText({ text: `  ${t.text.slice(2, close)}  ${t.text.slice(close + 2)}`, start: t.start });
}

/** A sentence whose label is another author's (`resp:`, `who:`): the label the forms read, offsets of the rest kept. */
function relabelled(t: Text): Text {
  const r = relabel(t.text);
  return r ? { text: r[0], start: t.start + r[1] - (r[0].length - (t.text.length - r[1])) } : t;
}

/**
 * A sentence with its Markdown links read as their words: `[Task](#51-task)` is `Task`. The link's brackets and
 * target become spaces, so every offset of the words stays where it was.
 */
function delinked(t: Text): Text {
  if (!t.text.includes("](")) return t;
  return { text: t.text.replace(/\[([^\]]*)\]\(([^)\s]*)\)/g, (_all, words: string, target: string) => ` ${words}${" ".repeat(target.length + 3)}`), start: t.start };
}

export function readMethodBlock(ctx: ReadContext, st: State, block: RootContent): void {
  if (block.type === "blockquote") {
    // "> Scope: `task`" / "> Who can execute the method: any user": a quoted block holds sentences of the method.
    for (const child of block.children) {
      if (child.type === "paragraph") readHeader(ctx, st, textOf(ctx.file, child));
      else readMethodBlock(ctx, st, child);
    }
    return;
  }
  if (block.type === "list") {
    readMethodList(ctx, st, block);
    return;
  }
  if (block.type === "table") {
    const described = st.describesNext;
    if (described) {
      st.describesNext = undefined;
      // Its rows are words of the parameter (prefixes and their meanings), kept whole in its description.
      const { rows } = tableRows(ctx, block);
      const words = rows.map((cells) => cells.map((c) => collapse(c.text)).filter(Boolean).join(" — ")).join("; ");
      described.description = collapse(`${described.description} ${words}`);
      return;
    }
    if (isLabelTable(ctx, block)) {
      readLabelTable(ctx, st, block);
      return;
    }
    if (st.callForms) {
      readCallFormTable(ctx, st, block, st.callForms);
      st.callForms = null;
      return;
    }
    if (isErrorTable(ctx, block)) {
      readErrorTable(ctx, block, st.method, st.errorStatuses ?? [], st.errorList?.code ?? null);
      st.errorStatuses = undefined;
      st.errorList = undefined;
      return;
    }
    // `| Request contains | \`result\` |`: a row a condition and what `result` has then.
    if (readResultTable(ctx, st, block)) return;
    const fields = readParamTable(ctx, block, st.method);
    const target = st.tableTarget;
    if (target && target.type.kind === "object") {
      pushAll(target.type.members, fields);
      st.tableTarget = null;
    } else addParams(ctx, st, fields);
    return;
  }
  const t = textOf(ctx.file, block);
  report(ctx, "unread-text", spanOfText(ctx, t), { what: block.type, text: collapse(t.text).slice(0, 80) });
  st.method.notes.push(statement(ctx, t));
}

function readMethodList(ctx: ReadContext, st: State, list: List): void {
  const errorList = st.errorList;
  st.errorList = undefined;
  if (errorList && !list.ordered) {
    // The items of an errors label's list: each an error item as in an "Errors: a; b" sentence, where a first item
    // that opens with its status ("HTTP 400, empty code, …") gives it to the items that give none, as there.
    st.errorStatuses = undefined;
    let label = errorList;
    for (const [i, item] of list.children.entries()) {
      const t = listItemText(ctx.file, item);
      readErrorItem(ctx, st, t, label);
      const opening = i === 0 && label.statuses.length === 0 ? /^HTTP(?:\s+status)?:?\s*\**([1-5]\d\d)\**\s*,/i.exec(t.text) : null;
      if (opening) label = { ...label, statuses: [Number(opening[1])] };
    }
    return;
  }
  if (st.callForms && list.ordered) {
    const forms: string[][] = [];
    for (const item of list.children) {
      const t = listItemText(ctx.file, item);
      const r = readParams(ctx, t);
      for (const p of r.params) p.required = false;
      addParams(ctx, st, r.params);
      forms.push(r.params.map((p) => p.name));
    }
    st.method.constraints.push({
      kind: "call-forms",
      forms,
      text: collapse(st.callForms.text),
      source: sourceOf(ctx, st.callForms),
    });
    st.callForms = null;
    return;
  }
  // Items that each say what `result` has under a condition ("- When `A` is passed …, `result` contains `x` (…)",
  // "- Otherwise … `result.Z` (…) is returned"): one result, a union of the alternatives.
  const texts = list.children.map((item) => listItemText(ctx.file, item));
  if (texts.length >= 2 && texts.every((t) => /`result(?:`|\.[A-Za-z_])/.test(t.text)) && (!st.method.result || resultIsLabel(st.method.result))) {
    const alternatives = readResultAlternatives(ctx, texts.map((t) => ({ at: t, result: t.text, whole: t.text, condition: t.text.slice(0, Math.max(0, t.text.search(/`result(?:`|\.)/))) })));
    if (alternatives) {
      st.method.result = alternatives;
      for (const t of texts) place(ctx, t);
      return;
    }
  }
  for (const item of list.children) {
    const nested = item.children.filter((c): c is List => c.type === "list");
    if (nested.length > 0) {
      readNestedItem(ctx, st, item, nested);
      continue;
    }
    readBullet(ctx, st, listItemText(ctx.file, item));
  }
}

/** A bullet under an errors label: its errors, with the label's statuses and code where it gives none. */
function readErrorItem(ctx: ReadContext, st: State, t: Text, label: { statuses: number[]; code: string | null }): void {
  const r = readErrorSentence(ctx, t);
  for (const e of r.errors) {
    if (e.statuses.length === 0 && e.status === null && label.statuses.length > 0) {
      e.statuses = [...label.statuses];
      e.status = label.statuses.length === 1 ? (label.statuses[0] ?? null) : null;
      e.statusFrom = "method";
    }
    if (e.code === null && label.code !== null) e.code = label.code;
    st.method.errors.push(e);
  }
  for (const o of r.others) st.method.notes.push(statement(ctx, o));
  if (r.errors.length === 0) report(ctx, "unread-text", spanOfText(ctx, t), { what: "error item", text: collapse(t.text).slice(0, 80) });
}

/** One bullet of a method: its sentences, or the whole bullet where its sentences belong together. */
function readBullet(ctx: ReadContext, st: State, bullet: Text): void {
  // "- **Scope:** `task` · **Who can call:** any user": a middle dot parts a bullet of labels as it parts a sentence.
  const parts = /^\*\*[^*]+:\*\*/.test(bullet.text) ? dotted(bullet) : [bullet];
  if (parts.length > 1) {
    for (const part of parts) readBullet(ctx, st, part);
    return;
  }
  // "- **Scope:** `task`": a bold label is the sentence's start.
  const t = unlabelled(bullet);
  const s = collapse(t.text);
  // Whole bullets whose own sentences belong together.
  if (isErrorsStart(t)) {
    readMethodSentence(ctx, st, t, t);
    return;
  }
  if (isResultSentence(s) && !readNameList(t)) {
    const [first, ...rest] = sentences(t);
    if (first) readMethodSentence(ctx, st, /^With\b/.test(s) ? t : first);
    if (!/^With\b/.test(s)) for (const r of rest) readMethodSentence(ctx, st, r);
    return;
  }
  if (readNameList(t) || /^Optional:/.test(s)) {
    readMethodSentence(ctx, st, t);
    return;
  }
  // "`1bad`* integer": shaped like a parameter, but its name is not one.
  if (/^`[^`]*`\*?\s+(?:integer|number|string|boolean|object|array)\b/.test(s)) {
    report(ctx, "unreadable-parameter", spanOfText(ctx, t), { text: s.slice(0, 80) });
    st.method.notes.push(statement(ctx, t));
    return;
  }
  for (const sentence of sentences(t)) readMethodSentence(ctx, st, sentence);
}

/**
 * A bullet with bullets under it. "- `item`* object:" (or "object with members:") followed by nested bullets: the
 * nested bullets are the object's members, read by the same grammar, to any depth (spec-source/README.md#members).
 * Other nested bullets belong to the method as if they were not nested.
 */
function readNestedItem(ctx: ReadContext, st: State, item: ListItem, nested: List[]): void {
  const own = item.children.filter((c) => c.type !== "list");
  const first = own[0];
  const last = own[own.length - 1];
  const t = first && last ? textOf(ctx.file, { position: { start: first.position?.start ?? { offset: 0 }, end: last.position?.end ?? { offset: 0 } } }) : null;
  const before = st.method.params.length;
  if (t) readBullet(ctx, st, t);
  const added = st.method.params.slice(before);
  const target = added[added.length - 1];
  if (target && target.type.kind === "object" && t && /:$/.test(collapse(t.text))) {
    st.tableTarget = null;
    for (const list of nested) pushAll(target.type.members, readMemberBullets(ctx, list));
    return;
  }
  for (const list of nested) readMethodList(ctx, st, list);
}

/** The members of an object as nested bullets; a member that is itself an object may have bullets of its own. */
function readMemberBullets(ctx: ReadContext, list: List): Field[] {
  const out: Field[] = [];
  for (const item of list.children) {
    const own = item.children.filter((c) => c.type !== "list");
    const first = own[0];
    const last = own[own.length - 1];
    if (!first || !last) continue;
    const t = textOf(ctx.file, { position: { start: first.position?.start ?? { offset: 0 }, end: last.position?.end ?? { offset: 0 } } });
    const r = readParams(ctx, t);
    for (const o of r.others) report(ctx, "unread-text", spanOfText(ctx, o), { what: "member bullet", text: collapse(o.text).slice(0, 80) });
    const target = r.params[r.params.length - 1];
    const deeper = item.children.filter((c): c is List => c.type === "list");
    if (target && target.type.kind === "object") for (const l of deeper) pushAll(target.type.members, readMemberBullets(ctx, l));
    else for (const l of deeper) report(ctx, "unread-text", spanOfText(ctx, textOf(ctx.file, l)), { what: "nested list", text: collapse(textOf(ctx.file, l).text).slice(0, 80) });
    pushAll(out, r.params);
  }
  return out;
}

