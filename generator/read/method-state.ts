import type { Constraint, Field, Method, Resource } from "../model/types.js";
import { APP_CONTEXT_CAUSE } from "../model/fragments.js";
import type { Text } from "../parse/markdown.js";
import { NOT_SHOWN, type ReadContext, collapse, report, sentences, sourceOf } from "./inline.js";

/**
 * What the reader of a method's sentences keeps while it reads one method (`State`), and the small readings both the
 * sentence chain (read/method-body.ts) and the table of stateful forms (read/method-forms.ts) fold into it.
 */

export interface State {
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
export function isErrorsStart(t: Text): boolean {
  if (!/^Errors?\b/.test(t.text)) return false;
  const first = sentences(t)[0];
  return !(first && NOT_SHOWN.test(collapse(first.text)));
}

/** "Application context only (else HTTP 403 `WRONG_AUTH_TYPE`)": the flag, and the error it names. */
export function readApplicationContext(ctx: ReadContext, m: Method, t: Text): void {
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

export function constraintFrom(ctx: ReadContext, t: Text): Constraint | null {
  const m = /at least one of ((?:`[^`]+`(?:\s*,\s*|\s+and\s+|\s+or\s+)?)+)/i.exec(t.text);
  if (!m) return null;
  // Names the method does not (yet) have stay in: the emitters keep only those that are parameters.
  const params = [...(m[1] ?? "").matchAll(/`([^`]+)`/g)].map((x) => x[1] ?? "");
  return { kind: "at-least-one", params, text: collapse(t.text), source: sourceOf(ctx, t) };
}

export function addParams(ctx: ReadContext, st: State, params: Field[]): void {
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
