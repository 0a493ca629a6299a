/** The retry policy of a client, apart from the retry logic (retry.ts), which loads on the first failure. */

export interface RetryPolicy {
  /** Attempts in all, the first included. Default 4. */
  maxAttempts: number;
  /** First backoff cap; doubles each attempt, with full jitter. Default 500 ms. */
  baseDelayMs: number;
  /** Largest backoff. Default 10 s. */
  maxDelayMs: number;
  /** The whole call, waits and a stalled response included. Default 30 s. */
  maxTotalMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 10_000, maxTotalMs: 30_000 };
