import type { ClientData } from "../shared/data.js";
import type { ApiError } from "./errors.js";
import type { RetryPolicy } from "./policy.js";

export { DEFAULT_RETRY, type RetryPolicy } from "./policy.js";

/**
 * When a failed attempt is tried again, and after how long. Pure: the transport loop passes the clock and the
 * random source, and a test drives the schedule with its own.
 *
 * - An error code the spec says to retry is retried: the server answered, so it did not run the call
 *   (`QUERY_LIMIT_EXCEEDED`, `OPERATION_TIME_LIMIT`) or says to retry (`INTERNAL_SERVER_ERROR`).
 * - A call that got no usable answer (a reset, a time-out, an HTML 502) is retried only when it is safe to
 *   repeat: a method the spec says only reads, or a 3.0 call that carries an `Idempotency-Key`.
 * - The wait is full-jitter exponential backoff; `Retry-After` raises it; `OPERATION_TIME_LIMIT` waits for
 *   `time.operating_reset_at`, or the base delay when that is past or missing (no busy loop).
 * - Every wait counts against `maxTotalMs`: when a wait would end past it, the call fails at once, and an
 *   operating-time reset is given as `retryAt`.
 */


export type RetryDecision = { retry: true; delayMs: number } | { retry: false; retryAt?: number };

export interface RetryInput {
  /** The attempt that just failed, 1 for the first. */
  attempt: number;
  error: ApiError;
  /** The call may be repeated after an unclear outcome. */
  safe: boolean;
  /** Ms since the call started. */
  elapsedMs: number;
  now: number;
  /** From a `Retry-After` header, in ms from now. */
  retryAfterMs?: number | undefined;
}

export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * cap);
}

/** `Retry-After` as seconds or an HTTP date, in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function operatingResetAt(error: ApiError): number | undefined {
  const time = error.time;
  if (time && typeof time === "object" && "operating_reset_at" in time) {
    const at = (time as { operating_reset_at: unknown }).operating_reset_at;
    if (typeof at === "number" && Number.isFinite(at)) return at * 1000;
  }
  return undefined;
}

export function retryDecision(input: RetryInput, policy: RetryPolicy, data: ClientData, random: () => number): RetryDecision {
  const { error } = input;
  // An answer that is not the API's JSON, or none at all: the call may have run.
  const retryable = error.unclear ? input.safe : data.retry.codes.includes(error.code);
  if (!retryable || input.attempt >= policy.maxAttempts) return { retry: false };
  let delayMs = backoffMs(input.attempt, policy, random);
  let resetAt: number | undefined;
  if (error.code === data.retry.operationTimeLimit) {
    resetAt = operatingResetAt(error);
    // A reset already past (or not given) still waits the base delay: no busy loop against the limit.
    delayMs = resetAt !== undefined && resetAt > input.now ? resetAt - input.now : Math.max(delayMs, policy.baseDelayMs);
  }
  if (input.retryAfterMs !== undefined) delayMs = Math.max(delayMs, input.retryAfterMs);
  if (input.elapsedMs + delayMs > policy.maxTotalMs) {
    return resetAt !== undefined || input.retryAfterMs !== undefined ? { retry: false, retryAt: input.now + delayMs } : { retry: false };
  }
  return { retry: true, delayMs };
}
