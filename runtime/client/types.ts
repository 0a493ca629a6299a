/**
 * The client's public types: its options, what calls resolve to, and what the runtime hands its lazily loaded
 * modules (bulk.ts, recover.ts). Types only, imported by runtime.ts, bulk.ts and recover.ts, so that no two of those
 * import each other.
 */
import type { ClientData, Version } from "../shared/data.js";
import type { ApiError } from "./errors.js";
import type { RetryPolicy } from "./policy.js";
import type { BucketStore, THROTTLE_PRESETS, Throttle } from "./limits.js";

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

/** The token state a runtime shares with its renewals (recover.ts). */
export interface Session {
  token: string | undefined;
  /** Renewals settled so far; each attempt notes the count it was sent under. */
  round: number;
  /** The renewal under way. */
  pending: Promise<string | undefined> | undefined;
  /** The latest renewal, settled or not. */
  last: Promise<string | undefined> | undefined;
  secrets: Set<string>;
  auth: TokenAuth;
  onTokens: ((tokens: Tokens) => void) | undefined;
}
