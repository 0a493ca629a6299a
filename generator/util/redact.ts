/**
 * Removes secrets from text that may reach a log, an error message or a snapshot: webhook codes in
 * `/rest/{user_id}/{code}/` paths, `auth`/`access_token`/`token`/`refresh_token` query or body values, and
 * bearer tokens. Written by hand because the rule is specific to this API's addressing forms.
 */
const webhookPath = /(\/rest\/(?:api\/)?\d+\/)([^/\s?#"'`]+)(?=\/)/g;
const tokenParam = /([?&;\s"'](?:auth|access_token|refresh_token|token|code)=)([^&\s"'`#]+)/gi;
const jsonToken = /("(?:auth|access_token|refresh_token)"\s*:\s*")([^"]*)(")/gi;
const bearer = /(Bearer\s+)[A-Za-z0-9._~+/=-]+/g;

export function redactSecrets(text: string): string {
  return text
    .replace(webhookPath, "$1<redacted>")
    .replace(tokenParam, "$1<redacted>")
    .replace(jsonToken, "$1<redacted>$3")
    .replace(bearer, "$1<redacted>");
}
