import { ApiError, createClient, is } from "collab-platform-api-client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { TIME, TestServer, json } from "../support/https.js";

/** The generated client against a real HTTPS server on 127.0.0.1 with a certificate made at test time. */
let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const ok = (result: unknown, headers: Record<string, string> = {}) => (_: unknown, res: Parameters<typeof json>[0]) => json(res, 200, { result, time: TIME }, headers);

function hook(extra: Record<string, unknown> = {}) {
  return createClient({ baseUrl: server.baseUrl, auth: { userId: 7, code: "s3cretWebhookC0de" }, fetch: server.fetch(), ...extra });
}
function app(extra: Record<string, unknown> = {}, refresh?: () => Promise<string>) {
  return createClient({ baseUrl: server.baseUrl, auth: { accessToken: "t0ken-abc", ...(refresh ? { refresh } : {}) }, fetch: server.fetch(), ...extra });
}

describe("addressing and auth", () => {
  it("webhook, legacy: /rest/{user}/{code}/{method}, params in the JSON body, no auth member", async () => {
    server.handler = ok({ allowedActions: [] });
    const r = await hook().tasks.task.getaccess({ taskId: 8017 });
    expect(r).toEqual({ allowedActions: [] });
    expect(server.requests[0]).toMatchObject({ method: "POST", url: "/rest/7/s3cretWebhookC0de/tasks.task.getaccess", json: { taskId: 8017 } });
    expect(server.requests[0]?.headers["content-type"]).toBe("application/json");
    expect(server.requests[0]?.headers.accept).toBe("application/json");
  });

  it("webhook, 3.0: /rest/api/{user}/{code}/{method}", async () => {
    server.handler = ok({ item: { id: 1 } });
    await hook().v3.tasks.task.get({ taskId: 1 });
    expect(server.requests[0]?.url).toBe("/rest/api/7/s3cretWebhookC0de/tasks.task.get");
  });

  it("application token: /rest/{method} and /rest/api/{method} with body member auth", async () => {
    server.handler = ok(true);
    const c = app();
    await c.call("event.bind", { event: "ONCRMLEADADD", handler: "https://h.example/x" });
    await c.v3.call("rest.scope.list");
    expect(server.requests.map((r) => [r.url, (r.json as { auth?: string }).auth])).toEqual([
      ["/rest/event.bind", "t0ken-abc"],
      ["/rest/api/rest.scope.list", "t0ken-abc"],
    ]);
  });

  it("withResponse gives result, time and the raw response", async () => {
    server.handler = ok({ ID: 5 });
    const r = await app().telephony.externalLine.add.withResponse({ NUMBER: "100" });
    expect(r.result).toEqual({ ID: 5 });
    expect(r.time).toEqual(TIME);
    expect(r.response.status).toBe(200);
    expect(r.attempts).toBe(1);
  });

  it("refuses an application-context method on a webhook client before sending", async () => {
    const c = hook() as unknown as {
      call(m: string, p: unknown): Promise<unknown>;
      telephony: { externalCall: { finish(p: unknown): Promise<unknown> } };
      batch(c: unknown): Promise<unknown>;
    };
    await expect(c.call("telephony.externalCall.finish", { CALL_ID: "x", USER_ID: 1 })).rejects.toMatchObject({ code: "WRONG_AUTH_TYPE", status: 0 });
    await expect(c.telephony.externalCall.finish({ CALL_ID: "x", USER_ID: 1 })).rejects.toMatchObject({ code: "WRONG_AUTH_TYPE" });
    await expect(c.batch({ a: ["placement.get"] })).rejects.toMatchObject({ code: "WRONG_AUTH_TYPE" });
    expect(server.requests).toHaveLength(0);
  });

  it("refuses http:// unless allowed for local tests", () => {
    expect(() => createClient({ baseUrl: "http://127.0.0.1:1", auth: { accessToken: "t" } })).toThrow(/https/);
    expect(() => createClient({ baseUrl: "http://127.0.0.1:1", auth: { accessToken: "t" }, allowInsecureHttp: true })).not.toThrow();
  });

  it("makes relative file links absolute against the base URL", async () => {
    server.handler = ok({ item: { id: 1, archiveLink: "/bitrix/tools/disk/uf.php?x=1", title: "/not-a-link" } });
    const r = await hook().v3.tasks.task.get({ taskId: 1 });
    expect(r.item.archiveLink).toBe(`${server.baseUrl}/bitrix/tools/disk/uf.php?x=1`);
    expect(r.item.title).toBe("/not-a-link");
  });
});

describe("errors", () => {
  it("legacy error body → ApiError with status, code, description, argument; guards by code", async () => {
    server.handler = (_r, res) => json(res, 400, { error: "ERROR_ARGUMENT", error_description: "Argument 'PLACEMENT' is null or empty", argument: "PLACEMENT" });
    const e = await app().placement.bind({ PLACEMENT: "", HANDLER: "https://h.example" }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ status: 400, code: "ERROR_ARGUMENT", description: "Argument 'PLACEMENT' is null or empty", argument: "PLACEMENT", method: "placement.bind" });
    expect(is.ERROR_ARGUMENT(e)).toBe(true);
    expect(is.ACCESS_DENIED(e)).toBe(false);
  });

  it("empty and numeric codes", async () => {
    server.handler = (_r, res) => json(res, 400, { error: "", error_description: "Wrong group ID" });
    await expect(app().sonet_group.update({ GROUP_ID: 1 })).rejects.toMatchObject({ code: "", description: "Wrong group ID" });
    server.handler = (_r, res) => json(res, 400, { error: "0", error_description: "wrong task id" });
    const e = await hook().tasks.task.unpin({ id: 1 }).catch((x: unknown) => x);
    expect(is["0"](e)).toBe(true);
  });

  it("3.0 error body: code and message, with the body as details", async () => {
    const body = { error: { code: "BITRIX_REST_V3_EXCEPTION_ENTITYNOTFOUNDEXCEPTION", message: "Record with ID = `2` not found" } };
    server.handler = (_r, res) => json(res, 400, body);
    await expect(hook().v3.tasks.task.get({ taskId: 2 })).rejects.toMatchObject({ status: 400, code: body.error.code, description: body.error.message, details: body });
  });

  it("never puts the webhook code or the token in an error message", async () => {
    server.handler = (r, res) => json(res, 401, { error: "INVALID_CREDENTIALS", error_description: `no webhook at https://x.example${r.url} with auth=t0ken-abc` });
    const e1 = (await hook().user.current().catch((x: unknown) => x)) as ApiError;
    expect(e1.message).not.toContain("s3cretWebhookC0de");
    expect(e1.description).not.toContain("s3cretWebhookC0de");
    server.handler = (r, res) => json(res, 401, { error: "invalid_token", error_description: `token ${(r.json as { auth: string }).auth} rejected: {"auth":"${(r.json as { auth: string }).auth}"}` });
    const e2 = (await app().user.current().catch((x: unknown) => x)) as ApiError;
    expect(`${e2.message} ${e2.description} ${String(e2.stack)}`).not.toContain("t0ken-abc");
  });

  it("a non-JSON answer is ERROR_UNEXPECTED_ANSWER", async () => {
    server.handler = (_r, res) => {
      res.writeHead(502, { "Content-Type": "text/html" }).end("<html>bad gateway</html>");
    };
    await expect(hook({ retry: { maxAttempts: 1 } }).user.current()).rejects.toMatchObject({ status: 502, code: "ERROR_UNEXPECTED_ANSWER" });
  });
});

describe("retries", () => {
  function failing(times: number, error: Record<string, unknown>, status: number) {
    let n = 0;
    return (_r: unknown, res: Parameters<typeof json>[0]) => (n++ < times ? json(res, status, error) : json(res, 200, { result: true, time: TIME }));
  }

  it("backs off exponentially with jitter on QUERY_LIMIT_EXCEEDED and succeeds", async () => {
    server.handler = failing(2, { error: "QUERY_LIMIT_EXCEEDED", error_description: "Too many requests" }, 503);
    const delays: number[] = [];
    const r = await app({ random: () => 0.5, retry: { baseDelayMs: 20 }, onRetry: (e: { delayMs: number }) => delays.push(e.delayMs) }).event.bind.withResponse({ event: "E", handler: "https://h.example/" });
    expect(r.attempts).toBe(3);
    expect(delays).toEqual([10, 20]);
    expect(server.requests).toHaveLength(3);
  });

  it.each([
    ["INTERNAL_SERVER_ERROR", 500],
    ["ERROR_UNEXPECTED_ANSWER", 500],
  ])("retries %s", async (code, status) => {
    server.handler = failing(1, { error: code, error_description: "" }, status);
    await expect(hook({ retry: { baseDelayMs: 1 } }).user.current()).resolves.toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it("never retries other errors", async () => {
    server.handler = (_r, res) => json(res, 403, { error: "ACCESS_DENIED", error_description: "Access denied!" });
    await expect(hook({ retry: { baseDelayMs: 1 } }).user.current()).rejects.toMatchObject({ code: "ACCESS_DENIED" });
    expect(server.requests).toHaveLength(1);
  });

  it("caps the attempts", async () => {
    server.handler = (_r, res) => json(res, 503, { error: "QUERY_LIMIT_EXCEEDED", error_description: "" });
    await expect(hook({ retry: { baseDelayMs: 1, maxAttempts: 3 } }).user.current()).rejects.toMatchObject({ code: "QUERY_LIMIT_EXCEEDED" });
    expect(server.requests).toHaveLength(3);
  });

  it("caps the total time", async () => {
    server.handler = (_r, res) => json(res, 503, { error: "QUERY_LIMIT_EXCEEDED", error_description: "" });
    const started = Date.now();
    await expect(hook({ random: () => 1, retry: { baseDelayMs: 200, maxAttempts: 10, maxTotalMs: 500 } }).user.current()).rejects.toMatchObject({ code: "QUERY_LIMIT_EXCEEDED" });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(server.requests.length).toBeLessThan(4);
  });

  it("OPERATION_TIME_LIMIT waits until time.operating_reset_at", async () => {
    const resetAt = Date.now() / 1000 + 0.4;
    let n = 0;
    server.handler = (_r, res) =>
      n++ === 0 ? json(res, 429, { error: "OPERATION_TIME_LIMIT", error_description: "", time: { ...TIME, operating_reset_at: resetAt } }) : json(res, 200, { result: true, time: TIME });
    const delays: number[] = [];
    const started = Date.now();
    await hook({ onRetry: (e: { delayMs: number }) => delays.push(e.delayMs) }).user.current();
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(delays[0]).toBeGreaterThan(250);
    expect(delays[0]).toBeLessThanOrEqual(400);
  });
});

describe("idempotency keys", () => {
  it("one generated key per call, reused on each retry; replay reported", async () => {
    let n = 0;
    server.handler = (r, res) =>
      n++ === 0
        ? json(res, 500, { error: "INTERNAL_SERVER_ERROR", error_description: "" })
        : json(res, 200, { result: { item: { id: 1 } }, time: TIME }, { "Idempotency-Key": String(r.headers["idempotency-key"]), "Idempotent-Replayed": "true" });
    const r = await app({ retry: { baseDelayMs: 1 } }).v3.tasks.task.add.withResponse({ fields: { title: "T" } });
    const keys = server.requests.map((q) => q.headers["idempotency-key"]);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(r.replayed).toBe(true);
    expect(r.idempotencyKey).toBe(keys[0]);
    server.reset();
    await app().v3.tasks.task.add({ fields: { title: "T" } });
    expect(server.requests[0]?.headers["idempotency-key"]).not.toBe(keys[0]);
  });

  it("the caller's key is used, and checked before sending", async () => {
    server.handler = ok({ item: {} });
    await app().v3.tasks.task.add({ fields: { title: "T" } }, { idempotencyKey: "order-42" });
    expect(server.requests[0]?.headers["idempotency-key"]).toBe("order-42");
    await expect(app().v3.tasks.task.add({ fields: {} }, { idempotencyKey: "" })).rejects.toThrow(TypeError);
    await expect(app().v3.tasks.task.add({ fields: {} }, { idempotencyKey: "é" })).rejects.toThrow(TypeError);
    await expect(app().v3.tasks.task.add({ fields: {} }, { idempotencyKey: "x".repeat(256) })).rejects.toThrow(TypeError);
    expect(server.requests).toHaveLength(1);
  });

  it("no key for legacy methods nor for 3.0 methods that do not honour it", async () => {
    server.handler = ok({ item: {} });
    await app().v3.tasks.task.get({ taskId: 1 });
    await app().call("tasks.task.getaccess", { taskId: 1 });
    expect(server.requests.map((r) => r.headers["idempotency-key"])).toEqual([undefined, undefined]);
  });
});

describe("paging, batch, abort, timeout, refresh", () => {
  it("walks every page of a legacy list method with start, up to 50 a page, with a cap", async () => {
    const all = Array.from({ length: 120 }, (_, i) => ({ ID: i + 1, NAME: `p${i + 1}` }));
    server.handler = (r, res) => {
      const start = Number((r.json as { start?: number }).start ?? 0);
      json(res, 200, { result: all.slice(start, start + 50), time: TIME });
    };
    const seen: unknown[] = [];
    for await (const ps of app().paginate("sale.paysystem.list", { SELECT: ["ID"] })) seen.push(ps.ID);
    expect(seen).toEqual(all.map((p) => p.ID));
    expect(server.requests.map((r) => (r.json as { start: number }).start)).toEqual([0, 50, 100]);
    server.reset();
    let n = 0;
    for await (const _ of app().paginate("sale.paysystem.list", {}, { maxPages: 1 })) n++;
    expect(n).toBe(50);
  });

  it("sends a typed batch and splits results and errors per command", async () => {
    server.handler = (r, res) => {
      expect(r.url).toBe("/rest/batch");
      json(res, 200, {
        result: { result: { me: { ID: "1" } }, result_error: { t: { error: "ACCESS_DENIED", error_description: "Access denied!" } }, result_total: [], result_next: [], result_time: [] },
        time: TIME,
      });
    };
    const r = await app().batch({ me: ["user.current"], t: ["tasks.task.get", { taskId: 1, select: ["ID", "TITLE"] }] }, { halt: true });
    expect(server.requests[0]?.json).toEqual({ halt: 1, cmd: { me: "user.current", t: "tasks.task.get?taskId=1&select%5B0%5D=ID&select%5B1%5D=TITLE" }, auth: "t0ken-abc" });
    expect(r.results.me).toEqual({ ID: "1" });
    expect(r.errors.t).toMatchObject({ code: "ACCESS_DENIED", method: "tasks.task.get" });
    // No command is a usage error; any number above 50 goes in several requests (test/integration/client-scale.test.ts).
    await expect(app().batch({} as never)).rejects.toThrow(RangeError);
  });

  it("a client is not mistaken for a promise, and namespaces are plain functions", async () => {
    const c = hook();
    expect((c as unknown as { then?: unknown }).then).toBeUndefined();
    await expect(Promise.resolve(c)).resolves.toBe(c);
    expect(typeof c.tasks.task.get).toBe("function");
  });

  it("aborts with the caller's signal, and times out", async () => {
    server.handler = (_r, res) => {
      setTimeout(() => json(res, 200, { result: true, time: TIME }), 2000).unref();
    };
    const controller = new AbortController();
    const p = hook().user.current(undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(p).rejects.toMatchObject({ name: "AbortError" });
    // A time-out is the client's own error, not a bare DOMException; user.current is not safe to repeat: one attempt.
    await expect(hook({ retry: { baseDelayMs: 1 } }).user.current(undefined, { timeoutMs: 100 })).rejects.toMatchObject({ name: "TransportError", code: "TIMEOUT", status: 0 });
  });

  it("refreshes an expired token once, then gives up", async () => {
    server.handler = (r, res) =>
      (r.json as { auth: string }).auth === "fresh" ? json(res, 200, { result: true, time: TIME }) : json(res, 401, { error: "expired_token", error_description: "The access token provided has expired" });
    let calls = 0;
    const c = app({}, async () => {
      calls++;
      return "fresh";
    });
    await expect(c.user.current()).resolves.toBe(true);
    expect(calls).toBe(1);
    await expect(c.user.current()).resolves.toBe(true);
    let again = 0;
    const stale = app({}, async () => {
      again++;
      return "still-old";
    });
    await expect(stale.user.current()).rejects.toMatchObject({ code: "expired_token" });
    expect(again).toBe(1);
  });
});
