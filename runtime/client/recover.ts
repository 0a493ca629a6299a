import type { MethodLimit, Session, TokenAuth, Tokens } from "./types.js";

export type { Session } from "./types.js";

export { retryDecision, parseRetryAfter } from "./retry.js";
export { errorFrom } from "./failure.js";

/**
 * What a call does when it fails: read the error of the answer, decide on a retry, renew an expired token, hold a
 * method over its execution-time limit. Loaded by the runtime on the first failure (a dynamic import), so that a
 * program whose calls succeed does not carry it.
 */

/**
 * One renewal for every call that met the expiry: a call joins the renewal under way, or takes the outcome of one
 * that settled after the call's attempt went out (the new token, or its error: a failed renewal fails each such
 * call once). Only a call sent after the latest renewal settled starts the next one. The platform issues a new
 * refresh token on each renewal and the old one is spent (https://apidocs.bitrix24.com/settings/oauth/), so a second
 * renewal from the same token would fail; the new pair goes to `onTokens`.
 */
export function renew(s: Session, round: number): Promise<string | undefined> {
  if (s.pending) return s.pending;
  if (s.last && round < s.round) return s.last;
  const p = (async () => {
    const got = await s.auth.refresh?.();
    const tokens: Tokens = typeof got === "string" ? { accessToken: got } : (got as Tokens);
    s.token = tokens.accessToken;
    s.secrets.add(String(s.token));
    if (tokens.refreshToken) s.secrets.add(tokens.refreshToken);
    s.onTokens?.(tokens);
    return s.token;
  })();
  s.pending = s.last = p;
  p.then(
    () => settle(s),
    () => settle(s),
  );
  return p;
}

function settle(s: Session): void {
  s.round++;
  s.pending = undefined;
}

/**
 * `OPERATION_TIME_LIMIT`: the method (only it) is held until the reset the last successful answer gave; if the
 * error persists after a hold, until the next minute's reset, as the execution time is kept in one-minute baskets
 * (https://apidocs.bitrix24.com/limits.html, "How to Respond to Limit Errors"). Without a known reset: the error's own,
 * else one minute. Returns the end of the hold (ms since the epoch) and records it on `limit`.
 */
export function holdUntil(limit: MethodLimit, now: number, errorTime: unknown): number {
  const own = (errorTime as { operating_reset_at?: unknown } | undefined)?.operating_reset_at;
  const held = limit.heldUntil;
  limit.heldUntil =
    held !== undefined
      ? // A refusal of a call sent during the hold keeps it; one after it ends waits for the next minute's reset.
        held > now
        ? held
        : held + 60_000 * Math.max(1, Math.ceil((now - held) / 60_000))
      : limit.resetAt !== undefined && limit.resetAt > now
        ? limit.resetAt
        : typeof own === "number" && own * 1000 > now
          ? own * 1000
          : now + 60_000;
  return limit.heldUntil;
}
