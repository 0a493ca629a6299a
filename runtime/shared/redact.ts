/**
 * Removes secrets from text that may reach a log, an error message or a snapshot. One copy serves the generator
 * (diagnostics quoting the spec) and both runtimes (client errors, server logs). Written by hand: the rules are
 * this API's addressing forms, which no library knows.
 *
 * Two layers:
 * - shapes: a webhook code in a `/rest/{user}/{code}/` path, values of `auth`, `access_token`, `refresh_token`,
 *   `token` and `code` in a query or form body, the same members in JSON, and `Bearer` tokens;
 * - known values: the credentials of the request or client at hand, wherever and however they appear (also
 *   URL-encoded), since a handler may quote them in any form.
 */
/**
 * The shapes every copy needs, the client's one-call program too (kept under 5 KB gzipped): a webhook code in a
 * `/rest/{user}/{code}/` path, `auth`, `access_token`, `refresh_token`, `token` and `code` in a query, a form body
 * or JSON, and `Bearer` tokens. Literals, so that a bundler can drop what a program does not use.
 */
const SHAPES: ReadonlyArray<RegExp> = [
  /(\/rest\/(?:api\/)?\d+\/)[^/\s?#"'`]+(?=\/)/g,
  /([?&;\s"'](?:auth|access_token|refresh_token|token|code)=)[^&\s"'`#]+/gi,
  /("(?:auth|access_token|refresh_token|code)"\s*:\s*")[^"]*(?=")/gi,
  /(Bearer\s+)[\w.~+/=-]+/gi,
];

/**
 * The other credential shapes the platform's documentation names, for server logs and the generator's messages
 * (`redactAll`): `application_token`, `client_secret`, a password or secret, a credential member at the very start
 * of the text, and `token x` where x is 8 characters or more and holds a digit (so that "a token bucket" and
 * "token 2 of 3" stay as written).
 */
const MORE_SHAPES: ReadonlyArray<RegExp> = [
  /((?:^|[?&;\s"'(])(?:auth|access_token|refresh_token|application_token|client_secret|token|code|passw(?:or)?d|secret)=)[^&\s"'`#)]+/gi,
  /("(?:application_token|client_secret|token|passw(?:or)?d|secret)"\s*:\s*")[^"]*(?=")/gi,
  /(\btoken:?\s+(?=[\w.~+/=-]*\d))[\w.~+/=-]{8,}/gi,
];

export const REDACTED = "<redacted>";

/** Secrets of this length or more are searched for anywhere by value; shorter ones only as whole words. */
export const MIN_SECRET_LENGTH = 8;

/**
 * The text with every credential taken out: the shapes above, and each known secret of the request or client at
 * hand. A secret of 8 characters or more goes wherever it appears (also URL-encoded); a shorter one (a webhook code
 * of 5 characters) only as a whole word, bounded by characters that are not letters, digits or `_` (error codes join
 * words with `_`), so that it never mangles a longer word that holds it (`short code c0d3x failed` was
 * logged as it was).
 */
export function redact(text: unknown, secrets: Iterable<string> = []): string {
  let out = String(text);
  for (const shape of SHAPES) out = out.replace(shape, `$1${REDACTED}`);
  for (const secret of secrets) {
    if (!secret) continue;
    // Every non-word character escaped, which a pattern without the `u` flag reads as the character itself. A
    // duplicate form (nothing to encode) replaces nothing the second time. `secret[7]` is there from 8 characters on
    // (MIN_SECRET_LENGTH; the shorter test keeps the one-call client under 5 KB gzipped).
    for (const form of [secret, encodeURIComponent(secret)]) {
      const escaped = form.replace(/\W/g, "\\$&");
      out = out.replace(new RegExp(secret[7] ? escaped : `(?<!\\w)${escaped}(?!\\w)`, "g"), REDACTED);
    }
  }
  return out;
}

/** `redact`, and the other credential shapes the platform documents: for server logs and the generator's messages. */
export function redactAll(text: unknown, secrets: Iterable<string> = []): string {
  let out = String(text);
  for (const shape of MORE_SHAPES) out = out.replace(shape, `$1${REDACTED}`);
  return redact(out, secrets);
}

/** A text as one line of a log: control characters and line separators (a line break would start a forged line) as `\u` escapes. */
export function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
