import Handlebars from "handlebars";
import { propertyKey, stringLiteral } from "./names.js";
import type { TemplateName, TemplateViews } from "./views.js";
import { blockCommentText, lineCommentText } from "../util/comment.js";

/**
 * The one place that registers Handlebars helpers and renders templates. Templates are compiled with `strict`
 * (a missing view-model member is an error), `noEscape` (the output is code, not HTML) and `knownHelpersOnly`.
 * Helpers only format; every value a template prints is computed by its emitter into a typed view model.
 */

export type Templates = Readonly<Record<string, string>>;

const hb = Handlebars.create();
const helpers = {
  /**
   * A value embedded in generated code, on one line as prettier prints it: strings in double quotes, arrays as
   * `["a", "b"]`, objects as `{ a: 1 }`. Strings, numbers and arrays of them print as valid JSON too.
   */
  json: (value: unknown) => literal(value),
  /** Text inside a block comment or JSDoc on one line: `/** {{comment summary}} *\/` (the one escaper, util/comment). */
  comment: (value: unknown) => blockCommentText(String(value), { oneLine: true }),
  /** Text inside a `//` comment: `// {{lineComment header}}`. */
  lineComment: (value: unknown) => lineCommentText(String(value)),
};

function literal(value: unknown): string {
  if (typeof value === "string") return stringLiteral(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(([k, v]) => `${propertyKey(k)}: ${literal(v)}`);
    return entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
  }
  return JSON.stringify(value) ?? "undefined";
}
for (const [name, fn] of Object.entries(helpers)) hb.registerHelper(name, fn);
const knownHelpers = Object.fromEntries(Object.keys(helpers).map((n) => [n, true])) as Record<string, true>;

const cache = new Map<string, HandlebarsTemplateDelegate>();

/**
 * A template that does not parse, or names a variable its view model lacks: the user's mistake when the template
 * is theirs (`--templates`), so the CLI prints it at the template's file, line and column with no stack.
 */
export class TemplateError extends Error {
  constructor(
    readonly template: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`template ${template}:${line}:${column}: ${reason}`);
  }
}

// Handlebars' parser throws a bare Error whose text shows an excerpt, not the position; its parseError hook gets the
// token's location. Keep the same Error and message, and attach the location (the parser object is shared, so this
// only adds a member to what it already throws).
const parser = (hb as unknown as { Parser: { parseError: (str: string, hash: unknown) => never } }).Parser;
parser.parseError = (str: string, hash: unknown): never => {
  throw Object.assign(new Error(str), { hash });
};

/** Line and column (1-based) of a Handlebars error: compile and strict-mode errors carry them, parse errors their token's. */
function templateError(name: string, err: unknown): TemplateError {
  const e = err as { message?: string; lineNumber?: number; column?: number; hash?: { loc?: { first_line: number; first_column: number } } };
  const message = String(e.message ?? err);
  if (typeof e.lineNumber === "number") {
    const reason = message.replace(/ - \d+:\d+$/, "").replace(/ in (?:undefined|\[object Object\])$/, " in the template's view model");
    return new TemplateError(name, e.lineNumber, (e.column ?? 0) + 1, reason);
  }
  const loc = e.hash?.loc;
  const expecting = /\n(Expecting .*)$/.exec(message)?.[1];
  if (loc) return new TemplateError(name, loc.first_line, loc.first_column + 1, `parse error: ${expecting ?? message.split("\n")[0]}`);
  return new TemplateError(name, 1, 1, message.split("\n")[0] ?? message);
}

export function render<N extends TemplateName>(templates: Templates, name: N, view: TemplateViews[N]): string {
  const source = templates[name];
  if (source === undefined) throw new Error(`template '${name}' is missing`);
  const key = `${name}\u0000${source}`;
  try {
    let compiled = cache.get(key);
    if (!compiled) {
      compiled = hb.compile(source, { strict: true, noEscape: true, knownHelpers, knownHelpersOnly: true });
      cache.set(key, compiled);
    }
    return compiled(view);
  } catch (err) {
    throw templateError(name, err);
  }
}
