/**
 * The platform's request-rate limit, kept before sending. The platform counts requests per portal in a
 * leaky bucket: each request adds one, the counter drains by `Y` a second, and past `X` the next request is refused
 * with `QUERY_LIMIT_EXCEEDED` (https://apidocs.bitrix24.com/limits.html, "Request Rate Limits": X = 50, Y = 2 on most
 * plans; X = 250, Y = 5 on Enterprise). The spec shows no numbers, so these are presets and options.
 *
 * Written by hand: a bucket is a few lines, and a library would add to a bundle that stays under 5 KB.
 */

/** The counter of a portal, which several clients (or processes, through a shared store) may share. */
export interface BucketStore {
  /**
   * Adds one request to the counter of `key` at `now` (ms) and returns how long to wait before sending it, in ms:
   * 0 while the counter stays within `burst`. The request counts from the moment it is taken, so that calls made
   * together queue one behind the other.
   */
  take(key: string, now: number, burst: number, drainPerSecond: number): number | Promise<number>;
  /** The counter's level at `now`, for `client.limits()`; optional for stores that cannot tell it cheaply. */
  level?(key: string, now: number, drainPerSecond: number): number;
  /** Gives back the place of a request that was taken but not sent (its wait ran past the call's budget). */
  give?(key: string): void;
}

export interface Throttle {
  /** Requests the counter takes before it refuses (`X`). */
  burst: number;
  /** Requests it drains a second (`Y`). */
  drainPerSecond: number;
  store?: BucketStore;
}

/** The documentation's thresholds (limits.md): `standard` for most plans, `enterprise` for Enterprise. */
export const THROTTLE_PRESETS = {
  standard: { burst: 50, drainPerSecond: 2 },
  enterprise: { burst: 250, drainPerSecond: 5 },
} as const;

/** An in-process store: one counter per key. */
export function memoryBucket(): BucketStore {
  const counters = new Map<string, { level: number; at: number }>();
  const level = (key: string, now: number, drain: number) => {
    const c = counters.get(key);
    return c ? Math.max(0, c.level - ((now - c.at) / 1000) * drain) : 0;
  };
  return {
    take(key, now, burst, drain) {
      const next = level(key, now, drain) + 1;
      counters.set(key, { level: next, at: now });
      return next <= burst ? 0 : Math.ceil(((next - burst) / drain) * 1000);
    },
    level,
    give(key) {
      const c = counters.get(key);
      if (c) c.level = Math.max(0, c.level - 1);
    },
  };
}
