import { createServer } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openapiV3 } from "../../output/server/documentation.js";
import serverData from "../../output/server/methods.js";
import clientData from "../../output/client/methods.js";
import type { ClientData, ServerData } from "../../runtime/shared/data.js";
import { createRuntime } from "../../runtime/client/runtime.js";
import { type Caller, type Credentials, type HandlerOptions, MethodError } from "../../runtime/server/handler.js";
import { type BuiltInSpec, createHandlerWith } from "../../runtime/server/index.js";
import { createMemoryIdempotencyStore } from "../../runtime/server/idempotency.js";
import { createLimiter } from "../../runtime/server/limiter.js";
import { toNodeListener } from "../../runtime/server/node.js";
import { page, pageOf } from "../../runtime/server/page.js";
import { GEN, SPEC_TEXT } from "../helpers.js";
import { generate } from "../../generator/generate.js";

/**
 * The router from its TypeScript source with the generated data: issue 9's server faults and the batch method,
 * and the data-driven rules of issue 13. Web-standard requests, and a node server on 127.0.0.1 for the adapter.
 */
const CODE = "hookS3cretC0de42";
const TOKEN = "t0kenS3cretValue99";
const data = serverData as ServerData;
const builtIns: BuiltInSpec = { documentation: { legacy: [], v3: ["rest.documentation.openapi", "documentation"] }, scopeList: { legacy: [], v3: ["rest.scope.list"] } };

function authenticate(c: Credentials): Caller | { error: string } {
  if (c.kind === "webhook") {
    if (c.code === "boomHookCode99") throw new Error(`auth backend down for code ${c.code}`);
    if (c.code === CODE || c.code === "otherHookCode1") return { userId: Number(c.userId), scopes: ["task", "user", "telephony"] };
    if (c.code === "limited1") return { userId: 8, scopes: ["user"] };
    if (c.code === "payHookCode1") return { userId: 9, scopes: ["pay_system", "task", "user"] };
    return { error: "INVALID_CREDENTIALS" };
  }
  if (c.token === TOKEN) return { userId: 1, scopes: ["task", "user", "placement"], admin: true, applicationId: "app1" };
  return { error: "invalid_token" };
}

const counts: Record<string, number> = {};
/** 120 pay systems, for the list method's pages. */
const PAY_SYSTEMS = Array.from({ length: 120 }, (_, i) => ({ ID: String(i + 1) }));
let lastListParams: Record<string, unknown> = {};
const logs: string[] = [];
const handlers = {
  legacy: {
    "user.current": async (_p: unknown, ctx: { auth: { userId: number | string } }) => ({ ID: String(ctx.auth.userId) }),
    "tasks.task.getaccess": async (p: { taskId: number }) => {
      counts.getaccess = (counts.getaccess ?? 0) + 1;
      if (p.taskId === 666) throw new Error(`boom ${CODE} Bearer ${TOKEN} https://x.example/rest/7/${CODE}/m?auth=${TOKEN} plain-${TOKEN}`);
      if (p.taskId === 667) throw `a plain string with ${CODE} and ${TOKEN}`;
      if (p.taskId === 668) throw new MethodError({ code: "ERROR_CORE", description: `nope ${CODE}` });
      return { allowedActions: { "1": { ACCEPT: true, taskId: p.taskId } } };
    },
    "sale.paysystem.list": async (p: Record<string, unknown>) => {
      lastListParams = p;
      return pageOf(PAY_SYSTEMS, p.start);
    },
  },
  v3: {
    "tasks.task.add": async () => {
      counts.add = (counts.add ?? 0) + 1;
      return { item: { id: counts.add } };
    },
  },
};

function router(extra: Partial<HandlerOptions> = {}) {
  return createHandlerWith(handlers, { authenticate, log: (e) => logs.push(JSON.stringify(e)), methodScopes: { v3: { "tasks.task.add": ["task"] } }, ...extra }, data, builtIns, { openapiV3 });
}

async function call(handle: (r: Request) => Promise<Response>, path: string, body: unknown = {}, headers: Record<string, string> = {}) {
  const res = await handle(new Request(`https://p.example${path}`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) }));
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
}

describe("method names that are Object.prototype members answer ERROR_METHOD_NOT_FOUND 404", () => {
  const handle = router();
  const names = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf", "propertyIsEnumerable", "toLocaleString"];
  it.each(names.flatMap((n) => [`/rest/7/${CODE}/${n}`, `/rest/api/7/${CODE}/${n}`, `/rest/${n}`, `/rest/api/${n}`, `/rest/${n}.json`]))("%s", async (path) => {
    const r = await call(handle, path, path.includes(CODE) ? {} : { auth: TOKEN });
    expect(r.status).toBe(404);
    expect(JSON.stringify(r.json)).toContain("ERROR_METHOD_NOT_FOUND");
  });
});

describe("idempotency keys are scoped as the spec scopes them, and kept per caller", () => {
  it("user A's key survives user B's fresh keys in a store of two (the handler runs 3 times, not 4)", async () => {
    counts.add = 0;
    const handle = router({ idempotencyStore: createMemoryIdempotencyStore({ maxEntries: 2 }) });
    const add = (user: number, key: string) => call(handle, `/rest/api/${user}/${CODE}/tasks.task.add`, { fields: { title: "T" } }, { "Idempotency-Key": key });
    expect((await add(1, "a-key")).status).toBe(200);
    await add(2, "b-key-1");
    await add(2, "b-key-2");
    const again = await add(1, "a-key");
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(counts.add).toBe(3);
  });

  it("the same key from another webhook of the same user is another record", async () => {
    counts.add = 0;
    const handle = router();
    const body = { fields: { title: "T" } };
    await call(handle, `/rest/api/1/${CODE}/tasks.task.add`, body, { "Idempotency-Key": "shared" });
    const other = await call(handle, "/rest/api/1/otherHookCode1/tasks.task.add", body, { "Idempotency-Key": "shared" });
    expect(other.headers.get("Idempotent-Replayed")).toBeNull();
    expect(counts.add).toBe(2);
    const same = await call(handle, `/rest/api/1/${CODE}/tasks.task.add`, body, { "Idempotency-Key": "shared" });
    expect(same.headers.get("Idempotent-Replayed")).toBe("true");
  });

  it("the default store at its bound says so in the log", async () => {
    logs.length = 0;
    const h = router({ idempotency: { maxEntries: 1 } });
    await call(h, `/rest/api/1/${CODE}/tasks.task.add`, { fields: { title: "T" } }, { "Idempotency-Key": "k1" });
    await call(h, `/rest/api/1/${CODE}/tasks.task.add`, { fields: { title: "T" } }, { "Idempotency-Key": "k2" });
    expect(logs.filter((l) => l.includes("idempotency store full"))).toHaveLength(1);
  });
});

describe("the request's own credentials never reach a log line", () => {
  it.each([666, 667])("a handler error quoting the request's credential in any shape (taskId %i)", async (taskId) => {
    logs.length = 0;
    const webhook = await call(router(), `/rest/7/${CODE}/tasks.task.getaccess`, { taskId });
    expect(webhook.status).toBe(500);
    expect(logs).toHaveLength(1);
    expect(logs[0]).not.toContain(CODE);
    logs.length = 0;
    const app = await call(router(), "/rest/tasks.task.getaccess", { taskId, auth: TOKEN });
    expect(app.status).toBe(500);
    expect(logs).toHaveLength(1);
    // The token in a Bearer header, in a link, as `auth=` and bare: each shape is gone.
    expect(logs[0]).not.toContain(TOKEN);
    expect(logs[0]).toContain("<redacted>");
  });

  it("an authenticate hook that throws with the code: a 500, and a log line without it", async () => {
    logs.length = 0;
    const r = await call(router(), "/rest/7/boomHookCode99/user.current");
    expect(r.status).toBe(500);
    expect(logs).toHaveLength(1);
    expect(logs[0]).not.toContain("boomHookCode99");
  });

  it("a MethodError's description is answered without the credential", async () => {
    const r = await call(router(), `/rest/7/${CODE}/tasks.task.getaccess`, { taskId: 668 });
    expect(r.json).toEqual({ error: "ERROR_CORE", error_description: "nope <redacted>" });
  });
});

describe("batch, served from the spec's rules", () => {
  const batch = (body: unknown, path = `/rest/7/${CODE}/batch`) => call(router(), path, body);
  it("runs each command through the same checks and handlers; results and errors per command", async () => {
    const r = await batch({
      halt: 0,
      cmd: {
        me: "user.current",
        access: "tasks.task.getaccess?taskId=8017",
        bad: "tasks.task.getaccess?taskId=abc",
        none: "no.such.method",
        nested: "batch?cmd[a]=user.current",
        sdk: { method: "tasks.task.getaccess", params: { taskId: 5 } },
        appOnly: "placement.get",
      },
    });
    expect(r.status).toBe(200);
    const result = r.json.result as Record<string, Record<string, unknown>>;
    expect(result.result).toEqual({ me: { ID: "7" }, access: { allowedActions: { "1": { ACCEPT: true, taskId: 8017 } } }, sdk: { allowedActions: { "1": { ACCEPT: true, taskId: 5 } } } });
    expect(Object.keys(result.result_error ?? {}).sort()).toEqual(["appOnly", "bad", "nested", "none"]);
    // The spec quotes no text for the batch codes (only what they mean): the description is empty.
    expect(result.result_error?.nested).toEqual({ error: "ERROR_BATCH_METHOD_NOT_ALLOWED", error_description: "" });
    expect((result.result_error?.none as { error: string }).error).toBe("ERROR_METHOD_NOT_FOUND");
    // taskId of the wrong type: the spec's own code `0` for tasks.task.getaccess.
    expect((result.result_error?.bad as { error: string }).error).toBe("0");
    expect((result.result_error?.appOnly as { error: string }).error).toBe("WRONG_AUTH_TYPE");
    expect(Object.keys(result.result_time ?? {}).sort()).toEqual(["access", "me", "sdk"]);
    expect(r.json.time).toMatchObject({ operating: expect.any(Number) });
  });

  it("past 50 commands, the first 50 run and each later one ends with ERROR_BATCH_LENGTH_EXCEEDED", async () => {
    const cmd = Object.fromEntries(Array.from({ length: 52 }, (_, i) => [`c${i}`, "user.current"]));
    const result = (await batch({ cmd })).json.result as Record<string, Record<string, unknown>>;
    expect(Object.keys(result.result ?? {})).toHaveLength(50);
    expect(result.result_error).toEqual({
      c50: { error: "ERROR_BATCH_LENGTH_EXCEEDED", error_description: "" },
      c51: { error: "ERROR_BATCH_LENGTH_EXCEEDED", error_description: "" },
    });
  });

  it("halt stops at the first failing command; a list of commands answers lists", async () => {
    const halted = (await batch({ halt: 1, cmd: ["user.current", "no.such", "user.current"] })).json.result as Record<string, unknown>;
    expect(halted.result).toEqual([{ ID: "7" }]);
    expect(halted.result_error).toEqual({ "1": expect.objectContaining({ error: "ERROR_METHOD_NOT_FOUND" }) });
    const empty = (await batch({ cmd: [] })).json.result as Record<string, unknown>;
    expect(empty).toEqual({ result: [], result_error: [], result_total: [], result_next: [], result_time: [] });
  });

  it("a scope the caller lacks fails that command only; no cmd is the spec's argument error", async () => {
    const r = await batch({ cmd: { a: "user.current", b: "tasks.task.getaccess?taskId=1" } }, "/rest/8/limited1/batch");
    const result = r.json.result as Record<string, Record<string, unknown>>;
    expect(Object.keys(result.result ?? {})).toEqual(["a"]);
    expect((result.result_error?.b as { error: string }).error).toBe("insufficient_scope");
    const none = await batch({});
    expect(none).toMatchObject({ status: 400, json: { error: "ERROR_ARGUMENT" } });
  });

  it("the generated client's batch against it, end to end over node:http", async () => {
    const server = createServer(toNodeListener(router({ trustProxy: true })));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const proxyFetch: typeof fetch = (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), "X-Forwarded-Proto": "https" } });
      const rt = createRuntime({ baseUrl: base, allowInsecureHttp: true, auth: { userId: 7, code: CODE }, fetch: proxyFetch }, clientData as ClientData);
      const out = await rt.batch({ me: ["user.current"], access: ["tasks.task.getaccess", { taskId: 42, users: [1] }], gone: ["no.such"] });
      expect(out.results).toEqual({ me: { ID: "7" }, access: { allowedActions: { "1": { ACCEPT: true, taskId: 42 } } } });
      expect(Object.keys(out.errors)).toEqual(["gone"]);
      expect(out.errors.gone?.code).toBe("ERROR_METHOD_NOT_FOUND");
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("a batch is one request for the request-rate limiter; inner calls do not take tokens", async () => {
    const handle = router({ limiter: createLimiter({ requestsPerSecond: 1, burst: 1 }) });
    const r = await call(handle, `/rest/7/${CODE}/batch`, { cmd: { a: "user.current", b: "user.current", c: "user.current" } });
    expect(Object.keys((r.json.result as { result: object }).result)).toHaveLength(3);
    const next = await call(handle, `/rest/7/${CODE}/batch`, { cmd: { a: "user.current" } });
    expect(next).toMatchObject({ status: 503, json: { error: "QUERY_LIMIT_EXCEEDED" } });
  });
});

describe("the node adapter: bodies that are too large or never come", () => {
  let server: ReturnType<typeof createServer>;
  let port = 0;
  beforeAll(async () => {
    server = createServer(toNodeListener(router({ trustProxy: true, maxBodyBytes: 1024 }), { maxBodyBytes: 1024, bodyTimeoutMs: 300 }));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  /** Sends raw bytes and reads until the server answers and closes (or the guard ends it). */
  function raw(request: string): Promise<{ text: string; closed: boolean }> {
    return new Promise((resolve) => {
      const socket = connect(port, "127.0.0.1", () => socket.write(request));
      let text = "";
      let closed = false;
      socket.on("data", (d) => {
        text += String(d);
      });
      socket.on("close", () => {
        closed = true;
        resolve({ text, closed });
      });
      setTimeout(() => {
        socket.destroy();
        resolve({ text, closed });
      }, 5_000).unref();
    });
  }

  it("a declared Content-Length over the limit with a short body: 400 'Request body is too large' at once, connection closed", async () => {
    const started = Date.now();
    const r = await raw(`POST /rest/7/${CODE}/user.current HTTP/1.1\r\nHost: x\r\nX-Forwarded-Proto: https\r\nContent-Type: application/json\r\nContent-Length: 999999\r\n\r\n{}`);
    expect(r.text).toMatch(/^HTTP\/1\.1 400/);
    expect(r.text).toContain("Request body is too large");
    expect(r.closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it("a body that stalls is answered after the body time-out and the connection closed", async () => {
    const r = await raw(`POST /rest/7/${CODE}/user.current HTTP/1.1\r\nHost: x\r\nX-Forwarded-Proto: https\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`);
    expect(r.text).toMatch(/^HTTP\/1\.1 400/);
    expect(r.text).toContain("did not arrive in time");
    expect(r.closed).toBe(true);
  });

  it("a plain web-standard handler is served too, and a handler's context.request is made on first use", async () => {
    const plain = createServer(toNodeListener(async (request: Request) => new Response(`${request.method} ${new URL(request.url).pathname} ${await request.text()}`, { status: 201 })));
    const ctxServer = createServer(
      toNodeListener(
        createHandlerWith(
          { legacy: { "user.current": async (_p: unknown, ctx: { request: Request }) => ({ ID: ctx.request.headers.get("x-trace") }) }, v3: {} },
          { authenticate, trustProxy: true },
          data,
          builtIns,
          { openapiV3 },
        ),
      ),
    );
    await Promise.all([plain, ctxServer].map((s) => new Promise<void>((r) => s.listen(0, "127.0.0.1", r))));
    try {
      const at = (s: typeof plain) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
      const r = await fetch(`${at(plain)}/x`, { method: "POST", body: "hello" });
      expect(r.status).toBe(201);
      expect(await r.text()).toBe("POST /x hello");
      const c = await fetch(`${at(ctxServer)}/rest/7/${CODE}/user.current`, { method: "POST", headers: { "X-Forwarded-Proto": "https", "X-Trace": "t-1", "Content-Type": "application/json" }, body: "{}" });
      expect(((await c.json()) as { result: unknown }).result).toEqual({ ID: "t-1" });
    } finally {
      for (const s of [plain, ctxServer]) {
        s.closeAllConnections();
        s.close();
      }
    }
  });

  it("many such connections do not stay open", async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, () => raw(`POST /rest/7/${CODE}/user.current HTTP/1.1\r\nHost: x\r\nX-Forwarded-Proto: https\r\nContent-Length: 99999999\r\n\r\n`)),
    );
    expect(results.every((r) => r.closed && r.text.startsWith("HTTP/1.1 400"))).toBe(true);
    const open = await new Promise<number>((r) => server.getConnections((_e, n) => r(n)));
    expect(open).toBe(0);
  });
});

describe("both runtimes follow the data of another spec, not constants (issue 13)", () => {
  it("another key length, page size and error text, read from the spec", async () => {
    const text = SPEC_TEXT.replace("| Idempotency key length | 1 to 255 printable ASCII characters |", "| Idempotency key length | 1 to 8 printable ASCII characters |")
      .replace("| List page size | up to 50 records |", "| List page size | up to 3 records |")
      .replace("| 404 | ERROR_METHOD_NOT_FOUND | Method not found! |", "| 404 | ERROR_METHOD_NOT_FOUND | No such method here |");
    const files = (await generate(text, { ...GEN, format: false })).files;
    const dataOf = <T>(path: string): T => JSON.parse(/^export default (\{.*\});$/m.exec(files.find((f) => f.path === path)?.contents ?? "")?.[1] ?? "null") as T;
    const server = dataOf<ServerData>("server/methods.js");
    const client = dataOf<ClientData>("client/methods.js");
    expect(server.idempotencyKey.maxLength).toBe(8);
    expect(client.pageSize).toBe(3);
    // The server: its 404 text and its key rule.
    const handle = createHandlerWith(handlers, { authenticate, methodScopes: { v3: { "tasks.task.add": ["task"] } } }, server, builtIns, { openapiV3 });
    expect((await call(handle, `/rest/7/${CODE}/no.such`)).json).toEqual({ error: "ERROR_METHOD_NOT_FOUND", error_description: "No such method here" });
    const longKey = await call(handle, `/rest/api/7/${CODE}/tasks.task.add`, { fields: { title: "T" } }, { "Idempotency-Key": "123456789" });
    expect(longKey.status).toBe(400);
    expect(JSON.stringify(longKey.json)).toContain("INVALIDIDEMPOTENCYKEYEXCEPTION");
    // The client: its key rule and its page size.
    const pages: number[] = [];
    const fake: typeof fetch = async (_url, init) => {
      const body = JSON.parse(String(init?.body)) as { start: number };
      pages.push(body.start);
      const items = body.start < 6 ? [1, 2, 3] : [1];
      return new Response(JSON.stringify({ result: items, time: {} }), { status: 200, headers: { "Content-Type": "application/json" } });
    };
    const rt = createRuntime({ baseUrl: "https://p.example", auth: { userId: 7, code: CODE }, fetch: fake }, client);
    const all: unknown[] = [];
    for await (const item of rt.paginate("sale.paysystem.list")) all.push(item);
    expect(pages).toEqual([0, 3, 6]);
    expect(all).toHaveLength(7);
    await expect(rt.send("tasks.task.add", "v3", {}, { idempotencyKey: "123456789" })).rejects.toThrow(/1 to 8 printable ASCII/);
  });
});

describe("the platform's wire where the spec is silent (issue 14)", () => {
  const PAY = "/rest/9/payHookCode1";

  it("a list page carries next and total beside result, in the platform's order; the last page has no next", async () => {
    const handle = router();
    const first = await call(handle, `${PAY}/sale.paysystem.list`, { start: 0 });
    expect(Object.keys(first.json)).toEqual(["result", "next", "total", "time"]);
    expect(first.json).toMatchObject({ next: 50, total: 120 });
    expect(first.json.result).toHaveLength(50);
    const last = await call(handle, `${PAY}/sale.paysystem.list`, { start: 100 });
    expect(Object.keys(last.json)).toEqual(["result", "total", "time"]);
    expect(last.json.result).toEqual(PAY_SYSTEMS.slice(100));
  });

  it("start=-1 asks for no count: neither next nor total (huge-data.md:11-15)", async () => {
    const r = await call(router(), `${PAY}/sale.paysystem.list`, { start: -1 });
    expect(Object.keys(r.json)).toEqual(["result", "time"]);
    expect(r.json.result).toHaveLength(50);
  });

  it("inside a batch, a page's total and next go to result_total and result_next", async () => {
    const r = await call(router(), `${PAY}/batch`, { cmd: { a: "sale.paysystem.list?start=0", b: "sale.paysystem.list?start=100", c: "user.current" } });
    const result = r.json.result as Record<string, unknown>;
    expect(result.result_total).toEqual({ a: 120, b: 120 });
    expect(result.result_next).toEqual({ a: 50 });
    expect((result.result as Record<string, unknown[]>).b).toHaveLength(20);
  });

  it("a handler's page() with its own members; a page of a 3.0 method is its records only", async () => {
    const h = createHandlerWith(
      { legacy: { "sale.paysystem.list": async () => page([{ ID: "1" }], { total: 7, next: 1 }) }, v3: {} },
      { authenticate },
      data,
      builtIns,
      { openapiV3 },
    );
    expect((await call(h, `${PAY}/sale.paysystem.list`)).json).toMatchObject({ result: [{ ID: "1" }], next: 1, total: 7 });
  });

  it("the generated client's paginate follows next to the end: 120 records in 3 requests", async () => {
    const requests: string[] = [];
    const handle = router();
    const fetchVia: typeof fetch = async (url, init) => {
      requests.push(String(init?.body));
      return handle(new Request(String(url).replace(/^http:/, "https:"), init));
    };
    const rt = createRuntime({ baseUrl: "https://p.example", auth: { userId: 9, code: "payHookCode1" }, fetch: fetchVia }, clientData as ClientData);
    const all: unknown[] = [];
    for await (const item of rt.paginate("sale.paysystem.list", {}, { maxPages: 5 })) all.push(item);
    expect(all).toEqual(PAY_SYSTEMS);
    expect(requests).toHaveLength(3);
  });

  it("$result references: a later command takes an earlier command's result (batch.md:52, 239, 325)", async () => {
    const r = await call(router(), `/rest/7/${CODE}/batch`, {
      cmd: {
        me: "user.current",
        access: "tasks.task.getaccess?taskId=$result[me][ID]",
        text: "tasks.task.getaccess?taskId=1$result[me][ID]",
        missing: "tasks.task.getaccess?taskId=$result[nobody][ID]",
      },
    });
    const result = r.json.result as Record<string, Record<string, unknown>>;
    expect(result.result?.access).toEqual({ allowedActions: { "1": { ACCEPT: true, taskId: 7 } } });
    expect(result.result?.text).toEqual({ allowedActions: { "1": { ACCEPT: true, taskId: 17 } } });
    // A reference to no command stays as written: a taskId of the wrong type, the spec's code `0`.
    expect((result.result_error?.missing as { error: string }).error).toBe("0");
    // A `__proto__` key anywhere in the request refuses it before any command runs or any reference is put in.
    const evil = await call(router(), `/rest/7/${CODE}/batch`, `{"cmd":{"a":{"method":"tasks.task.getaccess","params":{"taskId":1,"__proto__":{"admin":true}}}}}`);
    expect(evil).toMatchObject({ status: 400, json: { error: "ERROR_ARGUMENT", argument: "__proto__" } });
  });

  it("legacy bodies: form data with PHP-style keys, and strings that read as the declared type (general-principles.md:28)", async () => {
    const form = await router()(
      new Request(`https://p.example/rest/7/${CODE}/tasks.task.getaccess`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "taskId=5&users%5B%5D=1&users%5B%5D=2",
      }),
    );
    expect(await form.json()).toMatchObject({ result: { allowedActions: { "1": { taskId: 5 } } } });
    const token = await router()(
      new Request("https://p.example/rest/tasks.task.getaccess", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: `taskId=6&auth=${TOKEN}` }),
    );
    expect(await token.json()).toMatchObject({ result: { allowedActions: { "1": { taskId: 6 } } } });
    expect((await call(router(), `/rest/7/${CODE}/tasks.task.getaccess`, { taskId: "5" })).json).toMatchObject({ result: { allowedActions: { "1": { taskId: 5 } } } });
    // A string that does not read as an integer is still a wrong type: the spec's `0`, `wrong task id`.
    expect((await call(router(), `/rest/7/${CODE}/tasks.task.getaccess`, { taskId: "five" })).json).toEqual({ error: "0", error_description: "wrong task id" });
  });

  it("3.0 stays JSON only: form data is INVALIDJSONEXCEPTION", async () => {
    const r = await router()(
      new Request(`https://p.example/rest/api/1/${CODE}/tasks.task.add`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "fields%5Btitle%5D=T" }),
    );
    expect(JSON.stringify(await r.json())).toContain("INVALIDJSONEXCEPTION");
  });

  it("select, filter and order in either case reach the handler under the spec's names (D7)", async () => {
    await call(router(), `${PAY}/sale.paysystem.list`, { select: ["ID"], filter: { ACTIVE: "Y" }, order: { ID: "ASC" } });
    expect(lastListParams).toEqual({ SELECT: ["ID"], FILTER: { ACTIVE: "Y" }, ORDER: { ID: "ASC" } });
    await call(router(), `${PAY}/sale.paysystem.list`, { SELECT: ["ID"], order: { ID: "DESC" } });
    expect(lastListParams).toEqual({ SELECT: ["ID"], ORDER: { ID: "DESC" } });
    // A wrong value under the other case is still checked: ORDER's values are ASC and DESC.
    expect((await call(router(), `${PAY}/sale.paysystem.list`, { order: { ID: "UP" } })).json).toMatchObject({ error: "ERROR_ARGUMENT", argument: "ORDER.ID" });
  });

  it("the 3.0 batch: not found by default; with v3Batch, a JSON array of {method, query} answered in order, all or nothing (rest-v3.md:428)", async () => {
    const commands = [{ method: "tasks.task.add", query: { fields: { title: "A" } } }, { method: "tasks.task.add", query: { fields: { title: "B" } } }];
    const off = await call(router(), `/rest/api/1/${CODE}/batch`, commands);
    expect(off.status).toBe(404);
    counts.add = 0;
    const on = router({ v3Batch: true });
    const r = await call(on, `/rest/api/1/${CODE}/batch`, commands);
    expect(r.status).toBe(200);
    expect(r.json.result).toEqual([{ item: { id: 1 } }, { item: { id: 2 } }]);
    const failing = await call(on, `/rest/api/1/${CODE}/batch`, [commands[0], { method: "tasks.task.add", query: { fields: "not an object" } }, commands[1]]);
    expect(failing.status).toBe(400);
    expect(JSON.stringify(failing.json)).toContain("REQUESTVALIDATIONEXCEPTION");
    expect(counts.add).toBe(3);
    const nested = await call(on, `/rest/api/1/${CODE}/batch`, [{ method: "batch", query: {} }]);
    expect(JSON.stringify(nested.json)).toContain("ERROR_BATCH_METHOD_NOT_ALLOWED");
  });

  it("requirements as the spec writes them (D8): a starred parameter in an 'at least one of', 'required for online; ignored for offline'", async () => {
    const everyScope = createHandlerWith(handlers, { authenticate: () => ({ userId: 1, scopes: ["telephony"], admin: true, applicationId: "a" }) }, data, builtIns, { openapiV3 });
    // telephony.externalCall.finish with USER_PHONE_INNER and no USER_ID passes validation (no handler here: 404).
    const finish = await call(everyScope, "/rest/telephony.externalCall.finish", { auth: "t", CALL_ID: "c", USER_PHONE_INNER: "101" });
    expect(finish.json.error).toBe("ERROR_METHOD_NOT_FOUND");
    const neither = await call(everyScope, "/rest/telephony.externalCall.finish", { auth: "t", CALL_ID: "c" });
    expect(neither.json).toMatchObject({ error: "ERROR_ARGUMENT", argument: "USER_ID, USER_PHONE_INNER" });
    // event.bind: an offline binding needs no handler; an online one answers the spec's own text.
    const offline = await call(everyScope, "/rest/event.bind", { auth: "t", event: "ONX", event_type: "offline" });
    expect(offline.json.error).toBe("ERROR_METHOD_NOT_FOUND");
    const online = await call(everyScope, "/rest/event.bind", { auth: "t", event: "ONX" });
    expect(online).toMatchObject({ status: 400, json: { error: "ERROR_ARGUMENT", error_description: "Argument 'HANDLER' is null or empty", argument: "handler" } });
    // The handler is a URL "with scheme `http` or `https`": another scheme is the spec's ERROR_UNSUPPORTED_PROTOCOL,
    // no URL at all its ERROR_WRONG_HANDLER_URL (the fault probe: the mock kept `ftp://…` and `not a url`).
    for (const [handler, error] of [["ftp://a.example/h", "ERROR_UNSUPPORTED_PROTOCOL"], ["javascript:alert(1)", "ERROR_UNSUPPORTED_PROTOCOL"], ["not a url", "ERROR_WRONG_HANDLER_URL"], ["/relative/path", "ERROR_WRONG_HANDLER_URL"]]) {
      const r = await call(everyScope, "/rest/event.bind", { auth: "t", event: "ONX", handler });
      expect(r, handler).toMatchObject({ status: 400, json: { error } });
    }
    // http and https in any case pass the router (to the handler, absent here); an offline binding ignores it.
    for (const handler of ["https://a.example/h", "HTTP://a.example/h"]) expect((await call(everyScope, "/rest/event.bind", { auth: "t", event: "ONX", handler })).json.error, handler).toBe("ERROR_METHOD_NOT_FOUND");
    expect((await call(everyScope, "/rest/event.bind", { auth: "t", event: "ONX", event_type: "offline", handler: "not a url" })).json.error).toBe("ERROR_METHOD_NOT_FOUND");
  });

  // A hang guard (D6): this took minutes with the pattern fromQuery used before the review.
  it("a hostile form body is answered, before authentication (issue 14's review)", async () => {
    const r = await router()(
      new Request("https://p.example/rest/user.current", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: `a${"[".repeat(900_000)}=1` }),
    );
    expect(r.status).toBe(401);
  }, 5_000);
});
