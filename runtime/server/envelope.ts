/**
 * The answer's shape: the `{result, time}` envelope and the error bodies of the two versions. `time` is the spec's
 * eight members; the dates are ISO 8601 with an offset, to the second, as the platform writes them.
 */

export interface Usage {
  operating: number;
  resetAt: number;
}

export interface Out {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ "Content-Type": "application/json; charset=utf-8" });

/** A clock of ISO 8601 seconds, made once a second (a call formats two dates). */
export function isoClock(): (ms: number) => string {
  let second = -1;
  let text = "";
  return (ms) => {
    const s = Math.floor(ms / 1000);
    if (s !== second) {
      second = s;
      text = `${new Date(s * 1000).toISOString().slice(0, 19)}+00:00`;
    }
    return text;
  };
}

export function timeOf(started: number, finished: number, usage: Usage, iso: (ms: number) => string) {
  const duration = (finished - started) / 1000;
  return {
    start: started / 1000,
    finish: finished / 1000,
    duration,
    processing: duration,
    date_start: iso(started),
    date_finish: iso(finished),
    operating: usage.operating,
    operating_reset_at: usage.resetAt,
  };
}

export function respond(status: number, body: unknown, headers: Record<string, string> = {}): Out {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

/**
 * An error in the body of its version: legacy `{error, error_description}`; 3.0 `{error: {code, message}}` (the spec
 * does not show the 3.0 body: the platform's documentation's form is the default, `v3ErrorBody: "legacy"` the other).
 */
export function errorBody(
  version: "legacy" | "v3",
  code: string,
  description: string,
  extra: Record<string, unknown>,
  v3Form: "object" | "legacy",
): Record<string, unknown> {
  if (version === "v3" && v3Form !== "legacy") return { error: { code, message: description, ...extra } };
  return { error: code, error_description: description, ...extra };
}
