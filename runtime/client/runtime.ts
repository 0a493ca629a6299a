import type { ClientData, Version } from "../shared/data.js";
import { validKey } from "../shared/key.js";
import { redact } from "../shared/redact.js";
import { ApiError } from "./errors.js";
import { absolutize } from "./links.js";
import { DEFAULT_RETRY, type RetryPolicy } from "./policy.js";
import { attempt } from "./transport.js";
import { type BucketStore, THROTTLE_PRESETS, type Throttle, memoryBucket } from "./limits.js";
import type { AllOptions, BatchOptions, BatchOutcome, Bulk, CallOptions, CallResult, ClientOptions, Clock, CommandOutcome, Limits, MethodLimit, PageOptions, RetryEvent, Runtime, Session, TokenAuth, Tokens, WaitEvent, WebhookAuth } from "./types.js";

export type { AllOptions, BatchOptions, BatchOutcome, Bulk, CallOptions, CallResult, ClientOptions, Clock, CommandOutcome, Limits, MethodLimit, PageOptions, RetryEvent, Runtime, TokenAuth, Tokens, WaitEvent, WebhookAuth } from "./types.js";

/**
 * The client engine: addressing and authentication, the call loop (transport, retries, token refresh), idempotency
 * keys, paging and batches. Everything it knows of the API comes from `data` (the generated `methods.js`).
 */

















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
