import { METHOD_FORMS, accessWho, readMethodForm, relabel } from "./forms.js";
import type { List, ListItem, RootContent, Table } from "mdast";
import type { Constraint, Field, Method, Resource, ResultSpec, Statement, Version } from "../model/types.js";
import { type Section, type Text, listItemText, sliceText, textOf, trimText } from "../parse/markdown.js";
import { readErrorSentence } from "./errors.js";
import { errorTrigger } from "./triggers.js";
import {
  NOT_SHOWN,
  type ReadContext,
  addGap,
  clauses,
  collapse,
  refsOf,
  place,
  report,
  sentences,
  sourceOf,
  spanOfText,
  statement,
} from "./inline.js";
import { fieldColumns } from "./facts.js";
import { fillSources, objectDetails, paramFromRow, readNameList, readParams } from "./params.js";
import { isResultSentence, readResultAlternatives, readResultSentence } from "./results.js";
import { ERROR_COLUMNS, errorWords, headerIndex, pascal, readCodeCell, readCodeTextCell, tableRows, warnErrorColumns } from "./tables.js";
import { field } from "./types.js";
import { firstParenGroup, namedParenGroups } from "../util/parens.js";
import { pushAll } from "../util/arrays.js";

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

export { emptyMethod } from "../model/fragments.js";
import { emptyMethod } from "../model/fragments.js";

function newMethod(ctx: ReadContext, name: string, version: Version, area: string, at: Text): Method {
  return emptyMethod(name, version, area, sourceOf(ctx, at));
}

const ACCESS = /^(?:[Aa]ny user|[Aa]dmin(?:istrator)?\b|CRM admin(?:istrator)?\b|[Uu]sers (?:with|w\/)|Only )/;
/** A role alone, as who may call: "Author of the message", "The owner of the group or a moderator". */
const ROLE_WORD = String.raw`(?:author|owner|creator|member|participant|moderator|responsible person|assignee)(?: of (?:the |an? |this )?[a-z]+(?: [a-z]+)?(?: (?:or|and) [a-z]+)?)?`;
const ROLE = new RegExp(String.raw`^(?:the |an? )?${ROLE_WORD}(?:,? (?:or|and) (?:the |an? )?${ROLE_WORD})?\.?$`, "i");

interface State {
  method: Method;
  /** A parameter whose members a following table lists ("`settings`* object:"). */
  tableTarget: Field | null;
  /** "Three call forms:" waits for its numbered list. */
  callForms: Text | null;
  hasScopeSentence: boolean;
  /** The last sentence read was the scope's ("Scope `im`. Author of the message."). */
  afterScope: boolean;
  inHeader: boolean;
  shapeArea: string;
  shapes: Resource[];
  /** The method's parameters by name, kept in step with `method.params`. */
  paramIndex: Map<string, Field>;
  /** "Full field list ...: not shown": the object parameters may have more members than listed. */
  fieldListNotShown: boolean;
  /** "Errors (HTTP 400):": the next table is the errors; its rows take these statuses where it has no column. */
  errorStatuses?: number[];
  /** "**Errors** (HTTP 400, code `X`):": the next list's items are errors; they take this code where they give none. */
  errorList?: { statuses: number[]; code: string | null };
  /** "`FILTER` key prefixes:": the next table describes this parameter (its rows join its description). */
  describesNext?: Field;
}

/** "Errors ..." but not "Error codes other than ...: not shown". */
function isErrorsStart(t: Text): boolean {
  if (!/^Errors?\b/.test(t.text)) return false;
  const first = sentences(t)[0];
  return !(first && NOT_SHOWN.test(collapse(first.text)));
}

export { APP_CONTEXT_CAUSE } from "../model/fragments.js";
import { APP_CONTEXT_CAUSE } from "../model/fragments.js";

/** "Application context only (else HTTP 403 `WRONG_AUTH_TYPE`)": the flag, and the error it names. */
function readApplicationContext(ctx: ReadContext, m: Method, t: Text): void {
  m.applicationContextOnly = true;
  const code = /`(WRONG_AUTH_TYPE)`/.exec(t.text)?.[1];
  if (!code) return;
  const status = /\bHTTP (\d{3})\b/.exec(t.text);
  m.errors.push({
    status: status ? Number(status[1]) : null,
    statuses: status ? [Number(status[1])] : [],
    statusClass: null,
    statusFrom: status ? "method" : null,
    code,
    text: null,
    cause: APP_CONTEXT_CAUSE,
    source: sourceOf(ctx, t),
  });
}

function constraintFrom(ctx: ReadContext, t: Text): Constraint | null {
  const m = /at least one of ((?:`[^`]+`(?:\s*,\s*|\s+and\s+|\s+or\s+)?)+)/i.exec(t.text);
  if (!m) return null;
  // Names the method does not (yet) have stay in: the emitters keep only those that are parameters.
  const params = [...(m[1] ?? "").matchAll(/`([^`]+)`/g)].map((x) => x[1] ?? "");
  return { kind: "at-least-one", params, text: collapse(t.text), source: sourceOf(ctx, t) };
}

function addParams(ctx: ReadContext, st: State, params: Field[]): void {
  // A map, not a search of the list: a table of 100,000 rows must read in linear time (issue 9).
  if (st.paramIndex.size !== st.method.params.length) st.paramIndex = new Map(st.method.params.map((q) => [q.name, q]));
  for (const p of params) {
    const existing = st.paramIndex.get(p.name);
    if (existing) {
      const at = { ...p.source, endLine: p.source.line, endColumn: p.source.column + p.name.length + 2 };
      report(ctx, "duplicate-parameter", at, { name: p.name, method: st.method.name }, {
        line: existing.source.line,
        column: existing.source.column,
        message: "first given",
      });
      continue;
    }
    st.method.params.push(p);
    st.paramIndex.set(p.name, p);
  }
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
  const x: Sentence = { ctx, st, m, t, s, whole, afterScope };
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

/** A sentence of a method as the stateful forms see it. */
interface Sentence {
  ctx: ReadContext;
  st: State;
  m: Method;
  /** The sentence with its labels and links off, with its positions; `s` the same with its spaces collapsed. */
  t: Text;
  s: string;
  /** The paragraph or item the sentence came from: an errors sentence reads on over all of it. */
  whole: Text;
  /** The sentence before this one was the scope. */
  afterScope: boolean;
}

/**
 * A sentence form that needs the reader's state: the method's parameters and result so far, positions, the table
 * that follows (issue 27: the method-sentence chain as a table). `match` says whether the row applies; `read` folds
 * the sentence into the method and may still decline it (false: the next row is tried). `doc` is the row of
 * spec-source/README.md's table of method forms; `doc.before` the sentences of the method the example needs first.
 */
export interface StatefulForm {
  id: string;
  match: (x: Sentence) => boolean;
  read: (x: Sentence) => boolean;
  doc: { example: string; fact: string; before?: string };
}

/** "Reminder object: …", "A reminder object has `…`", "Reminder obj:": the shape's word and where its members start. */
function shapeOf(x: Sentence): { word: string; at: number; tableFollows: boolean } | null {
  const labelled = /^([A-Z][a-z]+) obj(?:ect|\.)?:/.exec(x.s);
  const shape = labelled ?? /^An? ([a-z]+) object has `/.exec(x.s);
  if (!shape) return null;
  const at = labelled ? x.t.text.indexOf(":") + 1 : x.t.text.indexOf(" has ") + 5;
  return { word: shape[1] ?? "", at, tableFollows: !trimText(sliceText(x.t, at)).text };
}

/** "Filter object:" and a table: the method's own object parameter of that name, whose members the table lists. */
function ownObjectOf(x: Sentence): Field | undefined {
  const shape = shapeOf(x);
  return shape?.tableFollows ? x.m.params.find((p) => p.name.toLowerCase() === shape.word.toLowerCase() && p.type.kind === "object") : undefined;
}

const ORDERED = /^Parameters\s+((?:`[^`]+`\s*(?:\([^)]*\))?(?:\s*,\s*|\s+and\s+)?)+);?\s*(.*)$/;
const SAMPLES = /^Samples also pass `([A-Za-z_]\w*)` (?:with|w\/) (?:the )?members? ((?:`[^`]+`(?:\s*,\s*|\s+and\s+)?)+)/;
const OFFSET = /^Offset `([A-Za-z_]\w*)`$/;
const BODY_OBJECT = /^body `([A-Za-z_]\w*)` object with (.*)$/;

/** "includes `name` (words)" after the result: a member the result also has. */
function includesOf(s: string): { name: string; paren: string } | null {
  const group = s.startsWith("includes `") ? namedParenGroups(s)[0] : undefined;
  return group && /^includes\s*$/.test(s.slice(0, group.start)) ? { name: group.name, paren: group.paren } : null;
}

/**
 * The table of method forms as spec-source/README.md shows it, written from both tables (issue 27): forms.ts's rows,
 * read first, then the stateful rows here. The README's part between its `method-forms` markers is this text, and
 * `test/read/forms-table.test.ts` says when it is not (`node test/support/forms-table.mjs --write` writes it after
 * `npm run build`).
 */
export function methodFormsTable(): string {
  const cell = (s: string) => s.replace(/\|/g, "\\|");
  const rows = [...METHOD_FORMS, ...STATEFUL_FORMS].map((f) => `| \`${f.id}\` | ${cell(f.doc.example)} | ${cell(f.doc.fact)} |`);
  return ["| Row | Example | Fact |", "|---|---|---|", ...rows].join("\n");
}

export const STATEFUL_FORMS: readonly StatefulForm[] = [
  {
    id: "scope",
    match: (x) => /^Scopes?\b/.test(x.s),
    read: ({ ctx, st, m, t, s }) => {
      place(ctx, t);
      st.hasScopeSentence = true;
      st.afterScope = true;
      if (/^Scopes?:\s*base\b/i.test(s)) m.scopes = ["base"];
      else m.scopes = refsOf(t);
      const note = firstParenGroup(s);
      if (note) m.scopeNote = collapse(note.inner);
      return true;
    },
    doc: { example: "Scope `task` (also `tasks_extended`).", fact: "`scopes`, and `scopeNote` from the parenthesis; `Scope: base` is `base`" },
  },
  {
    id: "errors",
    match: (x) => isErrorsStart(x.t),
    read: ({ ctx, st, m, whole }) => {
      const r = readErrorSentence(ctx, whole);
      pushAll(m.errors, r.errors);
      for (const o of r.others) readMethodSentence(ctx, st, o);
      return true;
    },
    doc: { example: "Errors: HTTP 400, code `0`, text `wrong task id` (taskId of wrong type).", fact: "`errors` (read/errors.ts), the rest of the sentence read on" },
  },
  {
    id: "not-shown",
    match: (x) => NOT_SHOWN.test(x.s),
    read: ({ ctx, st, m, t, s }) => {
      // "Response: not shown", or with the label first, "Not shown: the full field list and the response".
      // "The full field list and the response are not shown": the verb is no part of what is not shown.
      const before = (NOT_SHOWN.exec(s)?.[1] ?? s).trim().replace(/\s+(?:are|is)$/i, "");
      const subject = before || (NOT_SHOWN.exec(s)?.[2] ?? "").replace(/^\s*[:—–-]\s*/, "").replace(/\.$/, "").trim();
      // Each thing the sentence says is not shown, without its article ("the full field list and the response").
      const things = subject.split(/\s*,\s*|\s+and\s+|\s*\+\s*/).map((y) => y.replace(/^(?:the|an?)\s+/i, "").toLowerCase());
      const targets = refsOf(t).filter((r) => m.params.some((p) => p.name === r));
      addGap(ctx, t, subject, [`method:${m.version}:${m.name}`, ...targets.map((p) => `param:${m.version}:${m.name}:${p}`)]);
      if ((/^(Full field list and )?response\b|^Response\b|^Shape of the response\b/i.test(subject) || things.some((y) => /^(?:response|shape of the response)$/.test(y))) && !m.result) {
        m.result = { type: { kind: "unknown", note: "not shown" }, key: null, description: s, empty: [], source: sourceOf(ctx, t) };
      }
      // Applied when the method ends: the object parameters it speaks of may come after this sentence.
      if (/^Full field list\b/i.test(subject) || things.includes("full field list")) st.fieldListNotShown = true;
      return true;
    },
    doc: { example: "Response: not shown.", fact: "a known gap of the method (and of the parameters it names); a response not shown is a result of unknown type" },
  },
  {
    // "Author of the message." in the sentence right after the scope, before any parameter: a role alone, the only
    // words that say who may call (an update by another author wrote it so, and it was the method's description).
    id: "who-may-call-bare",
    match: (x) => ACCESS.test(x.s) || (x.afterScope && !x.m.access && x.m.params.length === 0 && ROLE.test(x.s)),
    read: ({ ctx, m, t, s }) => {
      place(ctx, t);
      m.access = { who: accessWho(s), text: s };
      if (/application context only/i.test(s)) readApplicationContext(ctx, m, t);
      return true;
    },
    doc: { example: "Any user.", fact: "`access`: \"Any user\", \"Administrator\", \"Users with …\", \"Only …\", or a role alone right after the scope" },
  },
  {
    id: "optional-params",
    match: (x) => /^Optional:\s*/.test(x.s),
    read: ({ ctx, st, t }) => {
      const prefix = /^Optional:\s*/.exec(t.text)?.[0].length ?? 0;
      const r = readParams(ctx, sliceText(t, prefix), { optional: true });
      addParams(ctx, st, r.params);
      for (const o of r.others) readMethodSentence(ctx, st, o);
      return true;
    },
    doc: { example: "Optional: `limit` integer.", fact: "parameters, none required" },
  },
  {
    id: "parameters-in-order",
    match: (x) => ORDERED.test(x.s),
    read: ({ ctx, st, m, t, s }) => {
      const order = ORDERED.exec(s);
      const list = trimText(sliceText(t, "Parameters ".length, "Parameters ".length + (order?.[1] ?? "").length));
      const r = readParams(ctx, list);
      addParams(ctx, st, r.params);
      if (/\border\b[^.]*\bkept\b/.test(s)) m.constraints.push({ kind: "keep-order", params: r.params.map((p) => p.name), text: s, source: sourceOf(ctx, t) });
      return true;
    },
    doc: { example: "Parameters `CODE`, `HANDLER`; their order is kept.", fact: "parameters; \"order … kept\" a `keep-order` constraint" },
  },
  {
    id: "parameters-heading",
    match: (x) => /^Parameters:?$/.test(x.s),
    read: () => true,
    doc: { example: "Parameters:", fact: "none: the list or table that follows is the parameters" },
  },
  {
    id: "samples-also-pass",
    match: (x) => SAMPLES.test(x.s),
    read: ({ ctx, st, t, s }) => {
      const samples = SAMPLES.exec(s);
      const members = [...(samples?.[2] ?? "").matchAll(/`([^`]+)`/g)].map((y) => field({ name: y[1] ?? "", type: { kind: "unknown" }, description: "", source: sourceOf(ctx, t) }));
      addParams(ctx, st, [field({ name: samples?.[1] ?? "", type: { kind: "object", members, open: true }, description: s, source: sourceOf(ctx, t) })]);
      return true;
    },
    doc: { example: "Samples also pass `auth` with members `access_token` and `domain`.", fact: "an open object parameter with those members" },
  },
  {
    id: "result-includes",
    match: (x) => !!x.m.result && includesOf(x.s) !== null,
    read: ({ ctx, m, t, s }) => {
      const includes = includesOf(s);
      if (!includes || !m.result) return false;
      const member = field({ name: includes.name, type: { kind: "primitive", type: "string" }, description: collapse(includes.paren), source: sourceOf(ctx, t) });
      const prev = m.result.type;
      m.result.type =
        prev.kind === "unresolved" && (prev.by === "title" || prev.by === "returned-by")
          ? { ...prev, with: [...(prev.with ?? []), member] }
          : prev.kind === "object"
            ? { ...prev, members: [...prev.members, member] }
            : prev;
      m.result.description = collapse(`${m.result.description}; ${s}`);
      return true;
    },
    doc: { example: "includes `archiveLink` (link to an archive of the files).", before: "body `taskId` integer; `result.item` holds the task;", fact: "a string member of the result" },
  },
  {
    id: "offset",
    match: (x) => OFFSET.test(x.s),
    read: ({ ctx, st, t, s }) => {
      addParams(ctx, st, [field({ name: OFFSET.exec(s)?.[1] ?? "", type: { kind: "unknown" }, description: "offset", source: sourceOf(ctx, t) })]);
      return true;
    },
    doc: { example: "Offset `start`", fact: "an offset parameter" },
  },
  {
    id: "empty-result",
    match: (x) => !!x.m.result && /\bempty (array|object)\b/.test(x.s),
    read: ({ m, s }) => {
      if (!m.result) return false;
      m.result.empty.push(s);
      if (m.result.key && new RegExp(`\`${m.result.key}\` is an empty array`).test(s)) m.result.mayBeEmptyArray = true;
      return true;
    },
    doc: { example: "With no tasks, `tasks` is an empty array.", before: "Response `result.tasks` (see Task).", fact: "when the result is empty (`empty`, `mayBeEmptyArray`)" },
  },
  {
    id: "idempotency-key",
    match: (x) => /^header `Idempotency-Key` honou?red/i.test(x.s),
    read: ({ m }) => {
      m.idempotencyKey = true;
      return true;
    },
    doc: { example: "header `Idempotency-Key` honoured.", fact: "`idempotencyKey`" },
  },
  {
    id: "body-object",
    match: (x) => BODY_OBJECT.test(x.s),
    read: ({ ctx, st, t, s }) => {
      const members = readParams(ctx, trimText(sliceText(t, t.text.indexOf(" with ") + 6))).params;
      addParams(ctx, st, [field({ name: BODY_OBJECT.exec(s)?.[1] ?? "", type: { kind: "object", members }, description: "", source: sourceOf(ctx, t) })]);
      return true;
    },
    doc: { example: "body `fields` object with `title`* string", fact: "an object parameter with those members" },
  },
  {
    id: "body-params",
    match: (x) => /^body `/.test(x.s),
    read: ({ ctx, st, t }) => {
      addParams(ctx, st, readParams(ctx, trimText(sliceText(t, 5))).params);
      return true;
    },
    doc: { example: "body `taskId`* integer", fact: "parameters" },
  },
  {
    id: "result",
    match: (x) => isResultSentence(x.s),
    read: ({ ctx, m, t, s }) => {
      const result = readResultSentence(ctx, t);
      if (result) {
        if (m.result && m.result.type.kind !== "unknown") m.result.description = collapse(`${m.result.description} ${s}`);
        else m.result = result;
        return true;
      }
      if (!/^Returns\b/.test(s)) return false;
      m.description = collapse(`${m.description} ${s}`);
      return true;
    },
    doc: { example: "Response `result.task` (see Task).", fact: "`result` (read/results.ts); a \"Returns …\" it cannot type is the description" },
  },
  {
    id: "at-least-one",
    match: (x) => /\bat least one of\b/i.test(x.s) && !readNameList(x.t),
    read: ({ ctx, m, t }) => {
      const c = constraintFrom(ctx, t);
      if (!c) return false;
      m.constraints.push(c);
      return true;
    },
    doc: { example: "At least one of `USER_ID` and `USER_PHONE_INNER` is required.", fact: "an `at-least-one` constraint" },
  },
  {
    id: "parameter-list",
    match: (x) => readNameList(x.t) !== null,
    read: ({ ctx, st, m, t }) => {
      const r = readParams(ctx, t);
      addParams(ctx, st, r.params);
      const objectParam = r.params[r.params.length - 1];
      if (objectParam && objectParam.type.kind === "object" && /:\s*$/.test(t.text)) st.tableTarget = objectParam;
      for (const o of r.others) {
        const c = constraintFrom(ctx, o);
        if (c) m.constraints.push(c);
        else readMethodSentence(ctx, st, o);
      }
      return true;
    },
    doc: { example: "`taskId`* integer. `users` array of user ids; default: the current user.", fact: "parameters (read/params.ts); constraints among the sentences after them" },
  },
  {
    id: "object-members",
    match: (x) => ownObjectOf(x) !== undefined,
    read: (x) => {
      const own = ownObjectOf(x);
      if (!own) return false;
      x.st.tableTarget = own;
      place(x.ctx, x.t);
      return true;
    },
    doc: { example: "Filter object:", before: "`filter` object.", fact: "the table that follows lists the members of the method's own object parameter of that name" },
  },
  {
    // "Reminder object:" and a table is a shape of its own only beside the method's parameters: before them the table
    // may be the parameters themselves ("Request object:"), and a request, response or result is no shape.
    id: "shape",
    match: (x) => {
      const shape = shapeOf(x);
      return !!shape && (!shape.tableFollows || (x.m.params.length > 0 && !/^(?:request|response|result|return|error|body)$/i.test(shape.word)));
    },
    read: (x) => {
      const shape = shapeOf(x);
      if (!shape) return false;
      const { ctx, st, t, s } = x;
      const shapeText = trimText(sliceText(t, shape.at));
      const members = shapeText.text ? readParams(ctx, shapeText).params : [];
      const type: Field["type"] = { kind: "object", members: members.map((p) => ({ ...p, required: false })) };
      const title = `${shape.word.charAt(0).toUpperCase()}${shape.word.slice(1)}`;
      st.shapes.push({ name: pascal(`${st.shapeArea} ${title}`), title: `${title} object`, description: s, returnedBy: [], links: [], type, typingRules: [], notes: [], source: sourceOf(ctx, t) });
      // The table after "Reminder object:" lists the shape's members, not the method's parameters.
      if (!shapeText.text) st.tableTarget = { name: title, type, required: false, nullable: false, description: "", source: sourceOf(ctx, t) };
      return true;
    },
    doc: { example: "Reminder object: `type` string, `count` integer.", fact: "a resource of its own (\"A reminder object has `…`\", \"Reminder obj:\" and a table)" },
  },
  {
    id: "header-description",
    match: (x) => x.st.inHeader && x.m.params.length === 0 && !x.m.result,
    read: ({ m, s }) => {
      m.description = collapse(`${m.description} ${s}`);
      return true;
    },
    doc: { example: "Unpins the task for the caller.", fact: "the description: a sentence of the header before any parameter or result" },
  },
];

function readHeader(ctx: ReadContext, st: State, t: Text): void {
  // An errors label holds for the list right after it, not past a paragraph.
  st.errorList = undefined;
  for (const whole of sentences(unlabelled(t))) {
    // "Scope `task` · any user": a middle dot parts the sentence as a full stop would.
    for (const sentence of dotted(whole)) readHeaderSentence(ctx, st, sentence);
  }
}

/** A sentence's parts between middle dots (` · `), as Texts. */
function dotted(t: Text): Text[] {
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
 * A table of parameters or of an object's members: columns found by header synonyms (generator/read/facts.ts). A
 * Meaning cell's "at least one of" clause is the method's constraint, as in a bullet.
 */
function readParamTable(ctx: ReadContext, table: Table, method: Method): Field[] {
  const cols = fieldColumns(ctx, table);
  const { rows } = tableRows(ctx, table);
  const out: Field[] = [];
  for (const cells of rows) {
    const others: Text[] = [];
    // `| header | \`Idempotency-Key\` | honored |`: the header the method honours, no parameter of its body.
    const location = cols.location === null ? "" : collapse(cells[cols.location]?.text ?? "").toLowerCase();
    if (location === "header") {
      // Any other header is no fact of the model: its row stays unplaced, and the ledger says so.
      const nameCell = cells[cols.name];
      if (nameCell && /^`?Idempotency-Key`?$/i.test(collapse(nameCell.text))) {
        method.idempotencyKey = true;
        place(ctx, nameCell);
      }
      continue;
    }
    const p = paramFromRow(ctx, cols, cells, others);
    if (p) out.push(p);
    for (const o of others) {
      const c = constraintFrom(ctx, o);
      if (c) method.constraints.push(c);
    }
  }
  return out;
}

/** `| Status | Code | Text |` tables of a method's errors (the contract's second form). */
function readErrorTable(ctx: ReadContext, table: Table, method: Method, labelled: number[] = [], labelCode: string | null = null): void {
  const { h, rows } = tableRows(ctx, table);
  warnErrorColumns(ctx, table, h);
  // "not shown" in Code cells is one known gap of the method.
  let notShownAt: Text | undefined;
  /** The statuses of the row above: a row "others: …" with none has them, as "…; others for …" has in a sentence. */
  let above: number[] = [];
  for (const cells of rows) {
    const cell = (re: RegExp) => {
      const i = h.find(re);
      return i === null ? "" : collapse(cells[i]?.text ?? "");
    };
    const statusText = cell(ERROR_COLUMNS.status).replace(/\*\*/g, "");
    const status = /^\d{3}$/.test(statusText) ? Number(statusText) : null;
    if (statusText && status === null && !/^\dxx$/i.test(statusText)) {
      report(ctx, "bad-status", spanOfText(ctx, cells[h.find(ERROR_COLUMNS.status) ?? 0] ?? { text: "", start: 0 }), { text: statusText });
    }
    // A `Code / message` column holds both: "code `X`, text `Y`" (a blank cell gives neither).
    const inWords = h.find(ERROR_COLUMNS.code) === null && h.find(ERROR_COLUMNS.codeText) === null;
    const both = h.find(ERROR_COLUMNS.code) === null ? readCodeTextCell(cell(inWords ? ERROR_COLUMNS.cause : ERROR_COLUMNS.codeText)) : null;
    const codeAt = h.find(ERROR_COLUMNS.code) ?? h.find(ERROR_COLUMNS.codeText);
    const code = readCodeCell(both ? (both.code !== null ? `\`${both.code}\`` : "") : cell(ERROR_COLUMNS.code));
    const codeCell = codeAt === null ? undefined : cells[codeAt];
    if (code.unread && codeCell) report(ctx, "unread-text", spanOfText(ctx, codeCell), { what: "error code", text: code.words.slice(0, 80) });
    if (code.notShown && codeCell && !notShownAt) {
      notShownAt = codeCell;
      addGap(ctx, codeCell, "Error codes", [`method:${method.version}:${method.name}`]);
    }
    const words = errorWords(cell);
    const text = words.text.replace(/^`|`$/g, "") || (both?.text ?? "");
    // "A required field is missing, or the pay system is not found: code `X`, text `Y`": the words before the code.
    if (inWords && both?.code != null) words.cause = words.cause.replace(/[:;,]?\s*code\s+`[^`]*`.*$/i, "").trim();
    const cause = words.cause || (code.unread ? "" : code.words);
    // Statuses the label before the table gave ("Errors (HTTP 400):"), where the table has no status column.
    const own = status ?? code.status;
    const others = own === null && !statusText && code.code === null && /^others?\b|^other errors\b/i.test(words.cause || text) && !/\b[1-5]\d\d\b/.test(`${words.cause} ${text}`);
    const statuses = own !== null ? [own] : others && above.length > 0 ? above : h.find(ERROR_COLUMNS.status) === null ? labelled : [];
    above = statuses;
    method.errors.push({
      status: own ?? (statuses.length === 1 ? (statuses[0] ?? null) : null),
      statuses,
      statusClass: /^\dxx$/i.test(statusText) ? statusText.toLowerCase() : null,
      statusFrom: statuses.length > 0 ? "method" : null,
      code: code.code ?? (codeAt === null ? labelCode : null),
      text: text || null,
      cause: cause || null,
      source: sourceOf(ctx, cells[0] ?? { text: "", start: 0 }),
    });
  }
}

/** The headers of a table that states a method's facts in columns (`| Scope | Who can call |`). */
const LABEL_COLUMNS = /^(?:scopes?|who can (?:call|execute(?: the method)?)|access|context|returns|result|parameters|params)$/;

function isLabelTable(ctx: ReadContext, table: Table): boolean {
  const header = table.children[0];
  if (!header) return false;
  const h = headerIndex(ctx, header);
  return h.names.length > 0 && h.names.every((n) => LABEL_COLUMNS.test(n));
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

function isErrorTable(ctx: ReadContext, table: Table): boolean {
  const header = table.children[0];
  if (!header) return false;
  const h = headerIndex(ctx, header);
  // `| Status | Description |` under a method: its errors, the codes in the words ("…: code `X`, text `Y`").
  // Every row's status an error's (4xx or 5xx): "Call statuses: 200 | successful call" is no table of errors.
  if (h.find(ERROR_COLUMNS.code) === null && h.find(ERROR_COLUMNS.codeText) === null) {
    const at = h.find(ERROR_COLUMNS.status);
    if (at === null || h.find(ERROR_COLUMNS.cause) === null || h.names.length !== 2) return false;
    const rows = tableRows(ctx, table).rows;
    return rows.length > 0 && rows.every((r) => /^(?:\*\*)?[45]\d\d(?:\*\*)?$/.test(collapse(r[at]?.text ?? "")));
  }
  return h.find(ERROR_COLUMNS.status) !== null || h.find(ERROR_COLUMNS.text) !== null || h.find(ERROR_COLUMNS.mixed) !== null || h.find(ERROR_COLUMNS.cause) !== null;
}

/** A dotted method name as the spec writes them: `tasks.task.get`, `vote.AttachedVote.recall`, `sale.paysystem.*`. */
const METHOD_NAME = /^[a-z][A-Za-z0-9_-]*(?:\.(?:[A-Za-z0-9_-]+|\*))+$/;

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
    // Each error learns the failure of a parameter it answers, where the spec says which (read/triggers.ts).
    const m = st.method;
    const groups = m.constraints.flatMap((c) => (c.kind === "at-least-one" ? [c.params.filter((p) => m.params.some((q) => q.name === p))] : []));
    m.errors = m.errors.map((e) => {
      const trigger = errorTrigger(e, m.params, groups);
      return trigger ? { ...e, trigger } : e;
    });
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
      if (NOT_SHOWN.test(r.text)) addGap(ctx, r, `${(NOT_SHOWN.exec(collapse(r.text))?.[1] ?? "").trim()} of the named methods`, out.named.map((n) => `method:legacy:${n.name}`));
    }
    out.notes.push(statement(ctx, t));
    return true;
  }
  // "The following methods are named, but their parameters and responses are not shown: `x`, `y`." names them and
  // says what is not shown of them in one sentence.
  const namedBut = /^(?:The following )?methods (?:are|that are) named,?\s*but (?:their|whose) ([^:]+?) (?:are|is) not (?:shown|described)(?: here)?\s*:/i.exec(s);
  if (namedBut) {
    const from = out.named.length;
    for (const span of t.text.matchAll(/`([^`]+)`/g)) {
      const at = sliceText(t, span.index ?? 0, (span.index ?? 0) + span[0].length);
      for (const name of expandNames(span[1] ?? "")) out.named.push({ name, source: sourceOf(ctx, at) });
    }
    addGap(ctx, t, `${namedBut[1] ?? ""} of the named methods`, out.named.slice(from).map((n) => `method:legacy:${n.name}`));
    out.notes.push(statement(ctx, t));
    return true;
  }
  if (NOT_SHOWN.test(s) && !/^\*\*/.test(s)) {
    // "Response: not shown", or with the label first, "Not shown: the full field list and the response".
    // "The full field list and the response are not shown": the verb is no part of what is not shown.
    const before = (NOT_SHOWN.exec(s)?.[1] ?? s).trim().replace(/\s+(?:are|is)$/i, "");
    const subject = before || (NOT_SHOWN.exec(s)?.[2] ?? "").replace(/^\s*[:—–-]\s*/, "").replace(/\.$/, "").trim();
    // Each thing the sentence says is not shown, without its article ("the full field list and the response").
    const things = subject.split(/\s*,\s*|\s+and\s+|\s*\+\s*/).map((x) => x.replace(/^(?:the|an?)\s+/i, "").toLowerCase());
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

function readMethodBlock(ctx: ReadContext, st: State, block: RootContent): void {
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

/**
 * The call forms as a table: `| Form | Required parameters | Description |` (or `| # | Params | Notes |`), a row a
 * form; its parameters cell names them (`` `a`, `b` `` or `**a***, **b***`), and its description is theirs.
 */
function readCallFormTable(ctx: ReadContext, st: State, table: Table, said: Text): void {
  const { h, rows } = tableRows(ctx, table);
  const paramsAt = h.find(/^(?:(?:required )?param(?:eter)?s|fields|names?)$/) ?? 1;
  const describedAt = h.find(/^(?:description|notes?|meaning|what)$/);
  const forms: string[][] = [];
  for (const cells of rows) {
    const cell = cells[paramsAt];
    if (!cell) continue;
    const names = [...cell.text.matchAll(/`([A-Za-z_]\w*)`|\*\*([A-Za-z_]\w*)\*?\*\*/g)].map((x) => x[1] ?? x[2] ?? "");
    if (names.length === 0) {
      report(ctx, "unread-text", spanOfText(ctx, cell), { what: "call form", text: collapse(cell.text).slice(0, 80) });
      continue;
    }
    const description = describedAt === null ? "" : collapse(cells[describedAt]?.text ?? "");
    addParams(ctx, st, names.map((name) => field({ name, type: { kind: "unknown" }, required: false, description, source: sourceOf(ctx, cell) })));
    forms.push(names);
  }
  st.method.constraints.push({ kind: "call-forms", forms, text: collapse(said.text), source: sourceOf(ctx, said) });
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

/** A result read from a label alone ("Result:", "**Returns**"): what follows it says the result. */
function resultIsLabel(r: ResultSpec): boolean {
  return r.type.kind === "unknown" && r.type.note === undefined && /^\W*(?:Result|Returns?|Response)\W*$/i.test(r.description);
}

/**
 * A table of alternatives of the result: a column headed `result` (in backticks or not), a row each condition
 * (`| Request contains | \`result\` |`). False when the table has no such column or a row names no members.
 */
function readResultTable(ctx: ReadContext, st: State, table: Table): boolean {
  const header = table.children[0];
  if (!header || header.children.length !== 2 || (st.method.result && !resultIsLabel(st.method.result))) return false;
  const h = headerIndex(ctx, header);
  const at = h.names.findIndex((n) => /^`?result`?$/i.test(n.trim()));
  if (at < 0) return false;
  const { rows } = tableRows(ctx, table);
  const items = rows.flatMap((cells) => {
    const result = cells[at];
    const condition = cells[1 - at];
    return result ? [{ at: result, result: result.text, whole: `${collapse(condition?.text ?? "")}: ${collapse(result.text)}`, condition: condition?.text ?? "" }] : [];
  });
  const alternatives = readResultAlternatives(ctx, items);
  if (!alternatives) return false;
  st.method.result = alternatives;
  return true;
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
