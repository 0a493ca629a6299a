import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";

/**
 * Credentials quoted in the spec's own text (issue 24: `https://portal.example/rest/1/whSECRET/…` in a description
 * was copied into ten generated files). Each is a `secret-in-spec` warning at its position, and its value is taken
 * out of every generated file (`redactQuoted`). Placeholders are not credentials: `{webhook_code}`, `<token>`,
 * `xxxxxxxx`, `***`, `…`.
 */

const SHAPES: Array<{ kind: string; pattern: RegExp }> = [
  { kind: "a webhook code", pattern: /\/rest\/(?:api\/)?\d+\/([^/\s?#"'`<>{}()[\]]+)(?=\/)/g },
  { kind: "a credential parameter", pattern: /(?:^|[?&;\s"'(])(?:auth|access_token|refresh_token|application_token|client_secret|password)=([^&\s"'`#)<>{}]+)/gi },
  { kind: "a credential member", pattern: /"(?:auth|access_token|refresh_token|application_token|client_secret|password)"\s*:\s*"([^"<>{}]+)"/gi },
  { kind: "a bearer token", pattern: /\bBearer\s+([A-Za-z0-9._~+/=-]+)/g },
];

/** A value that stands for a credential rather than being one: too short, all one character, or marked as elided. */
function isPlaceholder(value: string): boolean {
  return (
    value.length < 4 ||
    /^(.)\1*$/.test(value) ||
    /[*…]|\.\.\.|^(?:code|token|secret|webhook|xxx+)/i.test(value) ||
    // A word in snake case names a thing (`access_token`, `your_webhook_code`); a credential is not spelled so.
    /^[a-z]+(?:_[a-z]+)+$/.test(value)
  );
}

export function findQuotedSecrets(text: string, file: string): { secrets: string[]; diagnostics: Diagnostic[] } {
  const secrets = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  let lineStarts: number[] | null = null;
  const position = (offset: number) => {
    lineStarts ??= [0, ...[...text.matchAll(/\n/g)].map((m) => (m.index ?? 0) + 1)];
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (lineStarts[lo] ?? 0) + 1 };
  };
  for (const { kind, pattern } of SHAPES) {
    for (const m of text.matchAll(pattern)) {
      const value = m[1] ?? "";
      if (isPlaceholder(value)) continue;
      secrets.add(value);
      const start = (m.index ?? 0) + m[0].lastIndexOf(value);
      const at = position(start);
      diagnostics.push(diagnostic("secret-in-spec", { file, line: at.line, column: at.column, endLine: at.line, endColumn: at.column + value.length }, { kind }));
    }
  }
  return { secrets: [...secrets].sort(), diagnostics };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The text with each quoted secret replaced by `<redacted>`, as a whole word: never inside a longer word or
 * identifier (`_` counts as part of one), so that code around it stays as it was.
 */
export function redactQuoted(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return text;
  const pattern = new RegExp(`(?<![\\w])(?:${secrets.map(escapeRegExp).join("|")})(?![\\w])`, "g");
  return text.replace(pattern, "<redacted>");
}
