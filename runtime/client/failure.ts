import type { Version } from "../shared/data.js";
import { ApiError } from "./errors.js";

/** Reading an answer that is not a result: loaded with the rest of the failure handling (recover.ts). */

/** Applies `scrub` to every string inside a value (error details may echo the request). */
export function scrubDeep(value: unknown, scrub: (text: string) => string): unknown {
  if (typeof value === "string") return scrub(value);
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, scrub));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubDeep(v, scrub)]));
  }
  return value;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** An answer's code or text as a string, "" for an object: `String()` of `{"toString": 1}` threw a TypeError, not an ApiError. */
const textOf = (v: unknown): string => (typeof v === "object" && v !== null ? "" : String(v ?? ""));

/**
 * The error of an answer that is not a result. Codes, texts and details all pass `scrub`: a server may echo a
 * credential in any of them. `unexpected` is the spec's code for an answer that is not the API's JSON.
 */
export function errorFrom(
  method: string,
  status: number,
  raw: unknown,
  version: Version,
  scrub: (text: string) => string,
  unexpected: string,
): ApiError {
  const body = scrubDeep(raw, scrub);
  if (version === "v3" && isObject(body) && isObject(body.error)) {
    // The spec does not show the 3.0 error body; the platform's documentation sends { error: { code, message } }.
    const e = body.error;
    return new ApiError({ method, status, code: textOf(e.code), description: textOf(e.message), details: body, time: body.time });
  }
  if (isObject(body) && "error" in body) {
    return new ApiError({
      method,
      status,
      code: textOf(body.error),
      description: textOf(body.error_description),
      argument: typeof body.argument === "string" ? body.argument : undefined,
      details: version === "v3" ? body : undefined,
      time: body.time,
    });
  }
  return new ApiError({ method, status, code: unexpected, description: "the response is not the API's JSON", unclear: true });
}
