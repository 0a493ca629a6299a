import type { Version } from "../shared/data.js";

/**
 * Errors of the client. `ApiError` is what the API answered (or what the client refused to send); `TransportError`
 * is a call that got no usable answer (reset, timeout, redirect, an answer over the size cap). Every message and
 * member has passed `scrub`: no credential of the client, nor anything shaped like one.
 */

export interface ApiErrorInit {
  method: string;
  /** HTTP status; 0 when the client refused the call before sending it or got no answer. */
  status: number;
  code: string;
  description: string;
  argument?: string | undefined;
  details?: unknown;
  time?: unknown;
  /** When the call could be tried again (an operating-time reset past the call's time budget), epoch ms. */
  retryAt?: number | undefined;
  /** No readable answer: the call may or may not have run (a reset, a time-out, an answer that is not JSON). */
  unclear?: boolean;
  cause?: unknown;
}

// `declare`: the constructor sets every member; declared fields would add nothing at run time but their names to
// every client's bundle (5 KB gzipped).
export class ApiError extends Error {
  declare readonly method: string;
  declare readonly status: number;
  declare readonly code: string;
  declare readonly description: string;
  declare readonly argument: string | undefined;
  /** The 3.0 error body (its shape is not shown in the spec). */
  declare readonly details: unknown;
  declare readonly time: unknown;
  declare readonly retryAt: number | undefined;
  declare readonly unclear: boolean;

  constructor(init: ApiErrorInit) {
    super(`${init.method}: ${init.code || "(empty code)"}${init.description ? ` ${init.description}` : ""} (HTTP ${init.status})`, {
      cause: init.cause,
    });
    this.name = "ApiError";
    this.method = init.method;
    this.status = init.status;
    this.code = init.code;
    this.description = init.description;
    this.argument = init.argument;
    this.details = init.details;
    this.time = init.time;
    this.retryAt = init.retryAt;
    this.unclear = init.unclear ?? false;
  }
}

/** Codes of calls that got no usable answer. Client codes, not the API's: the API never sends them. */
export const TRANSPORT_CODES = {
  network: "NETWORK_ERROR",
  timeout: "TIMEOUT",
  redirect: "REDIRECT",
  tooLarge: "RESPONSE_TOO_LARGE",
} as const;

export type TransportCode = (typeof TRANSPORT_CODES)[keyof typeof TRANSPORT_CODES];

export class TransportError extends ApiError {
  declare readonly code: TransportCode;
  constructor(init: ApiErrorInit & { code: TransportCode }) {
    super(init);
    this.name = "TransportError";
  }
}

/** True for an ApiError, or for one with the given code. */
export function isApiError(value: unknown, code?: string): value is ApiError {
  return value instanceof ApiError && (code === undefined || value.code === code);
}
