import type { ClientData, Version } from "../shared/data.js";
import { validKey } from "../shared/key.js";
import { redact } from "../shared/redact.js";
import { ApiError, errorFrom } from "./errors.js";
import { absolutize } from "./links.js";
import { toQuery } from "./query.js";
import { DEFAULT_RETRY, type RetryPolicy, parseRetryAfter, retryDecision } from "./retry.js";
import { attempt } from "./transport.js";

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
  /** Called once when the API answers `expired_token`; returns the new access token. */
  refresh?: () => Promise<string>;
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

export interface BatchOptions extends CallOptions {
  halt?: boolean;
  maxCommands?: number;
}

export interface BatchOutcome {
  results: Record<string, unknown>;
  errors: Record<string, ApiError>;
  time: unknown;
  raw: unknown;
}

export { validKey };

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
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

export interface Runtime {
  send(method: string, version: Version, params?: unknown, options?: CallOptions): Promise<CallResult<unknown>>;
  paginate(method: string, params?: Record<string, unknown>, options?: PageOptions): AsyncGenerator<unknown>;
  batch(commands: Record<string, readonly [string, unknown?]>, options?: BatchOptions): Promise<BatchOutcome>;
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
    throw new TypeError("baseUrl must use https; allowInsecureHttp: true allows http for local tests");
  }
  const auth = options.auth as Partial<WebhookAuth & TokenAuth> | undefined;
  const webhook = Boolean(auth && "code" in auth);
  if (!auth || (webhook ? !auth.code || auth.userId === undefined : !auth.accessToken)) {
    throw new TypeError("auth must be { userId, code } (webhook) or { accessToken } (application)");
  }
  let accessToken = webhook ? undefined : auth.accessToken;
  // The client's own credentials are taken out of every message, whatever the text around them.
  const secrets = new Set<string>([webhook ? String(auth.code) : String(accessToken)]);
  const scrub = (text: string) => redact(text, secrets);
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const random = options.random ?? Math.random;
  const linkFields = new Set(data.linkFields);
  const appOnly = { legacy: new Set(data.legacy.applicationContextOnly), v3: new Set(data.v3.applicationContextOnly) };
  const idempotent = new Set(data.v3.idempotencyKey);
  const readOnly = { legacy: new Set(data.legacy.readOnly), v3: new Set(data.v3.readOnly) };
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
    const started = Date.now();
    let refreshed = false;
    const timeoutMs = callOptions.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json" };
    if (key) headers["Idempotency-Key"] = key;
    const safe = safeToRepeat(method, version, key);
    for (let attemptNo = 1; ; attemptNo++) {
      const body = JSON.stringify(webhook ? (params ?? {}) : { ...(params as object), auth: accessToken });
      let error: ApiError;
      let retryAfterMs: number | undefined;
      try {
        const remaining = policy.maxTotalMs - (Date.now() - started);
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
        if (answer.status >= 200 && answer.status < 300 && j && typeof j === "object" && "result" in j && !("error" in j)) {
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
        error = errorFrom(method, answer.status, json, version, scrub, data.retry.unexpectedAnswer);
        retryAfterMs = parseRetryAfter(answer.headers.get("Retry-After"), Date.now());
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        error = err;
      }
      if (error.code === data.retry.expiredToken && !webhook && auth?.refresh && !refreshed) {
        refreshed = true;
        accessToken = await auth.refresh();
        secrets.add(String(accessToken));
        attemptNo--;
        continue;
      }
      const decision = retryDecision({ attempt: attemptNo, error, safe, elapsedMs: Date.now() - started, now: Date.now(), retryAfterMs }, policy, data, random);
      if (!decision.retry) {
        if (decision.retryAt !== undefined) {
          throw new ApiError({
            method,
            status: error.status,
            code: error.code,
            description: error.description,
            argument: error.argument,
            details: error.details,
            time: error.time,
            retryAt: decision.retryAt,
          });
        }
        throw error;
      }
      options.onRetry?.({ method, attempt: attemptNo, delayMs: decision.delayMs, code: error.code });
      await sleep(decision.delayMs, callOptions.signal);
    }
  }

  async function* paginate(method: string, params: Record<string, unknown> = {}, pageOptions: PageOptions = {}): AsyncGenerator<unknown> {
    const maxPages = pageOptions.maxPages ?? 100;
    let start = Number(params.start ?? 0);
    for (let page = 0; page < maxPages; page++) {
      const { result, next, total } = await send(method, "legacy", { ...params, start }, pageOptions);
      const items = Array.isArray(result) ? result : [];
      for (const item of items) yield item;
      // The spec does not show the members that continue paging; the platform sends `next` where the next page
      // starts, and no `next` beside a `total` on the last page. A server that sends neither: a short page is the last.
      if (next === undefined && (total !== undefined || items.length < data.pageSize)) return;
      start = next ?? start + items.length;
    }
  }

  async function batch(commands: Record<string, readonly [string, unknown?]>, batchOptions: BatchOptions = {}): Promise<BatchOutcome> {
    const names = Object.keys(commands);
    const max = batchOptions.maxCommands ?? data.batchMaxCommands;
    if (names.length === 0 || names.length > max) throw new RangeError(`a batch takes 1 to ${max} commands`);
    const cmd: Record<string, string> = {};
    for (const name of names) {
      const [method, params] = commands[name] ?? ["", undefined];
      if (webhook && appOnly.legacy.has(method)) throw refuse(method);
      const q = toQuery((params ?? {}) as Record<string, unknown>);
      cmd[name] = q ? `${method}?${q}` : method;
    }
    const { result, time, response } = await send(data.batchMethod, "legacy", { halt: batchOptions.halt ? 1 : 0, cmd }, batchOptions);
    const results: Record<string, unknown> = {};
    const errors: Record<string, ApiError> = {};
    const r = (result ?? {}) as { result?: unknown; result_error?: unknown };
    const ok = (r.result && typeof r.result === "object" ? r.result : {}) as Record<string, unknown>;
    const failed = (r.result_error && typeof r.result_error === "object" ? r.result_error : {}) as Record<string, { error?: unknown; error_description?: unknown }>;
    for (const name of names) {
      if (Object.hasOwn(failed, name)) {
        const e = failed[name];
        errors[name] = new ApiError({
          method: commands[name]?.[0] ?? name,
          status: response.status,
          code: scrub(String(e?.error ?? "")),
          description: scrub(String(e?.error_description ?? "")),
        });
      } else if (Object.hasOwn(ok, name)) results[name] = absolutize(ok[name], base, linkFields);
    }
    return { results, errors, time, raw: result };
  }

  return { send, paginate, batch, webhook };
}
