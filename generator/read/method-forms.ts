import type { Field, Method } from "../model/types.js";
import { type Text, sliceText, trimText } from "../parse/markdown.js";
import { METHOD_FORMS, accessWho } from "./forms.js";
import { readErrorSentence } from "./errors.js";
import { type ReadContext, addGap, collapse, notShownSubject, place, refsOf, sourceOf } from "./inline.js";
import { type State, addParams, constraintFrom, isErrorsStart, readApplicationContext } from "./method-state.js";
import { readNameList, readParams } from "./params.js";
import { isResultSentence, readResultSentence } from "./results.js";
import { pascal } from "./tables.js";
import { field } from "./types.js";
import { firstParenGroup, namedParenGroups } from "../util/parens.js";
import { pushAll } from "../util/arrays.js";

/**
 * The sentence forms of a method that need the reader's state (issue 27: the method-sentence chain as a table): the
 * parameters and result so far, the scope sentence before, the table that follows. read/method-body.ts tries these rows
 * after forms.ts's, in order; a sentence no row takes is a note of the method. Both tables write spec-source/README.md's
 * table of method forms (`methodFormsTable`).
 */

const ACCESS = /^(?:[Aa]ny user|[Aa]dmin(?:istrator)?\b|CRM admin(?:istrator)?\b|[Uu]sers (?:with|w\/)|Only )/;
/** A role alone, as who may call: "Author of the message", "The owner of the group or a moderator". */
const ROLE_WORD = String.raw`(?:author|owner|creator|member|participant|moderator|responsible person|assignee)(?: of (?:the |an? |this )?[a-z]+(?: [a-z]+)?(?: (?:or|and) [a-z]+)?)?`;
const ROLE = new RegExp(String.raw`^(?:the |an? )?${ROLE_WORD}(?:,? (?:or|and) (?:the |an? )?${ROLE_WORD})?\.?$`, "i");

/** A sentence of a method as the stateful forms see it. */
export interface Sentence {
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
  /** Reads another sentence of the method (what a row leaves of its own), as the method's sentences are read. */
  again: (t: Text) => void;
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
    read: ({ ctx, m, whole, again }) => {
      const r = readErrorSentence(ctx, whole);
      pushAll(m.errors, r.errors);
      for (const o of r.others) again(o);
      return true;
    },
    doc: { example: "Errors: HTTP 400, code `0`, text `wrong task id` (taskId of wrong type).", fact: "`errors` (read/errors.ts), the rest of the sentence read on" },
  },
  {
    id: "not-shown",
    match: (x) => notShownSubject(x.s) !== null,
    read: ({ ctx, st, m, t, s }) => {
      // "Response: not shown", "The full field list and the response are not shown", "Not shown: the response".
      const subject = notShownSubject(s) ?? s;
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
    read: ({ ctx, st, t, again }) => {
      const prefix = /^Optional:\s*/.exec(t.text)?.[0].length ?? 0;
      const r = readParams(ctx, sliceText(t, prefix), { optional: true });
      addParams(ctx, st, r.params);
      for (const o of r.others) again(o);
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
    read: ({ ctx, st, m, t, again }) => {
      const r = readParams(ctx, t);
      addParams(ctx, st, r.params);
      const objectParam = r.params[r.params.length - 1];
      if (objectParam && objectParam.type.kind === "object" && /:\s*$/.test(t.text)) st.tableTarget = objectParam;
      for (const o of r.others) {
        const c = constraintFrom(ctx, o);
        if (c) m.constraints.push(c);
        else again(o);
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
