import type { Method } from "../model/types.js";

/** What a form may ask of the method reader: the readings that need positions and the error catalogue. */
export interface FormHooks {
  /** "Application context only", with the `WRONG_AUTH_TYPE` error the sentence may name. */
  applicationContext(): void;
  /** Read the sentence on from this offset (a label the form has taken off). */
  readFrom(offset: number): void;
  /** The next table, or the next list's items, are the method's errors, with these statuses and this code where they give none. */
  errorsFollow(statuses: number[], code?: string | null): void;
  /** The next table lists the members of this object parameter; false when the method has no such parameter. */
  membersFollow(param: string): boolean;
  /** Words about a parameter the method already has, added to its description; false when it has none. */
  describe(param: string, words: string): boolean;
  /** The next numbered list or table gives the method's call forms, one set of parameters each. */
  callFormsFollow(): void;
  /** The parameters declared so far must be sent in their order: a `keep-order` constraint at this sentence. */
  keepOrder(): void;
}

/** "400", "400 or 403", "400, 403 and 404": the statuses a label gives. */
function statusesIn(s: string): number[] {
  return [...s.matchAll(/\b([1-5]\d\d)\b/g)].map((m) => Number(m[1]));
}

/**
 * The sentence forms of a method section, one row each (decisions.md D30): a new way of saying a fact of a method
 * is a row here, never a branch of the chain in method-body.ts. `match` sees the sentence with its spaces collapsed;
 * `read` folds it into the method and says whether the sentence is placed whole (`placed`) or is also read on by the
 * chain (`read-on`: the sentence stays the method's description as before, the row adds a typed fact to it).
 * `doc` is the row of spec-source/README.md's table of method forms.
 */
export interface SentenceForm {
  id: string;
  match: RegExp;
  read: (method: Method, sentence: string, hooks: FormHooks) => "placed" | "read-on";
  doc: { example: string; fact: string };
}

/** Who may call a method, from the words after the label: `any` for any user, else the first clause, lower case. */
export function accessWho(text: string): string {
  // "an administrator, or the owner of the group" is "administrator or owner of the group": articles are no part of who.
  const plain = text
    .replace(/^(?:an?|the)\s+/i, "")
    .replace(/,?\s+or\s+(?:an?|the)\s+/gi, " or ")
    // "administrator, or owner of the group": the comma before "or" parts no clause.
    .replace(/,\s+or\s+/gi, " or ")
    // A developer's "w/" is "with", and "group / project" is "group or project".
    .replace(/\bw\/\s*/g, "with ")
    .replace(/\s+\/\s+/g, " or ");
  if (/^Any user\b/i.test(plain)) return "any";
  // "admin" is a developer's "administrator".
  return (plain.split(/[(,;]/)[0] ?? "").replace(/\s+/g, " ").trim().toLowerCase().replace(/\badmin\b/g, "administrator").replace(/\.$/, "");
}

const WHO_LABEL = /^(?:Who can (?:call|execute|use)(?: (?:the|this) method)?|Who may call|Access|Permissions?|Callable by)\s*:\s*/i;

export const METHOD_FORMS: readonly SentenceForm[] = [
  {
    id: "result-is-caller",
    match: /^Returns the (?:current )?user (?:whose (?:access )?token (?:was|is) used|who (?:made|makes) the (?:call|request))\b/i,
    read: (m) => {
      m.resultSubject = "caller";
      return "read-on";
    },
    doc: { example: "Returns the user whose token was used.", fact: "the result describes the caller (`resultSubject: caller`)" },
  },
  {
    id: "who-can-call",
    match: WHO_LABEL,
    read: (m, s, hooks) => {
      const rest = s.replace(WHO_LABEL, "");
      m.access = { who: accessWho(rest), text: rest };
      if (/\bapplication context only\b/i.test(rest)) hooks.applicationContext();
      return "placed";
    },
    doc: { example: "Who can execute the method: any user.", fact: "`access` (`who` is `any` or the first clause)" },
  },
  {
    id: "application-context",
    match: /^(?:(?:The method )?works only in the context of application authori[sz]ation|(?:Context:\s*)?App(?:lication)? context only|Only in (?:an )?application context)\b/i,
    read: (_m, _s, hooks) => {
      hooks.applicationContext();
      return "placed";
    },
    doc: { example: "The method works only in the context of application authorization. · Context: application context only", fact: "`applicationContextOnly`" },
  },
  {
    id: "deprecated-use",
    match: /^(?:Deprecated|This method is deprecated|Obsolete)\b[^`]*?\b(?:use|replaced by|instead)\b[^`]*`[a-z][\w.]*`/i,
    read: (m, s) => {
      // A marker the header gave ("(deprecated)") keeps its words; the replacement is this sentence's if it had none.
      const replacement = /`([a-z][\w.]*)`/.exec(s)?.[1] ?? null;
      m.deprecated = { replacement: m.deprecated?.replacement ?? replacement, text: m.deprecated?.text ?? s };
      return "placed";
    },
    doc: { example: "Deprecated; use `tasks.task.chat.message.send`.", fact: "`deprecated` with its replacement" },
  },
  {
    id: "synonym",
    match: /^(?:Synonyms?|Alias(?:es)?)\s*:?\s*`[^`]+`(?:\s*(?:,|or|and)\s*`[^`]+`)*\.?$/i,
    read: (m, s) => {
      m.aliases = [...new Set([...m.aliases, ...[...s.matchAll(/`([^`]+)`/g)].map((x) => x[1] ?? "")])];
      return "placed";
    },
    doc: { example: "Synonym: `documentation`. · alias: `documentation`", fact: "`aliases`" },
  },
  {
    id: "no-parameters",
    // Not "No parameters, response not shown": the stateful rows read that as a gap (read/method-forms.ts, `not-shown`).
    match: /^(?:No parameters|no parameters)\b(?!.*\b[Nn][Oo][Tt] [Ss][Hh][Oo][Ww][Nn]\b)/,
    read: (m, s) => {
      if (/\bGET or POST\b/.test(s)) m.httpMethods = ["GET", "POST"];
      return "placed";
    },
    doc: { example: "No parameters. · no parameters, GET or POST", fact: "no parameters; with `GET or POST`, `httpMethods` GET and POST" },
  },
  {
    id: "get-or-post",
    match: /^(?:(?:Also )?accepts|Call(?:ed)? with|Takes|Works with)?\s*GET or POST\.?$/i,
    read: (m) => {
      m.httpMethods = ["GET", "POST"];
      return "placed";
    },
    doc: { example: "Accepts GET or POST. · Call with GET or POST.", fact: "`httpMethods`: GET and POST" },
  },
  {
    id: "errors-label",
    match: /^(?:Errors?|Possible errors?|Error codes?)(?:\s*\(HTTP(?: status(?:es)?)?\s+[1-5]\d\d(?:\s*(?:,|or|and)\s*[1-5]\d\d)*\)|,?\s*HTTP\s+[1-5]\d\d(?:\s*(?:,|or|and)\s*[1-5]\d\d)*)?\s*:?$|^HTTP status(?:es)?:?\s*\**[1-5]\d\d\**(?:\s*(?:,|or|and)\s*\**[1-5]\d\d\**)*\.?$/i,
    read: (_m, s, hooks) => {
      hooks.errorsFollow(statusesIn(s));
      return "placed";
    },
    doc: { example: "Errors (HTTP 400): · HTTP status: 400 or 403 · **Errors** (then a table or a list)", fact: "the next table, or the items of the next list, are the method's errors, with these statuses where they give none" },
  },
  {
    id: "errors-header",
    // Also without the parentheses when a code follows the status: "Errors, 403 `ACCESS_DENIED`:".
    match: /^(?:Errors?|Possible errors?|Error codes?)(?:\s*\((?:(?:all |all statuses |statuses |status )?(?:HTTP(?: status(?:es)?)?\s+)?[1-5]\d\d(?:\s*(?:,|or|and)\s*[1-5]\d\d)*\s*,?\s*)?(?:code\s+)?(?:`[A-Za-z0-9_]*`)?\)\s*:?|,\s*(?:HTTP(?: status(?:es)?)?\s+)?[1-5]\d\d(?:\s*(?:,|or|and)\s*[1-5]\d\d)*,?\s*(?:code\s+)?`[A-Za-z0-9_]+`\s*:)$/i,
    read: (_m, s, hooks) => {
      hooks.errorsFollow(statusesIn(s), /`([A-Za-z0-9_]*)`/.exec(s)?.[1] ?? null);
      return "placed";
    },
    doc: { example: "Errors (HTTP 400, code `ERROR_CORE`): · Errors (403 `ACCESS_DENIED`): · Errors, 403 `ACCESS_DENIED`: · Errors (all HTTP 400): (then a table or a list)", fact: "the next table or list is the method's errors, with this status and code where a row gives none" },
  },
  {
    id: "call-forms",
    match: /^(?:(?:The method has |It has )?\w+ call forms\b|Call it in one of \w+ forms\b)[^:]*[:.;]?.*$/i,
    read: (_m, _s, hooks) => {
      hooks.callFormsFollow();
      return "placed";
    },
    doc: {
      example: "Three call forms: · 3 call forms — all params in a form are required: · The method has three call forms; use one of them. · Call it in one of three forms; … (then a numbered list or a table)",
      fact: "a `call-forms` constraint: each item or row is one set of parameters, each of them required in its form",
    },
  },
  {
    id: "errors-status-code",
    match: /^HTTP status(?:es)?:?\s*\**[1-5]\d\d\**(?:\s*(?:,|or|and)\s*\**[1-5]\d\d\**)*,\s*code\s+`[A-Za-z0-9_]*`,?\s*(?:with (?:one of )?(?:the |these )?(?:following )?(?:messages|texts))?\s*:$/i,
    read: (_m, s, hooks) => {
      hooks.errorsFollow(statusesIn(s), /`([A-Za-z0-9_]*)`/.exec(s)?.[1] ?? null);
      return "placed";
    },
    doc: { example: "HTTP status: **400**, code `ERROR_CORE`, with one of the messages: (then a list)", fact: "the next list's items are errors with this status and code" },
  },
  {
    id: "error-texts",
    match: /^(?:(?:messages|texts|error texts) of `[A-Za-z0-9_]+`|`[A-Za-z0-9_]+` (?:messages|texts))\s*:$/i,
    read: (m, s, hooks) => {
      const code = /`([A-Za-z0-9_]+)`/.exec(s)?.[1] ?? null;
      // The statuses the method already gives that code (its row in the errors table).
      const statuses = [...new Set(m.errors.filter((e) => e.code === code).flatMap((e) => (e.statuses.length > 0 ? e.statuses : e.status !== null ? [e.status] : [])))];
      hooks.errorsFollow(statuses, code);
      return "placed";
    },
    doc: { example: "`ERROR_ARGUMENT` texts: · Messages of `ERROR_ARGUMENT`: (then a list)", fact: "the next list's items are texts of that error, with the statuses the method gives it" },
  },
  {
    id: "parameter-more",
    match: /^`[A-Za-z_]\w*` (?:format|key prefixes|prefixes|values|keys|shape|has the (?:form|format|shape))\b\s*:?/,
    read: (_m, s, hooks) => (hooks.describe(/`([A-Za-z_]\w*)`/.exec(s)?.[1] ?? "", s) ? "placed" : "read-on"),
    doc: { example: "`ORDER` format: `{field: ASC|DESC}` · `ORDER` has the form `{field: ASC|DESC}`.", fact: "more words of a parameter the method already has (its description, and the object's shape they give), not a second parameter" },
  },
  {
    id: "members-label",
    match: /^(?:`[A-Za-z_]\w*` (?:members|fields|keys)|(?:Members|Fields|Keys) of `[A-Za-z_]\w*`)\s*:$/,
    read: (_m, s, hooks) => (hooks.membersFollow(/`([A-Za-z_]\w*)`/.exec(s)?.[1] ?? "") ? "placed" : "read-on"),
    doc: { example: "`settings` members: (then a table)", fact: "the next table lists the members of the object parameter" },
  },
  {
    id: "parameters-label",
    match: /^Parameters?\s*:\s*(?=`)/,
    // "Parameters: `settings` — object, required.": the label, then the parameter as a bullet says it.
    read: (_m, s, hooks) => {
      hooks.readFrom(/^Parameters?\s*:\s*/.exec(s)?.[0].length ?? 0);
      return "placed";
    },
    doc: { example: "Parameters: `taskId` — integer, required.", fact: "the parameters after the label, read as a parameter bullet" },
  },
  {
    id: "use-instead",
    match: /^(?:→\s*|->\s*)?Use `[a-z][\w.]*`(?: instead)?\.?$/i,
    // "#### `task.comment.add` — deprecated" then "> **Deprecated.** Use `x` instead.": the replacement of a method
    // already marked deprecated; of any other it is words the chain reads on.
    read: (m, s) => {
      if (!m.deprecated) return "read-on";
      m.deprecated = { replacement: m.deprecated.replacement ?? /`([a-z][\w.]*)`/.exec(s)?.[1] ?? null, text: m.deprecated.text };
      return "placed";
    },
    doc: { example: "**Deprecated.** Use `tasks.task.chat.message.send` instead. · → use `tasks.task.chat.message.send`.", fact: "the replacement of a method marked deprecated" },
  },
  {
    id: "is-deprecated",
    match: /^(?:The|This) method is deprecated\.?$/i,
    // "The method is deprecated." alone (a warning note); a "Use `x` instead." after it names the replacement.
    read: (m, s) => {
      m.deprecated ??= { replacement: null, text: s };
      return "placed";
    },
    doc: { example: "The method is deprecated. Use `tasks.task.chat.message.send` instead.", fact: "`deprecated`; the next sentence may name the replacement" },
  },
  {
    id: "keep-order",
    match: /^(?:The )?order of (?:the )?param(?:eter)?s(?: in the req(?:uest)?)? must be (?:kept|preserved)\b|^Keep (?:the )?param(?:eter)?s? order\b|^(?:The )?param(?:eter)?s must be passed in (?:this|the given|the listed|that) order\b/i,
    read: (_m, _s, hooks) => {
      hooks.keepOrder();
      return "placed";
    },
    doc: { example: "The order of the parameters in the request must be preserved, otherwise the call fails. · Keep param order in the req.", fact: "a `keep-order` constraint over the parameters declared before it" },
  },
  {
    id: "idempotency-header",
    match: /^(?:Idempotency\s*:\s*)?(?:the\s+)?(?:`Idempotency-Key` header|header `Idempotency-Key`) is (?:honou?red|supported|accepted)\.?$/i,
    read: (m) => {
      m.idempotencyKey = true;
      return "placed";
    },
    doc: { example: "**Idempotency:** the `Idempotency-Key` header is honored. · The header `Idempotency-Key` is honored.", fact: "the method honours the `Idempotency-Key` header (`idempotencyKey`)" },
  },
  {
    id: "its-members",
    match: /^(?:Its|Their) (?:members|fields|keys)\s*:$/i,
    // "`settings` — object, required. Its members:": the parameter the sentence before declared, when it is an object.
    read: (m, _s, hooks) => {
      const last = m.params[m.params.length - 1];
      return last && last.type.kind === "object" && hooks.membersFollow(last.name) ? "placed" : "read-on";
    },
    doc: { example: "`settings` object, required. Its members: (then a table)", fact: "the next table lists the members of the object parameter just declared" },
  },
];

/**
 * Labels a sentence may start with, in the words the forms read (a developer's `resp:`, `who:`, a lower-case
 * `scopes:`): the label is replaced, the rest stays where it was in the file.
 */
const LABELS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^scopes?\s*:\s*/, "Scope: "],
  [/^who\s*:\s*/i, "Who can call: "],
  [/^(?:resp|response|res)\b\s*:?\s*(?=`result)/i, "Response "],
  [/^(?:resp|res)\s*:\s*/i, "Result: "],
  [/^result\s*:\s*/, "Result: "],
  [/^returns\s*:\s*/, "Returns: "],
  // "`result.allowedActions` — see Allowed actions" under a Response heading: the Response form.
  [/^(?=`result(?:\.[A-Za-z_]\w*)?`\s*(?:—|–|-|:|\(|\.|$))/, "Response "],
  // "**Body:** a `fields` object with …", "**Body:** `taskId`, integer.": the 3.0 body as the spec's "body …" says it.
  [/^body\s*:\s*(?:an?\s+)?(?=`)/i, "body "],
  [/^(?:params|parameters)\s*:\s*none\b/i, "No parameters"],
  [/^no params\b/i, "No parameters"],
];

/** The sentence with a label of LABELS written as the forms read it: [the text, how many characters it replaced]. */
export function relabel(sentence: string): [string, number] | null {
  for (const [re, as] of LABELS) {
    const m = re.exec(sentence);
    if (m) return [`${as}${sentence.slice(m[0].length)}`, m[0].length];
  }
  return null;
}

/** The first form the sentence has, applied; null when it has none. */
export function readMethodForm(method: Method, sentence: string, hooks: FormHooks): "placed" | "read-on" | null {
  for (const form of METHOD_FORMS) if (form.match.test(sentence)) return form.read(method, sentence, hooks);
  return null;
}
