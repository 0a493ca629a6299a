import type { Method } from "../model/view.js";

/**
 * The one place where names are made: type names from method names, property keys, import lists. Identifier
 * rules and collisions are decided here so that every emitter agrees.
 */

const RESERVED = new Set(["break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof", "new", "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with"]);

/** `tasks.task.getaccess` → `TasksTaskGetaccess`; `vote.AttachedVote.recall` → `VoteAttachedVoteRecall`. */
export function pascalOfMethod(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((p) => (p[0]?.toUpperCase() ?? "") + p.slice(1))
    .join("");
}

/** The prefix of a method's type names: `V3` for 3.0 so that both versions of one name have their own types. */
export function methodTypeBase(m: Pick<Method, "name" | "version">): string {
  return `${m.version === "v3" ? "V3" : ""}${pascalOfMethod(m.name)}`;
}

/**
 * A property key: bare when it is an identifier name, quoted otherwise (`"edit.originator"`, `"~FIELD_NAME"`), as
 * prettier's `quoteProps: "as-needed"` leaves it.
 */
export function propertyKey(name: string): string {
  return /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u.test(name) ? name : stringLiteral(name);
}

/**
 * A string literal as prettier prints it: double quotes unless the text holds more double quotes than single ones
 * (its `printString`); JSON's escapes are the ones prettier keeps.
 */
export function stringLiteral(value: string): string {
  const doubles = value.split('"').length - 1;
  const singles = value.split("'").length - 1;
  if (doubles <= singles) return JSON.stringify(value);
  return `'${JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/** A JS identifier for a namespace segment (`tasks`, `task`, `getaccess`); reserved words get a trailing `_`. */
export function identifier(name: string): string {
  const id = name.replace(/[^A-Za-z0-9_$]/g, "_").replace(/^(\d)/, "_$1");
  return RESERVED.has(id) ? `${id}_` : id;
}

export { ordinal } from "../util/order.js";
