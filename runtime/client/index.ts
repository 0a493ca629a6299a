import type { ClientData, Version } from "../shared/data.js";
import { ApiError, isApiError } from "./errors.js";
import { type CallOptions, type CallResult, type ClientOptions, createRuntime } from "./runtime.js";

export { ApiError, TransportError, TRANSPORT_CODES, isApiError, type ApiErrorInit, type TransportCode } from "./errors.js";
export { redact } from "../shared/redact.js";
export { toQuery } from "./query.js";
export { DEFAULT_RETRY, type RetryPolicy } from "./policy.js";
export { THROTTLE_PRESETS, memoryBucket, type BucketStore, type Throttle } from "./limits.js";
export {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  createRuntime,
  type AllOptions,
  type BatchOptions,
  type BatchOutcome,
  type CallOptions,
  type Clock,
  type CommandOutcome,
  type Limits,
  type MethodLimit,
  type Tokens,
  type WaitEvent,
  type CallResult,
  type ClientOptions,
  type PageOptions,
  type RetryEvent,
  type Runtime,
  type TokenAuth,
  type WebhookAuth,
} from "./runtime.js";
export type { ClientData } from "../shared/data.js";

/** A type guard per error code: `is.QUERY_LIMIT_EXCEEDED(error)`. */
export const is: Record<string, (error: unknown) => boolean> = /* @__PURE__ */ new Proxy(
  {},
  { get: (_t, code) => (typeof code === "string" ? (error: unknown) => isApiError(error, code) : undefined) },
);

/** Members of the client that a method namespace must not shadow, and names a Promise check looks for. */
const RESERVED = new Set(["call", "request", "paginate", "all", "batch", "limits", "v3", "then", "catch", "finally", "toJSON"]);

type Send = (method: string, params?: unknown, options?: CallOptions) => Promise<CallResult<unknown>>;

/**
 * `client.tasks.task.get(params)`: each property step adds a segment of the method name; calling it sends the
 * method, `.withResponse(params)` resolves to the envelope too. A Proxy keeps the method list out of the bundle:
 * the generated types say which names exist.
 */
function namespace(send: Send, path: string[]): unknown {
  const call = (params?: unknown, options?: CallOptions) => send(path.join("."), params, options).then((r) => r.result);
  return new Proxy(call, {
    get(_target, key) {
      if (typeof key !== "string") return undefined;
      if (key === "withResponse") return (params?: unknown, options?: CallOptions) => send(path.join("."), params, options);
      if (RESERVED.has(key)) return undefined;
      return namespace(send, [...path, key]);
    },
  });
}

function root(send: Send, members: Record<string, unknown>): unknown {
  return new Proxy(members, {
    get(target, key) {
      if (typeof key !== "string" || key in target) return target[key as string];
      if (RESERVED.has(key)) return undefined;
      return namespace(send, [key]);
    },
  });
}

/**
 * A client of the API. `auth` is a webhook (`{ userId, code }`) or an application token (`{ accessToken, refresh? }`).
 * Methods that need an application context are refused on a webhook client before sending (and do not compile).
 */
export function createClientWith(options: ClientOptions, data: ClientData): unknown {
  const rt = createRuntime(options, data);
  const by = (version: Version): Send => (method, params, callOptions) => rt.send(method, version, params, callOptions);
  const legacy = by("legacy");
  const v3 = by("v3");
  return root(legacy, {
    call: (method: string, params?: unknown, callOptions?: CallOptions) => legacy(method, params, callOptions).then((r) => r.result),
    request: legacy,
    paginate: rt.paginate,
    all: rt.all,
    batch: rt.batch,
    limits: rt.limits,
    v3: root(v3, {
      call: (method: string, params?: unknown, callOptions?: CallOptions) => v3(method, params, callOptions).then((r) => r.result),
      request: v3,
    }),
  });
}

export default ApiError;
