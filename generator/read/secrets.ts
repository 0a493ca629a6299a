import { type Diagnostic, diagnostic } from "../diagnostics/catalogue.js";
import { type SpecFile, spanOf } from "../parse/markdown.js";

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

export function findQuotedSecrets(file: SpecFile): { secrets: string[]; diagnostics: Diagnostic[] } {
  const secrets = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  for (const { kind, pattern } of SHAPES) {
    for (const m of file.text.matchAll(pattern)) {
      const value = m[1] ?? "";
      if (isPlaceholder(value)) continue;
      secrets.add(value);
      const start = (m.index ?? 0) + m[0].lastIndexOf(value);
      diagnostics.push(diagnostic("secret-in-spec", spanOf(file, start, start + value.length), { kind }));
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
