import type { Source } from "../util/position.js";

/**
 * The one diagnostics catalogue. A code is stable: tools match on it. Messages take parameters so that each
 * diagnostic says what was found and what was expected; the hint says how to fix it.
 */
const catalogue = {
  "duplicate-method": {
    severity: "error",
    message: (p: { name: string; version: string }) => `Method '${p.name}' (${p.version}) is defined twice`,
    hint: "Remove one definition or give the second its version marker, e.g. '(3.0)'.",
  },
  "duplicate-resource": {
    severity: "error",
    message: (p: { name: string }) => `Resource '${p.name}' is defined twice`,
    hint: "Merge the two definitions into one section.",
  },
  "duplicate-parameter": {
    severity: "error",
    message: (p: { name: string; method: string }) => `Parameter '${p.name}' of '${p.method}' is given twice`,
    hint: "Describe each parameter once.",
  },
  "table-row-cells": {
    severity: "warning",
    message: (p: { found: number; expected: number }) =>
      `Table row has ${p.found} cell(s), expected ${p.expected}; the missing cells are read as empty`,
    hint: "Add the missing cells; an empty cell is written '| |'.",
  },
  "unknown-type": {
    severity: "warning",
    message: (p: { word: string }) =>
      `Unknown type word '${p.word}', expected integer, number, string, boolean, object, array, ISO 8601 or 'X or Y'`,
    hint: "Use a type word of spec-source/README.md#types; the parameter is typed as unknown.",
  },
  "misspelled-type": {
    severity: "error",
    message: (p: { word: string; near: string }) => `Unknown type word '${p.word}'; did you mean '${p.near}'?`,
    hint: "Correct the type word (spec-source/README.md#types): a near miss of a known one is a typo, not a new type, and would publish a parameter the router no longer checks.",
  },
  "unreadable-parameter": {
    severity: "warning",
    message: (p: { text: string }) => `Cannot read a parameter from '${p.text}', expected '\`name\`[*] type[, meaning]'`,
    hint: "Write the parameter as in spec-source/README.md#parameters.",
  },
  "ambiguous-reading": {
    severity: "warning",
    message: (p: { text: string; reading: string }) => `'${p.text}' can be read two ways; read as ${p.reading}`,
    hint: "Rewrite the text in one of the forms of spec-source/README.md#the-grammar-of-a-field so that it has one reading.",
  },
  "result-shape-differs": {
    severity: "warning",
    message: (p: { of: string; count: number; points: string }) =>
      `The TypeScript shape of ${p.of} allows what the table does not, at ${p.count} point(s): ${p.points}; read as either`,
    hint: "Make the page's table and the shape in its JS (TS) tab say the same type (a value that may be empty is written 'type | null' in both); spec-source/README-reference.md#the-results-typescript-shape.",
  },
  "unknown-table-column": {
    severity: "warning",
    message: (p: { header: string; known: string }) =>
      `Unknown table column '${p.header}', expected a header such as ${p.known}; its cells are kept in the description only`,
    hint: "Use a header of spec-source/README.md#tables (each column has a list of accepted names).",
  },
  "method-outside-endpoints": {
    severity: "warning",
    message: (p: { name: string; section: string }) =>
      `Method '${p.name}' is described under '${p.section}', expected under '## Endpoints'; it is kept as a note, not read as a method`,
    hint: "Move the method's paragraph and bullets into an area of '## Endpoints' (spec-source/README.md#methods).",
  },
  "unreadable-method-header": {
    severity: "warning",
    message: (p: { text: string }) => `Cannot read a method name from '${p.text}', expected '**method.name**.'`,
    hint: "Close the bold name ('**name**.'); until then the paragraph and what follows it belong to no method.",
  },
  "missing-scope": {
    severity: "warning",
    message: (p: { name: string }) => `Method '${p.name}' has no scope sentence, expected 'Scope \`x\`.'`,
    hint: "Add 'Scope `name`.' after the method name; the method's x-scopes is null until then.",
  },
  "unread-text": {
    severity: "warning",
    message: (p: { what: string; text: string }) => `Unexpected ${p.what}, not understood by any reader: '${p.text}'`,
    hint: "Write it in one of the forms of spec-source/README.md, or move it into a note.",
  },
  unplaced: {
    severity: "warning",
    message: (p: { what: string }) =>
      `Cannot place ${p.what}: no reader read it as a parameter, field, value, error, link, constraint or gap, so the model does not have it`,
    hint: "Write it in one of the forms of spec-source/README.md (a table of parameters or fields, a bullet '`name` type, meaning', an error with its code), or say in words that it is an example.",
  },
  "unknown-section": {
    severity: "warning",
    // Where it is and what was expected there (issue 26): a section of the document's top level, at that level.
    message: (p: { title: string; level?: number }) => `Unknown section '${p.title}'${p.level ? ` at level ${p.level}` : ""}; its text is kept as notes`,
    hint: "Use a heading of spec-source/README.md#sections: at the level of the document's sections one of Overview, Resources, Responses, States, Endpoints, Addressing, Authentication, Events, Errors, Limits, Versioning.",
  },
  "unknown-reference": {
    severity: "warning",
    message: (p: { name: string; what: string }) => `Unknown ${p.what} '${p.name}'`,
    hint: "Name a resource of 'Resources and their fields' as its heading or bullet names it.",
  },
  "bad-status": {
    severity: "warning",
    message: (p: { text: string }) => `Unexpected HTTP status '${p.text}', expected a number from 100 to 599`,
    hint: "Write the status as a number, e.g. 'HTTP 400'.",
  },
  "missing-title": {
    severity: "error",
    message: (_: Record<string, never>) => "The spec has no first-level heading, expected '# Title' on the first line",
    hint: "Start the file with '# <API title>'; it becomes info.title.",
  },
  "no-methods": {
    severity: "error",
    message: (p: { folder?: boolean }) =>
      p.folder
        ? "The folder describes no method, expected pages titled '# Words method.name' with a 'Method Parameters' section"
        : "The spec describes no method, expected an 'Endpoints' section with '**method.name**.' paragraphs",
    hint: "See spec-source/README.md#methods (a spec file), or spec-source/README-reference.md#method-pages (a folder of the reference).",
  },
  "nesting-too-deep": {
    severity: "warning",
    message: (p: { depth: number; limit: number }) =>
      `Lists or block quotes nest ${p.depth} deep here, more than ${p.limit}; what lies deeper is read as plain text`,
    hint: "Flatten the nesting; a spec needs a few levels at most.",
  },
  "unwritable-name": {
    severity: "error",
    message: (p: { name: string; file: string; bytes: number; limit: number }) =>
      `Method '${p.name}' would be written to a file named '${p.file}', ${p.bytes} bytes long; file names take at most ${p.limit}`,
    hint: "Shorten the first segment of the method's name (its area); nothing was written.",
  },
  "unsafe-number": {
    severity: "warning",
    message: (p: { name: string; value: string; why: string }) => `A number of '${p.name}' is ${p.why}; it is read as ${p.value}`,
    hint: "Check the digits; a value that must keep them all is written as a string of digits.",
  },
  "secret-in-spec": {
    severity: "warning",
    message: (p: { kind: string }) => `The spec quotes ${p.kind} here; it is replaced by <redacted> in every generated file`,
    hint: "Write a placeholder such as '{code}' or 'xxxxxxxx' in its place: a real credential in a spec is a leaked secret.",
  },
  "unreadable-file": {
    severity: "error",
    message: (p: { reason: string }) => `Cannot read the spec: ${p.reason}`,
    hint: "Check the --spec path and the file's encoding (UTF-8).",
  },
  "unknown-type-word": {
    severity: "warning",
    message: (p: { word: string }) => `Unknown type word '${p.word}': neither data-types.md's basic words nor the catalogue of data-types pages define it; read as unknown`,
    hint: "Use a word of data-types.md, or define it in a data-types page (spec-source/README-reference.md#types); pass the whole folder, not one page, for the catalogue.",
  },
  "unclosed-condition": {
    severity: "warning",
    message: (p: { dropped: boolean }) => `This '{% if %}' is never closed with '{% endif %}'; ${p.dropped ? "what follows it, to the end of the file, is dropped as the documentation's own build drops it" : "what follows it is kept"}`,
    hint: "Close the condition with '{% endif %}' where its text ends.",
  },
  "unclosed-row": {
    severity: "warning",
    message: (_: Record<string, never>) => "This table row is not closed with '||' before the table's '|#'; read as ended there, as the dialect's own parser reads it",
    hint: "End the row with '||' before the table's closing '|#'.",
  },
  "duplicate-type-word": {
    severity: "warning",
    message: (p: { word: string; first: string }) => `Type word '${p.word}' is defined again (first at ${p.first}); the first definition is read`,
    hint: "Define each type word once across the data-types pages.",
  },
  "near-type-word": {
    severity: "warning",
    message: (p: { word: string; near: string }) => `Unknown type word '${p.word}'; did you mean '${p.near}'? Read as unknown`,
    hint: "In the platform's reference a near miss of a known type word is a warning (decisions.md D31); correct the word if it is a typo.",
  },
  "title-method-mismatch": {
    severity: "warning",
    message: (p: { title: string; urls: string; read?: string; why?: string }) => `The page's title names '${p.title}' but its request URLs call ${p.urls}; read as '${p.read ?? p.title}'${p.why ? ` (${p.why})` : ""}`,
    hint: "Correct the title or the examples' URLs so that they name the same method.",
  },
  "unlisted-scope": {
    severity: "warning",
    message: (p: { what: "method" | "event"; name: string; scope: string; list: string }) => `The ${p.what} '${p.name}' names scope '${p.scope}', which the platform's list of scopes (${p.list}) does not have; read as written`,
    hint: "Correct the scope on the page, or add it to the list of scopes; an application cannot ask for a scope the list lacks.",
  },
  "deprecated-scope": {
    severity: "warning",
    message: (p: { what: "method" | "event"; name: string; scope: string; list: string }) => `The ${p.what} '${p.name}' names scope '${p.scope}', which the platform's list of scopes (${p.list}) marks deprecated; read as written`,
    hint: "Name a current scope on the page; the list says a deprecated scope should not be used.",
  },
  "unreadable-limit": {
    severity: "warning",
    message: (p: { row: string; why: string }) => `Cannot read the request-rate row '${p.row}': ${p.why}; the model does not have it`,
    hint: "Write the plan, the requests the counter drains a second (`2 per sec`) and the requests it holds before blocking (`50`), as numbers.",
  },
  "duplicate-page": {
    severity: "warning",
    message: (p: { name: string; first: string; what?: string }) => (p.what ? `${p.what} '${p.name}' has a page already (${p.first}); this page's reading of it is not kept` : `Method '${p.name}' has a page already (${p.first}); this page is not read`),
    hint: "Keep one page per method and version; a 3.0 page is told apart by its /rest/api/ URLs.",
  },
  "unresolved-include": {
    severity: "warning",
    message: (p: { target: string; why: string }) =>
      `Cannot include '${p.target}' (${p.why === "missing" ? "no such file beside the page or under the root" : p.why === "cycle" ? "it includes itself" : p.why === "too-large" ? "the page's includes pass 100,000 blocks" : "includes nest too deep"}); its text is not read`,
    hint: "Correct the include's path: it is resolved relative to the page, then to the folder's root.",
  },
  "unknown-input": {
    severity: "error",
    message: (p: { files: number; expected: string }) => `No front end reads this input (${p.files} file${p.files === 1 ? "" : "s"}); expected ${p.expected}`,
    hint: "Pass the spec file (--spec FILE), or a front end that reads this dialect (GenerateOptions.frontEnds).",
  },
} as const;

export type DiagnosticCode = keyof typeof catalogue;

export function isDiagnosticCode(code: string): code is DiagnosticCode {
  return Object.hasOwn(catalogue, code);
}

export function severityOf(code: DiagnosticCode): Severity {
  return catalogue[code].severity;
}
export type Severity = "error" | "warning";
type Params<C extends DiagnosticCode> = Parameters<(typeof catalogue)[C]["message"]>[0];

export interface Diagnostic {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: Severity;
  code: DiagnosticCode;
  message: string;
  hint: string;
  /** Another place the diagnostic concerns, such as the first of two duplicate definitions. */
  related?: { line: number; column: number; message: string };
  /** The method or resource the diagnostic is about, where the reader knew it (matched by the config's `ignore`). */
  subject?: { method?: string; resource?: string };
}

export interface Span extends Source {
  endLine: number;
  endColumn: number;
}

/** Builds a diagnostic from the catalogue; an unknown code or wrong parameters do not compile. */
export function diagnostic<C extends DiagnosticCode>(
  code: C,
  at: Span,
  params: Params<C>,
  related?: Diagnostic["related"],
): Diagnostic {
  const entry = catalogue[code];
  const message = (entry.message as (p: Params<C>) => string)(params);
  return {
    file: at.file,
    line: at.line,
    column: at.column,
    endLine: at.endLine,
    endColumn: at.endColumn,
    severity: entry.severity,
    code,
    message,
    hint: entry.hint,
    ...(related ? { related } : {}),
  };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  // By file first: a folder's pages each keep their diagnostics together (a spec file's all share one file).
  return [...diagnostics].sort(
    (a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}
