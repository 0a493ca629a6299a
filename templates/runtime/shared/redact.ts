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
const webhookPath = /(\/rest\/(?:api\/)?\d+\/)([^/\s?#"'`]+)(?=\/)/g;
const tokenParam = /([?&;\s"'](?:auth|access_token|refresh_token|token|code)=)([^&\s"'`#]+)/gi;
const jsonToken = /("(?:auth|access_token|refresh_token|code)"\s*:\s*")([^"]*)(")/gi;
const bearer = /(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi;

export const REDACTED = "<redacted>";

/** Secrets shorter than this are not searched for by value: they would mangle ordinary words. */
export const MIN_SECRET_LENGTH = 8;

export function redact(text: unknown, secrets: Iterable<string> = []): string {
  let out = String(text)
    .replace(webhookPath, `$1${REDACTED}`)
    .replace(tokenParam, `$1${REDACTED}`)
    .replace(jsonToken, `$1${REDACTED}$3`)
    .replace(bearer, `$1${REDACTED}`);
  for (const secret of secrets) {
    if (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH) continue;
    out = out.split(secret).join(REDACTED);
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) out = out.split(encoded).join(REDACTED);
  }
  return out;
}
