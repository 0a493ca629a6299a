import { redactSecrets } from "../util/redact.js";
import type { Diagnostic } from "./catalogue.js";

export type DiagnosticFormat = "text" | "json" | "github";

/** Where the printed paths point (decisions.md, "Diagnostic paths"); by default the diagnostic's own `file`. */
export interface FormatOptions {
  /** The path to print for a diagnostic's file: relative to the working directory, or to the repository root (github). */
  path?: (file: string) => string;
  /** The absolute path, an extra `absoluteFile` member of the json format. */
  absolute?: (file: string) => string;
  /** Where the dialect documentation is for the reader (hints name `spec-source/README.md`, a file of this repo). */
  docs?: string;
}

const DOCS_IN_HINTS = "spec-source/README.md";

/** The stop between a message and its hint: none after a message that ends in a question mark ("did you mean …?"). */
function stop(text: string): string {
  return text.endsWith("?") ? "" : ".";
}

/** `FILE:LINE:COLUMN: severity CODE: message`, as compilers print them; the hint follows on the same line. */
function formatText(d: Diagnostic): string {
  const related = d.related ? ` (${d.related.message} at ${d.file}:${d.related.line}:${d.related.column})` : "";
  return `${d.file}:${d.line}:${d.column}: ${d.severity} ${d.code}: ${d.message}${related}${stop(d.message + related)} ${d.hint}`;
}

/** GitHub Actions workflow commands escape `%`, CR and LF in data, and also `:` and `,` in properties. */
function escapeGithubData(s: string): string {
  return s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}
function escapeGithubProperty(s: string): string {
  return escapeGithubData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

function formatGithub(d: Diagnostic): string {
  const props = [
    `file=${escapeGithubProperty(d.file)}`,
    `line=${d.line}`,
    `col=${d.column}`,
  ].join(",");
  const related = d.related ? ` (${d.related.message} at line ${d.related.line}, column ${d.related.column})` : "";
  return `::${d.severity} ${props}::${escapeGithubData(`${d.code}: ${d.message}${related}${stop(d.message + related)} ${d.hint}`)}`;
}

/** Renders diagnostics in one of the contract's three formats; secrets in quoted spec text are redacted. */
export function formatDiagnostics(diagnostics: readonly Diagnostic[], format: DiagnosticFormat, options: FormatOptions = {}): string {
  const safe = diagnostics.map((d) => ({
    ...d,
    file: options.path ? options.path(d.file) : d.file,
    message: redactSecrets(d.message),
    hint: options.docs ? d.hint.split(DOCS_IN_HINTS).join(options.docs) : d.hint,
    absoluteFile: options.absolute?.(d.file),
  }));
  if (format === "json") {
    return `${JSON.stringify(
      safe.map(({ file, line, column, endLine, endColumn, severity, code, message, hint, absoluteFile, related }) => ({
        file,
        line,
        column,
        endLine,
        endColumn,
        severity,
        code,
        message,
        hint,
        ...(absoluteFile ? { absoluteFile } : {}),
        // The other place a diagnostic concerns (a duplicate's first definition, the other half of a contradiction).
        ...(related ? { related } : {}),
      })),
      null,
      2,
    )}\n`;
  }
  const lines = safe.map(format === "github" ? formatGithub : formatText);
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}

/**
 * The summary of a run over many pages (issue 28): warnings and errors counted per code and per area, so that a
 * reader of 1,485 pages sees where to look. The area is the folder under `api-reference/` (the reference's layout),
 * else the file's folder. One line each, most first; empty when there is nothing to count.
 */
export function summarizeDiagnostics(diagnostics: readonly Diagnostic[]): string {
  if (diagnostics.length === 0) return "";
  const count = (key: (d: Diagnostic) => string) => {
    const by = new Map<string, number>();
    for (const d of diagnostics) by.set(key(d), (by.get(key(d)) ?? 0) + 1);
    return [...by].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k, n]) => `${k} ${n}`).join(", ");
  };
  const areaOf = (file: string) => /(?:^|\/)api-reference\/([^/]+)\//.exec(file)?.[1] ?? (file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : ".");
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const head = `${diagnostics.length - errors} warning(s), ${errors} error(s)`;
  return `${head} by code: ${count((d) => d.code)}\n${head} by area: ${count((d) => areaOf(d.file))}\n`;
}
