/**
 * The default limiter: a request rate per caller (token bucket) and the accumulated execution time per caller and
 * method in a window. The spec does not show the numeric thresholds: without options nothing is limited and the
 * limiter only accounts `time.operating`. The codes it answers with come from the generated data.
 */

export type Admission = { allowed: true } | { allowed: false; reason: "rate" | "operating"; operating: number; resetAt: number };

export interface Limiter {
  /**
   * `rate: false` for the inner calls of a batch: the batch took the request's token. A limiter whose request
   * rate lives in a shared store (`rateStore`) answers with a promise.
   */
  admit(caller: string, method: string, options?: { rate?: boolean }): Admission | Promise<Admission>;
  account(caller: string, method: string, seconds: number): { operating: number; resetAt: number };
  usage(caller: string, method: string): { operating: number; resetAt: number };
}

/**
 * Where the request-rate buckets live when several instances share them (the Redis store of `…-server/redis`).
 * `take` removes one token from `key`'s bucket at `now` (ms) and says whether there was one.
 */
export interface RateStore {
  take(key: string, now: number, burst: number, perSecond: number): Promise<boolean>;
}

export interface LimiterOptions {
  requestsPerSecond?: number;
  burst?: number;
  /** Buckets shared by instances; without it each instance counts on its own. It fails open. */
  rateStore?: RateStore;
  /** Told once per outage of the `rateStore`, when requests are let through uncounted. */
  onStoreError?: (err: unknown) => void;
  operatingLimitSeconds?: number;
  windowSeconds?: number;
  now?: () => number;
}

const ALLOWED: Admission = Object.freeze({ allowed: true });
/** Callers and windows kept at most: the oldest go first. */
const CAP = 100_000;

/** A limiter that counts in this process: it answers at once. */
export interface LocalLimiter extends Limiter {
  admit(caller: string, method: string, options?: { rate?: boolean }): Admission;
}

export function createLimiter(options: LimiterOptions & { rateStore: RateStore }): Limiter;
export function createLimiter(options?: LimiterOptions & { rateStore?: undefined }): LocalLimiter;
export function createLimiter(options: LimiterOptions = {}): Limiter {
  const requestsPerSecond = options.requestsPerSecond ?? Number.POSITIVE_INFINITY;
  const burst = options.burst ?? requestsPerSecond;
  const operatingLimitSeconds = options.operatingLimitSeconds ?? Number.POSITIVE_INFINITY;
  const windowSeconds = options.windowSeconds ?? 600;
  const now = options.now ?? Date.now;
  const buckets = new Map<string, { tokens: number; at: number }>();
  const usage = new Map<string, { operating: number; resetAt: number }>();
  const trim = (m: Map<string, unknown>) => {
    while (m.size > CAP) {
      const first = m.keys().next().value;
      if (first === undefined) break;
      m.delete(first);
    }
  };
  const operatingCheck = (caller: string, method: string): Admission => {
    if (Number.isFinite(operatingLimitSeconds)) {
      const u = limiter.usage(caller, method);
      if (u.operating >= operatingLimitSeconds) return { allowed: false, reason: "operating", ...u };
    }
    return ALLOWED;
  };
  let storeDown = false;
  const shared = async (caller: string, method: string, t: number): Promise<Admission> => {
    let allowed = true;
    try {
      allowed = await (options.rateStore as RateStore).take(caller, t, burst, requestsPerSecond);
      storeDown = false;
    } catch (err) {
      // Fails open: an outage of the shared store must not stop the API; one notice per outage.
      if (!storeDown) options.onStoreError?.(err);
      storeDown = true;
    }
    if (!allowed) return { allowed: false, reason: "rate", ...limiter.usage(caller, method) };
    return operatingCheck(caller, method);
  };
  const limiter: Limiter = {
    admit(caller, method, admitOptions) {
      const t = now();
      if (Number.isFinite(requestsPerSecond) && admitOptions?.rate !== false) {
        if (options.rateStore) return shared(caller, method, t);
        const b = buckets.get(caller) ?? { tokens: burst, at: t };
        b.tokens = Math.min(burst, b.tokens + ((t - b.at) / 1000) * requestsPerSecond);
        b.at = t;
        buckets.delete(caller);
        buckets.set(caller, b);
        trim(buckets);
        if (b.tokens < 1) return { allowed: false, reason: "rate", ...limiter.usage(caller, method) };
        b.tokens -= 1;
      }
      return operatingCheck(caller, method);
    },
    account(caller, method, seconds) {
      const key = `${caller}\u0000${method}`;
      const t = now();
      const u = usage.get(key);
      if (u && u.resetAt * 1000 > t) {
        u.operating += seconds;
        return u;
      }
      // A new window: the entry moves to the end, so that the oldest windows are the first trimmed.
      const next = { operating: seconds, resetAt: Math.floor(t / 1000) + windowSeconds };
      usage.delete(key);
      usage.set(key, next);
      trim(usage);
      return next;
    },
    usage(caller, method) {
      const u = usage.get(`${caller}\u0000${method}`);
      const t = now();
      if (!u || u.resetAt * 1000 <= t) return { operating: 0, resetAt: Math.floor(t / 1000) + windowSeconds };
      return u;
    },
  };
  return limiter;
}
