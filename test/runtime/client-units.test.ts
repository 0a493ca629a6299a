import { describe, expect, it } from "vitest";
import type { ClientData } from "../../runtime/shared/data.js";
import { redact, redactAll } from "../../runtime/shared/redact.js";
import { ApiError, TransportError, isApiError } from "../../runtime/client/errors.js";
import { errorFrom, scrubDeep } from "../../runtime/client/failure.js";
import { absolutize } from "../../runtime/client/links.js";
import { toQuery } from "../../runtime/client/query.js";
import { DEFAULT_RETRY, backoffMs, parseRetryAfter, retryDecision } from "../../runtime/client/retry.js";
import { validKey } from "../../runtime/client/runtime.js";

/** Unit tests of the client runtime's pure parts, given/want tables (issue 13). */

const data: ClientData = {
  legacy: { applicationContextOnly: ["event.bind"], idempotencyKey: [], readOnly: [] },
  v3: { applicationContextOnly: [], idempotencyKey: ["tasks.task.add"], readOnly: [] },
  linkFields: ["DOWNLOAD_URL", "archiveLink"],
  retry: {
    codes: ["INTERNAL_SERVER_ERROR", "ERROR_UNEXPECTED_ANSWER", "QUERY_LIMIT_EXCEEDED", "OPERATION_TIME_LIMIT"],
    expiredToken: "expired_token",
    operationTimeLimit: "OPERATION_TIME_LIMIT",
    queryLimit: "QUERY_LIMIT_EXCEEDED",
    wrongAuthType: "WRONG_AUTH_TYPE",
    unexpectedAnswer: "ERROR_UNEXPECTED_ANSWER",
  },
  idempotencyKey: { minLength: 1, maxLength: 255, charCodes: [0x20, 0x7e] },
  pageSize: 50,
  batchMaxCommands: 50,
  batchMethod: "batch",
  cursor: {},
};

describe("redact: one function for the generator and both runtimes", () => {
  it.each([
    ["https://x.example/rest/1/s3cretcode/user.current", "https://x.example/rest/1/<redacted>/user.current"],
    ["POST /rest/api/12/abc123xyz/tasks.task.add", "POST /rest/api/12/<redacted>/tasks.task.add"],
    ["?auth=tok123&x=1", "?auth=<redacted>&x=1"],
    ["a access_token=tok refresh_token=r1 code=c1", "a access_token=<redacted> refresh_token=<redacted> code=<redacted>"],
    ['{"auth":"t0ken","x":1,"code":"c"}', '{"auth":"<redacted>","x":1,"code":"<redacted>"}'],
    ["Authorization: Bearer abc.def-ghi", "Authorization: Bearer <redacted>"],
    ["authorization: bearer abc", "authorization: bearer <redacted>"],
    ["nothing secret here", "nothing secret here"],
  ])("%j → %j", (input, want) => {
    expect(redact(input)).toBe(want);
  });

  it("takes known credentials out whatever the shape, URL-encoded too; short ones as whole words only (issue 24)", () => {
    expect(redact("boom hookS3cret-42 in text", ["hookS3cret-42"])).toBe("boom <redacted> in text");
    expect(redact("x=a%2Fb%2Bcdefgh", ["a/b+cdefgh"])).toBe("x=<redacted>");
    // Before issue 24 a secret under 8 characters was never searched for: `short code c0d3x failed` went out as it was.
    expect(redact("Error: short code c0d3x failed", ["c0d3x"])).toBe("Error: short code <redacted> failed");
    expect(redact("the code abc", ["abc"])).toBe("the code <redacted>");
    // Never inside another word: a short code must not mangle the text around it.
    expect(redact("abcd xabc abc1 1abc", ["abc"])).toBe("abcd xabc abc1 1abc");
    expect(redact("at /rest/1/c0d3x and (c0d3x)", ["c0d3x"])).toBe("at /rest/1/<redacted> and (<redacted>)");
  });

  it.each([
    ["password=hunter2 then", "password=<redacted> then"],
    ["failed: token 9f8e7d6c", "failed: token <redacted>"],
    ["a token bucket", "a token bucket"],
    ['{"client_secret": "s3"}', '{"client_secret": "<redacted>"}'],
    ["client_secret=xyz&x=1", "client_secret=<redacted>&x=1"],
    ["other hook https://p.example/rest/7/zz9/user.current", "other hook https://p.example/rest/7/<redacted>/user.current"],
    ["auth=abc&x=1", "auth=<redacted>&x=1"],
    ["application_token=abc", "application_token=<redacted>"],
  ])("credential shapes the platform documents, in server logs and the generator's messages: %j → %j", (input, want) => {
    expect(redactAll(input)).toBe(want);
  });
});

describe("retry decision and backoff schedule", () => {
  const error = (code: string, extra: Partial<ConstructorParameters<typeof ApiError>[0]> = {}) =>
    new ApiError({ method: "m", status: 503, code, description: "", ...extra });
  const random = () => 0.5;
  const base = { attempt: 1, safe: false, elapsedMs: 0, now: 1_000_000 };
  it.each([
    ["a code the spec says to retry", { error: error("QUERY_LIMIT_EXCEEDED") }, { retry: true, delayMs: 250 }],
    ["a code not to retry", { error: error("ERROR_ARGUMENT") }, { retry: false }],
    ["an unclear answer, not safe to repeat", { error: error("ERROR_UNEXPECTED_ANSWER", { unclear: true }) }, { retry: false }],
    ["an unclear answer, safe to repeat", { error: error("ERROR_UNEXPECTED_ANSWER", { unclear: true }), safe: true }, { retry: true, delayMs: 250 }],
    ["the API's own ERROR_UNEXPECTED_ANSWER (JSON)", { error: error("ERROR_UNEXPECTED_ANSWER") }, { retry: true, delayMs: 250 }],
    ["a reset connection, safe", { error: new TransportError({ method: "m", status: 0, code: "NETWORK_ERROR", description: "", unclear: true }), safe: true }, { retry: true, delayMs: 250 }],
    ["a reset connection, not safe", { error: new TransportError({ method: "m", status: 0, code: "NETWORK_ERROR", description: "", unclear: true }) }, { retry: false }],
    ["a redirect is never retried", { error: new TransportError({ method: "m", status: 307, code: "REDIRECT", description: "" }), safe: true }, { retry: false }],
    ["the last attempt", { error: error("QUERY_LIMIT_EXCEEDED"), attempt: 4 }, { retry: false }],
    ["third attempt doubles twice", { error: error("QUERY_LIMIT_EXCEEDED"), attempt: 3 }, { retry: true, delayMs: 1000 }],
    ["Retry-After raises the wait", { error: error("QUERY_LIMIT_EXCEEDED"), retryAfterMs: 2000 }, { retry: true, delayMs: 2000 }],
    ["Retry-After past the budget fails at once with retryAt", { error: error("QUERY_LIMIT_EXCEEDED"), retryAfterMs: 60_000 }, { retry: false, retryAt: 1_060_000 }],
    [
      "OPERATION_TIME_LIMIT waits for its reset",
      { error: error("OPERATION_TIME_LIMIT", { time: { operating_reset_at: 1_003 } }) },
      { retry: true, delayMs: 3000 },
    ],
    [
      "OPERATION_TIME_LIMIT with a reset already past waits the base delay",
      { error: error("OPERATION_TIME_LIMIT", { time: { operating_reset_at: 999 } }) },
      { retry: true, delayMs: 500 },
    ],
    [
      "OPERATION_TIME_LIMIT past the budget fails with retryAt",
      { error: error("OPERATION_TIME_LIMIT", { time: { operating_reset_at: 1_600 } }) },
      { retry: false, retryAt: 1_600_000 },
    ],
    ["a wait past the budget", { error: error("QUERY_LIMIT_EXCEEDED"), elapsedMs: 29_900 }, { retry: false }],
  ])("%s", (_name, input, want) => {
    expect(retryDecision({ ...base, ...input }, DEFAULT_RETRY, data, random)).toEqual(want);
  });

  it("full jitter: the wait lies in [0, min(max, base·2^(n-1))) for every attempt", () => {
    const schedule = [1, 2, 3, 4, 5, 6].map((n) => [backoffMs(n, DEFAULT_RETRY, () => 0), backoffMs(n, DEFAULT_RETRY, () => 0.999999)]);
    expect(schedule).toEqual([
      [0, 499],
      [0, 999],
      [0, 1999],
      [0, 3999],
      [0, 7999],
      [0, 9999],
    ]);
  });

  it.each([
    [null, undefined],
    ["", undefined],
    ["3", 3000],
    [" 0 ", 0],
    ["Thu, 01 Jan 1970 00:16:50 GMT", 10_000],
    ["yesterday", undefined],
  ])("Retry-After %j → %j ms", (value, want) => {
    expect(parseRetryAfter(value, 1_000_000)).toBe(want);
  });
});

describe("idempotency keys follow the data's rule", () => {
  it.each([
    ["k", true],
    ["", false],
    ["x".repeat(255), true],
    ["x".repeat(256), false],
    ["tab\t", false],
    ["é", false],
    ["~ !", true],
  ])("%j → %j", (key, ok) => {
    expect(validKey(key, data.idempotencyKey)).toBe(ok);
  });

  it("another rule (from another spec) is followed, not a constant", () => {
    expect(validKey("abcd", { minLength: 8, maxLength: 16, charCodes: [0x20, 0x7e] })).toBe(false);
    expect(validKey("abcdefgh", { minLength: 8, maxLength: 16, charCodes: [0x20, 0x7e] })).toBe(true);
  });
});

describe("toQuery, links and errors", () => {
  it.each([
    [{ a: 1, b: "x y" }, "a=1&b=x%20y"],
    [{ f: { t: "T", n: [1, 2] } }, "f%5Bt%5D=T&f%5Bn%5D%5B0%5D=1&f%5Bn%5D%5B1%5D=2"],
    [{ y: true, n: false, z: null, u: undefined }, "y=1&n=0&z="],
    [{}, ""],
    [null, ""],
  ])("toQuery(%j) → %j", (params, want) => {
    expect(toQuery(params as Record<string, unknown>)).toBe(want);
  });

  it("makes only the data's link members absolute, and only same-host paths", () => {
    const value = {
      DOWNLOAD_URL: "/disk/1",
      creator: "/evil",
      result: "/x",
      nested: [{ archiveLink: "/a" }, { archiveLink: "//other.example/a" }, { archiveLink: "/\\other" }, { archiveLink: "https://cdn/x" }],
    };
    expect(absolutize(value, "https://p.example", new Set(data.linkFields))).toEqual({
      DOWNLOAD_URL: "https://p.example/disk/1",
      creator: "/evil",
      result: "/x",
      nested: [{ archiveLink: "https://p.example/a" }, { archiveLink: "//other.example/a" }, { archiveLink: "/\\other" }, { archiveLink: "https://cdn/x" }],
    });
  });

  it("errorFrom scrubs codes, texts and details; a body that is not the API's is unclear", () => {
    const scrub = (t: string) => redact(t, ["hookS3cret-42"]);
    const legacy = errorFrom("m", 400, { error: "BAD hookS3cret-42", error_description: "d hookS3cret-42", argument: "id" }, "legacy", scrub, "UNEXPECTED");
    expect(legacy).toMatchObject({ code: "BAD <redacted>", description: "d <redacted>", argument: "id", unclear: false });
    const v3 = errorFrom("m", 422, { error: { code: "C", message: "msg" }, time: { x: 1 } }, "v3", scrub, "UNEXPECTED");
    expect(v3).toMatchObject({ code: "C", description: "msg", details: { error: { code: "C", message: "msg" } } });
    expect(errorFrom("m", 502, undefined, "legacy", scrub, "UNEXPECTED")).toMatchObject({ code: "UNEXPECTED", unclear: true, status: 502 });
    expect(scrubDeep({ a: ["hookS3cret-42", 1] }, scrub)).toEqual({ a: ["<redacted>", 1] });
    expect(isApiError(legacy)).toBe(true);
    expect(isApiError(legacy, "OTHER")).toBe(false);
    expect(isApiError(new Error("x"))).toBe(false);
    // A code or text of no text (`{"toString": 1}`, as JSON.parse makes it) is "", an ApiError still, not a TypeError
    // (the fault probe); a numeric code is its digits.
    const hostile = JSON.parse('{"error": {"toString": 1}, "error_description": [{"toString": 1}]}');
    expect(errorFrom("m", 400, hostile, "legacy", scrub, "UNEXPECTED")).toMatchObject({ code: "", description: "" });
    expect(errorFrom("m", 400, JSON.parse('{"error": {"code": {"toString": 1}, "message": "m"}}'), "v3", scrub, "UNEXPECTED")).toMatchObject({ code: "", description: "m" });
    expect(errorFrom("m", 400, { error: 200040300010, error_description: "x" }, "legacy", scrub, "UNEXPECTED")).toMatchObject({ code: "200040300010" });
  });

  it("all() over answers whose next or cursor has no number in it ends or fails with a RangeError, never a TypeError", async () => {
    const { all } = await import("../../runtime/client/bulk.js");
    const hostile = JSON.parse('{"toString": 1}');
    const pages = [Array.from({ length: 50 }, (_, i) => ({ ID: String(i + 1) })), [{ ID: "51" }]];
    let calls = 0;
    const rt = { send: async () => ({ result: pages[calls++] ?? [], next: hostile, total: undefined }), data: { pageSize: 50, cursor: {} } } as never;
    const got: unknown[][] = [];
    for await (const page of all(rt, "x.list")) got.push(page);
    expect(got.map((p) => p.length)).toEqual([50, 1]);
    // The cursor walk: a last record whose id has no number in it does not advance the walk.
    const records = Array.from({ length: 50 }, () => ({ ID: hostile }));
    const cursorRt = { send: async () => ({ result: records }), data: { pageSize: 50, cursor: { "x.list": ["FILTER", "ORDER", "ID"] } } } as never;
    await expect((async () => {
      for await (const _ of all(cursorRt, "x.list")) void _;
    })()).rejects.toThrow(RangeError);
  });

  it("paginate and all() walk a next sent as a numeric string, as its number; a batch command's error code of no text is '' (review)", async () => {
    const { all, batch, paginate } = await import("../../runtime/client/bulk.js");
    const records = Array.from({ length: 120 }, (_, i) => ({ ID: String(i + 1) }));
    const starts: unknown[] = [];
    const send = async (_m: string, _v: string, params: { start: number }) => {
      starts.push(params.start);
      const from = Number(params.start);
      const next = from + 50 < 120 ? String(from + 50) : undefined;
      return { result: records.slice(from, from + 50), total: 120, next };
    };
    const rt = { send, data: { pageSize: 50, cursor: {} } } as never;
    const walked: unknown[] = [];
    for await (const item of paginate(rt, "x.list")) walked.push(item);
    expect(walked).toHaveLength(120);
    expect(starts).toEqual([0, 50, 100]);
    let count = 0;
    for await (const page of all(rt, "x.list")) count += page.length;
    expect(count).toBe(120);
    const failing = { send: async () => ({ result: { result: {}, result_error: { a: JSON.parse('{"error": {"toString": 1}, "error_description": "d"}') } }, response: { status: 200 } }), data: { batchMaxCommands: 50, batchMethod: "batch" }, webhook: false, appOnly: new Set(), scrub: (t: string) => t, ApiError } as never;
    const out = await batch(failing, { a: ["x.get", { id: 1 }] });
    expect(out.errors.a).toMatchObject({ code: "", description: "d" });
  });
});
