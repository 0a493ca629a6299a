import type { ClientData, Version } from "../shared/data.js";
import { validKey } from "../shared/key.js";
import { redact } from "../shared/redact.js";
import { ApiError } from "./errors.js";
import { absolutize } from "./links.js";
import { DEFAULT_RETRY, type RetryPolicy } from "./policy.js";
import { attempt } from "./transport.js";
import { type BucketStore, THROTTLE_PRESETS, type Throttle, memoryBucket } from "./limits.js";
import type { Session } from "./recover.js";

/**
 * The client engine: addressing and authentication, the call loop (transport, retries, token refresh), idempotency
 * keys, paging and batches. Everything it knows of the API comes from `data` (the generated `methods.js`).
 */

/** Incoming webhook: the secret code travels in the URL path. */
export interface WebhookAuth {
  userId: number | string;
  code: string;
}

/** Application: the OAuth 2.0 access token travels in the body member `auth`. */
export interface TokenAuth {
  accessToken: string;
  /**
   * Renews the token when the API answers `expired_token`: the new access token, or the new pair. Calls that meet
   * the expiry together wait for one renewal (the platform issues a new refresh token each time, so a second
   * renewal would spend a used one; https://apidocs.bitrix24.com/settings/oauth/).
   */
  refresh?: () => Promise<string | Tokens>;
}

/** A renewed token pair, as the platform's OAuth server answers it. */
export interface Tokens {
  accessToken: string;
  refreshToken?: string;
  /** Seconds the access token lives. */
  expiresIn?: number;
}

/** Why a call waits before it is sent, and how long. */
export interface WaitEvent {
  method: string;
  /** `throttle`: the request-rate bucket is full; `operating`: the method's execution time is over its limit. */
  reason: "throttle" | "operating";
  delayMs: number;
}

/** A method's execution-time state: from the last successful answer's `time`, and a hold after `OPERATION_TIME_LIMIT`. */
export interface MethodLimit {
  operating: number | undefined;
  /** Ms since the epoch when the oldest minute of `operating` leaves the sum (`time.operating_reset_at`). */
  resetAt: number | undefined;
  /** Calls of the method wait until then (ms since the epoch). */
  heldUntil: number | undefined;
}

export interface Limits {
  throttle: { burst: number; drainPerSecond: number; level: number | undefined } | null;
  /** By `legacy:method` or `v3:method`. */
  methods: Record<string, MethodLimit>;
}

/** Time as the client sees it; tests pass their own clock. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface RetryEvent {
  method: string;
  attempt: number;
  delayMs: number;
  code: string;
}

export interface ClientOptions<A extends WebhookAuth | TokenAuth = WebhookAuth | TokenAuth> {
  /** The service address, `https://…`, without `/rest`. */
  baseUrl: string;
  auth: A;
  /** Allows an `http://` base URL, for local tests only. */
  allowInsecureHttp?: boolean;
  /**
   * Time-out of each attempt, its answer included, in ms. Default 15 s. `0` turns it off (and with it the bound of
   * `retry.maxTotalMs` on a stalled answer): each attempt then goes out without a signal of its own, which is
   * about 5% faster on loopback (bench/ab.mjs).
   */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  onRetry?: (event: RetryEvent) => void;
  /** Largest answer read, in bytes; a larger one is refused (`RESPONSE_TOO_LARGE`) and not buffered. Default 32 MiB. */
  maxResponseBytes?: number;
  /** Redirects are errors (`REDIRECT`, default); `same-origin` follows those that stay on the base URL's origin. */
  redirects?: "error" | "same-origin";
  /**
   * Methods that are safe to repeat after a reset, a time-out or an answer that is not JSON, beyond those the spec
   * says only read (and 3.0 calls carrying an `Idempotency-Key`). `false` takes a method out.
   */
  safeToRepeat?: { legacy?: Record<string, boolean>; v3?: Record<string, boolean> };
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
  /** Replaces Math.random for the backoff jitter (tests). */
  random?: () => number;
  /**
   * The request-rate bucket kept before sending: a preset of the documentation's thresholds (`standard`, the
   * default: 50 requests, draining 2 a second; `enterprise`: 250 and 5), your own numbers and store (to share one
   * counter between processes), or `false` to send at once. One bucket per base URL, shared by the client's calls.
   */
  throttle?: keyof typeof THROTTLE_PRESETS | Throttle | false;
  /** Called before each wait that the throttle or an operating-time hold imposes. */
  onWait?: (event: WaitEvent) => void;
  /** Called with each renewed token pair: store the new refresh token, the old one is spent. */
  onTokens?: (tokens: Tokens) => void;
  /** Replaces the clock and the timers (tests). */
  clock?: Clock;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Your own `Idempotency-Key` for 3.0 methods that honour it; default: a new UUID. */
  idempotencyKey?: string;
}

export interface CallResult<R, T = unknown> {
  result: R;
  /** The envelope's `time`; the generated package types it as the spec's `Time`. */
  time: T;
  response: Response;
  /** True when the server replayed a stored response (`Idempotent-Replayed: true`). */
  replayed: boolean;
  idempotencyKey: string | null | undefined;
  attempts: number;
  /** A legacy list page: where the next page starts (absent on the last) and how many records match, when sent. */
  next: number | undefined;
  total: number | undefined;
}

export interface PageOptions extends CallOptions {
  /** Pages at most; default 100. */
  maxPages?: number;
}

export interface AllOptions extends CallOptions {
  /** `false`: walk with `start` even where the method has an identifier cursor. */
  cursor?: boolean;
  /** Requests in flight when walking with `start` and the count is known; default 2. The cursor walks one at a time. */
  concurrency?: number;
  /** After each page: pages and records so far, and the count where the server sent one. */
  onProgress?: (progress: { pages: number; records: number; total: number | undefined }) => void;
  /** When `all` must replace a parameter of yours (the order, for the cursor); default `console.warn`. */
  onWarning?: (message: string) => void;
}

export interface BatchOptions extends CallOptions {
  /** Stop at the first failing command, in its request and for the requests after it. */
  halt?: boolean;
  /** Commands per request; default and most the documented 50 (settings/how-to-call-rest-api/batch.md). */
  maxCommands?: number;
}

/** One command's outcome: its result, or its error. */
export type CommandOutcome<R = unknown> = { ok: true; result: R } | { ok: false; error: ApiError };

export interface BatchOutcome {
  /** Every command that ran, by name, in the order given. A command after a halt did not run and is absent. */
  outcomes: Record<string, CommandOutcome>;
  results: Record<string, unknown>;
  errors: Record<string, ApiError>;
  /** The `time` of the last request. */
  time: unknown;
  /** Each request's `time` and `result`, in order: one request per `maxCommands` commands. */
  times: unknown[];
  raw: unknown[];
}

export { validKey };

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

const realSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** What the paging and batch module (bulk.ts) takes of a runtime. */
export interface Bulk {
  send: Runtime["send"];
  data: ClientData;
  webhook: boolean;
  appOnly: Set<string>;
  refuse(method: string): ApiError;
  /** The class itself: the module imports nothing of the runtime's values (no shared chunk). */
  ApiError: typeof ApiError;
  /** Makes the spec's link fields of a result absolute. */
  absolute(value: unknown): unknown;
  scrub(text: string): string;
}

export interface Runtime {
  send(method: string, version: Version, params?: unknown, options?: CallOptions): Promise<CallResult<unknown>>;
  paginate(method: string, params?: Record<string, unknown>, options?: PageOptions): AsyncGenerator<unknown>;
  all(method: string, params?: Record<string, unknown>, options?: AllOptions): AsyncGenerator<unknown[]>;
  batch(commands: Record<string, readonly [string, unknown?]>, options?: BatchOptions): Promise<BatchOutcome>;
  limits(): Limits;
  webhook: boolean;
}

export function createRuntime(options: ClientOptions, data: ClientData): Runtime {
  const base = String(options.baseUrl ?? "").replace(/\/+$/, "");
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new TypeError("baseUrl must be an absolute URL");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && options.allowInsecureHttp === true)) {
    throw new TypeError("baseUrl must be https (allowInsecureHttp: true allows http)");
  }
  const auth = options.auth as Partial<WebhookAuth & TokenAuth> | undefined;
  const webhook = Boolean(auth && "code" in auth);
  if (!auth || (webhook ? !auth.code || auth.userId === undefined : !auth.accessToken)) {
    throw new TypeError("auth must be { userId, code } (webhook) or { accessToken } (application)");
  }
  // The client's own credentials are taken out of every message, whatever the text around them.
  const secrets = new Set<string>([webhook ? String(auth.code) : String(auth.accessToken)]);
  const session: Session = { token: webhook ? undefined : auth.accessToken, round: 0, pending: undefined, last: undefined, secrets, auth: auth as TokenAuth, onTokens: options.onTokens };
  // Failure handling (error answers, retries, token renewal, operating-time holds) loads on the first failure.
  const recover = () => import("./recover.js");
  const scrub = (text: string) => redact(text, secrets);
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const random = options.random ?? Math.random;
  const linkFields = new Set(data.linkFields);
  const appOnly = { legacy: new Set(data.legacy.applicationContextOnly), v3: new Set(data.v3.applicationContextOnly) };
  const idempotent = new Set(data.v3.idempotencyKey);
  const readOnly = { legacy: new Set(data.legacy.readOnly), v3: new Set(data.v3.readOnly) };
  const clock: Clock = options.clock ?? { now: Date.now, sleep: realSleep };
  const preset = options.throttle ?? "standard";
  const throttle: Throttle | null = preset === false ? null : typeof preset === "string" ? THROTTLE_PRESETS[preset] : preset;
  const store: BucketStore = throttle?.store ?? memoryBucket();
  const methodLimits = new Map<string, MethodLimit>();
  const userAddress = webhook ? `/${encodeURIComponent(String(auth.userId))}/${encodeURIComponent(String(auth.code))}` : "";

  const address = (method: string, version: Version) =>
    `${base}${version === "v3" ? "/rest/api" : "/rest"}${userAddress}/${encodeURIComponent(method).replace(/%2A/g, "*")}`;

  const refuse = (method: string) =>
    new ApiError({ method, status: 0, code: data.retry.wrongAuthType, description: "needs an application context, not a webhook" });

  const safeToRepeat = (method: string, version: Version, key: string | undefined): boolean =>
    options.safeToRepeat?.[version]?.[method] ?? (readOnly[version].has(method) || (version === "v3" && key !== undefined));

  async function send(method: string, version: Version, params?: unknown, callOptions: CallOptions = {}): Promise<CallResult<unknown>> {
    if (webhook && appOnly[version].has(method)) throw refuse(method);
    let key: string | undefined;
    if (version === "v3" && idempotent.has(method)) {
      key = callOptions.idempotencyKey ?? globalThis.crypto.randomUUID();
      const r = data.idempotencyKey;
      if (!validKey(key, r)) throw new TypeError(`idempotencyKey must be ${r.minLength} to ${r.maxLength} printable ASCII characters`);
    }
    const started = clock.now();
    const limitKey = `${version}:${method}`;
    let refreshed = false;
    const timeoutMs = callOptions.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json" };
    if (key) headers["Idempotency-Key"] = key;
    const safe = safeToRepeat(method, version, key);
    for (let attemptNo = 1; ; attemptNo++) {
      await gate(method, limitKey, started, callOptions.signal);
      const used = session.token;
      const round = session.round;
      const body = JSON.stringify(webhook ? (params ?? {}) : { ...(params as object), auth: used });
      let error: ApiError;
      let retryAfterMs: number | undefined;
      try {
        const remaining = policy.maxTotalMs - (clock.now() - started);
        const answer = await attempt({
          method,
          url: address(method, version),
          body,
          headers,
          fetch: fetchImpl,
          signal: callOptions.signal,
          timeoutMs: timeoutMs === 0 ? 0 : Math.max(1, Math.min(timeoutMs, remaining)),
          maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
          redirects: options.redirects ?? "error",
          scrub,
        });
        let json: unknown;
        try {
          json = answer.text ? JSON.parse(answer.text) : undefined;
        } catch {
          json = undefined;
        }
        const j = json as { result?: unknown; time?: unknown; error?: unknown; next?: number; total?: number } | undefined;
        if (answer.response.ok && j && typeof j === "object" && "result" in j && !("error" in j)) {
          noteOperating(limitKey, j.time);
          return {
            result: absolutize(j.result, base, linkFields),
            time: j.time,
            response: answer.response,
            replayed: answer.headers.get("Idempotent-Replayed") === "true",
            idempotencyKey: answer.headers.get("Idempotency-Key") ?? key,
            attempts: attemptNo,
            next: j.next,
            total: j.total,
          };
        }
        const r = await recover();
        error = r.errorFrom(method, answer.status, json, version, scrub, data.retry.unexpectedAnswer);
        retryAfterMs = r.parseRetryAfter(answer.headers.get("Retry-After"), clock.now());
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        error = err;
      }
      if (error.code === data.retry.expiredToken && !webhook && auth?.refresh && !refreshed) {
        refreshed = true;
        await (await recover()).renew(session, round);
        attemptNo--;
        continue;
      }
      if (error.code === data.retry.operationTimeLimit) {
        const until = (await recover()).holdUntil(limitOf(limitKey), clock.now(), error.time);
        retryAfterMs = Math.max(retryAfterMs ?? 0, until - clock.now());
      }
      const decision = (await recover()).retryDecision({ attempt: attemptNo, error, safe, elapsedMs: clock.now() - started, now: clock.now(), retryAfterMs }, policy, data, random);
      // The error was made for this call: it takes the moment to retry at, when there is one.
      if (!decision.retry) throw decision.retryAt === undefined ? error : Object.assign(error, { retryAt: decision.retryAt });
      options.onRetry?.({ method, attempt: attemptNo, delayMs: decision.delayMs, code: error.code });
      await clock.sleep(decision.delayMs, callOptions.signal);
    }
  }

  /**
   * Waits before an attempt: until the method's operating-time hold ends, then for a place in the request-rate
   * bucket. Each wait counts against `retry.maxTotalMs`; one that would end past it fails the call at once.
   */
  async function gate(method: string, limitKey: string, started: number, signal?: AbortSignal): Promise<void> {
    const held = methodLimits.get(limitKey)?.heldUntil;
    let now = clock.now();
    if (held !== undefined && held > now) {
      if (held - started > policy.maxTotalMs) throw early(method, data.retry.operationTimeLimit, "held until its operating time resets", held);
      options.onWait?.({ method, reason: "operating", delayMs: held - now });
      await clock.sleep(held - now, signal);
      now = clock.now();
    }
    if (!throttle) return;
    const wait = await store.take(base, now, throttle.burst, throttle.drainPerSecond);
    if (wait <= 0) return;
    try {
      if (now - started + wait > policy.maxTotalMs) throw early(method, data.retry.queryLimit, "rate bucket full", now + wait);
      options.onWait?.({ method, reason: "throttle", delayMs: wait });
      await clock.sleep(wait, signal);
    } catch (err) {
      // A call that is not sent (past its budget, or aborted while it waited) gives its place back.
      store.give?.(base);
      throw err;
    }
  }

  /** A call that is not sent because its wait would end past its budget. */
  const early = (method: string, code: string, description: string, retryAt: number) => new ApiError({ method, status: 0, code, description, retryAt });

  const limitOf = (key: string): MethodLimit => {
    let l = methodLimits.get(key);
    if (!l) methodLimits.set(key, (l = { operating: undefined, resetAt: undefined, heldUntil: undefined }));
    return l;
  };

  /** A successful answer's `time.operating` and `operating_reset_at` (seconds), kept per method. */
  function noteOperating(key: string, time: unknown): void {
    const t = time as { operating?: unknown; operating_reset_at?: unknown } | undefined;
    if (!t || typeof t.operating_reset_at !== "number") return;
    const l = limitOf(key);
    l.resetAt = t.operating_reset_at * 1000;
    l.operating = typeof t.operating === "number" ? t.operating : undefined;
    if (l.heldUntil !== undefined && l.heldUntil <= clock.now()) l.heldUntil = undefined;
  }

  function limits(): Limits {
    const methods: Record<string, MethodLimit> = {};
    for (const [k, v] of methodLimits) methods[k] = { ...v };
    return {
      throttle: throttle ? { burst: throttle.burst, drainPerSecond: throttle.drainPerSecond, level: store.level?.(base, clock.now(), throttle.drainPerSecond) } : null,
      methods,
    };
  }

  // Paging and batches load on first use: a program that only calls methods does not carry them, and
  // bundlers put them in a chunk of their own.
  const bulk: Bulk = { send, data, webhook, appOnly: appOnly.legacy, refuse, ApiError, absolute: (v) => absolutize(v, base, linkFields), scrub };
  const load = () => import("./bulk.js");
  async function* paginate(method: string, params?: Record<string, unknown>, pageOptions?: PageOptions): AsyncGenerator<unknown> {
    yield* (await load()).paginate(bulk, method, params, pageOptions);
  }
  async function* all(method: string, params?: Record<string, unknown>, allOptions?: AllOptions): AsyncGenerator<unknown[]> {
    yield* (await load()).all(bulk, method, params, allOptions);
  }
  const batch = async (commands: Record<string, readonly [string, unknown?]>, batchOptions?: BatchOptions) => (await load()).batch(bulk, commands, batchOptions);

  return { send, paginate, all, batch, limits, webhook };
}
