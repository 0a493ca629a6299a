import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openapiV3 } from "../../output/server/documentation.js";
import serverData from "../../output/server/methods.js";
import type { ServerData } from "../../runtime/shared/data.js";
import { type Caller, type Credentials, type HandlerOptions, MethodError } from "../../runtime/server/handler.js";
import { type BuiltInSpec, createHandlerWith } from "../../runtime/server/index.js";
import { CORE, toNodeListener } from "../../runtime/server/node.js";
import { createMemoryIdempotencyStore } from "../../runtime/server/idempotency.js";
import { page, pageOf } from "../../runtime/server/page.js";
import { legacyParams, typeOk } from "../../runtime/server/validate.js";
import { fromQuery } from "../../runtime/server/query.js";

/**
 * Issue 24, the generated server: each case is a reproducer from the hostile-input probe that failed before its
 * fix (a stall before authentication, a status that ended the process, a batch that grew to the heap's limit, a
 * thrown value that failed the whole batch). Time limits here are hang guards, ten times what the cases take (D6).
 */
const CODE = "hostileHookCode7";
const APP_TOKEN = "hostileAppToken9";
const data = serverData as ServerData;
const builtIns: BuiltInSpec = { documentation: { legacy: [], v3: ["rest.documentation.openapi", "documentation"] }, scopeList: { legacy: [], v3: ["rest.scope.list"] } };
const logs: string[] = [];
let status: unknown = 0;
let thrown: unknown = null;

function authenticate(c: Credentials): Caller | { error: string } {
  if (c.kind === "webhook" && c.code === CODE) return { userId: 1, scopes: ["task", "user", "telephony", "pay_system", "mailservice"], admin: true };
  if (c.kind === "token" && c.token === APP_TOKEN) return { userId: 1, applicationId: "app", scopes: ["base"], admin: true };
  return { error: "INVALID_CREDENTIALS" };
}

const handlers = {
  legacy: {
    "user.current": async () => ({ ID: "1" }),
    // A create or update handler that answers with its parameters, as many do.
    "tasks.task.getaccess": async (p: Record<string, unknown>) => p,
    "tasks.task.stopwatch": async () => {
      throw new MethodError({ code: "UPSTREAM", description: "the upstream portal failed", status: status as number });
    },
    "tasks.task.unpin": async () => {
      throw thrown;
    },
    "sale.paysystem.list": async () => ({ big: BigInt(1) }),
    // Handlers that answer with what they were given, for the probe of issue 29's close.
    "sale.paysystem.settings.update": async (p: Record<string, unknown>) => p,
    "telephony.externalCall.show": async (p: Record<string, unknown>) => p,
    "mailservice.fields": async (_p: unknown, context: { request: Request }) => ({ agent: context.request.headers.get("user-agent"), url: context.request.url }),
    // A page whose count JSON cannot write.
    "mailservice.list": async () => page([{ ID: "1" }], { total: BigInt(10) as unknown as number }),
  },
  v3: {
    "tasks.task.chat.message.send": async (p: Record<string, unknown>) => ({ echo: p }),
    "tasks.task.add": async () => {
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { item: { id: runs } };
    },
  },
};
let runs = 0;

function router(extra: Partial<HandlerOptions> = {}) {
  return createHandlerWith(handlers, { authenticate, log: (e) => logs.push(e.message), ...extra }, data, builtIns, { openapiV3 });
}

async function post(handle: (r: Request) => Promise<Response>, path: string, body: string, type = "application/json") {
  const res = await handle(new Request(`https://p.example${path}`, { method: "POST", headers: { "Content-Type": type }, body }));
  return { status: res.status, text: await res.text() };
}

describe("a form body's indexes cost what the body is long, never what its numbers say (item 1)", () => {
  const handle = router();
  it.each([
    ["/rest/1/wrongcode/user.current", "a[]=1&a[100000000]=2", 401],
    [`/rest/1/${CODE}/tasks.task.getaccess`, "taskId=100&users[]=1&users[10000000]=2", 200],
    [`/rest/1/${CODE}/tasks.task.getaccess`, "taskId=100&users[]=1&users[4294967294]=2", 200],
    [`/rest/1/${CODE}/tasks.task.getaccess`, "taskId=100&users[9007199254740991]=1&users[]=2", 200],
  ])("%s with %s", async (path, body, want) => {
    const t0 = performance.now();
    const r = await post(handle, path, body, "application/x-www-form-urlencoded");
    expect(r.status).toBe(want);
    // A hang guard: before the fix the first case took 7.9 s and the third minutes.
    expect(performance.now() - t0).toBeLessThan(2_000);
  }, 20_000);

  it("sparse keys are read as a map; dense ones are the list they stand for", () => {
    expect(fromQuery("a[]=1&a[100000000]=2")).toEqual({ a: { "0": "1", "100000000": "2" } });
    expect(fromQuery("a[0]=x&a[1]=y&b[2]=z")).toEqual({ a: ["x", "y"], b: { "2": "z" } });
    expect(fromQuery("a[]=1&a[4294967294]=2&a[]=3")).toEqual({ a: { "0": "1", "4294967294": "2", "4294967295": "3" } });
  });

  it("the handler gets the indexes that were sent, in order, as its declared list", async () => {
    const r = await post(handle, `/rest/1/${CODE}/tasks.task.getaccess`, "taskId=100&users[]=1&users[10000000]=2", "application/x-www-form-urlencoded");
    expect(JSON.parse(r.text).result).toEqual({ taskId: 100, users: ["1", "2"] });
  });
});

describe("a method error's status is refused at the boundary (item 2)", () => {
  it.each([0, 99, 1000, Number.NaN, 200, 302, 4.5, "400" as unknown as number])("status %s answers 500 with the error's code, and a log line", async (s) => {
    status = s;
    logs.length = 0;
    const r = await post(router(), `/rest/1/${CODE}/tasks.task.stopwatch`, JSON.stringify({ taskId: 1 }));
    expect(r.status).toBe(500);
    expect(JSON.parse(r.text)).toMatchObject({ error: "UPSTREAM", error_description: "the upstream portal failed" });
    expect(logs.join("\n")).toMatch(/not an HTTP error status/);
  });

  it("a status in 400-599 goes out as it is", async () => {
    status = 502;
    expect((await post(router(), `/rest/1/${CODE}/tasks.task.stopwatch`, JSON.stringify({ taskId: 1 }))).status).toBe(502);
  });

  describe("through the node adapter on loopback, the process lives on", () => {
    let port = 0;
    const server = createServer(toNodeListener(router(), { allowHttp: true } as never));
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    beforeAll(async () => {
      process.on("unhandledRejection", onRejection);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      process.off("unhandledRejection", onRejection);
      await new Promise((resolve) => server.close(resolve));
    });
    it("a core that answers a status node refuses drops the connection; the process lives on", async () => {
      const broken = Object.assign(async () => new Response(""), { [CORE]: async () => ({ status: 0, headers: {}, body: "x" }) });
      const local = createServer(toNodeListener(broken as never, { allowHttp: true } as never));
      await new Promise<void>((resolve) => local.listen(0, "127.0.0.1", resolve));
      const p = (local.address() as AddressInfo).port;
      const outcome = await new Promise<string>((resolve) => {
        const req = httpRequest({ host: "127.0.0.1", port: p, method: "POST", path: "/rest/1/x/user.current" }, (res) => resolve(`status ${res.statusCode}`));
        req.on("error", (e) => resolve(`error ${(e as NodeJS.ErrnoException).code}`));
        req.end("{}");
      });
      await new Promise((resolve) => local.close(resolve));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(outcome).toBe("error ECONNRESET");
      expect(rejections).toEqual([]);
    });

    it("status 0 is answered 500 and leaves no unhandled rejection", async () => {
      status = 0;
      const handle = router({ allowHttp: true });
      const local = createServer(toNodeListener(handle));
      await new Promise<void>((resolve) => local.listen(0, "127.0.0.1", resolve));
      const p = (local.address() as AddressInfo).port;
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: "127.0.0.1", port: p, method: "POST", path: `/rest/1/${CODE}/tasks.task.stopwatch`, headers: { "Content-Type": "application/json" } }, (res) => {
          let body = "";
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject);
        req.end(JSON.stringify({ taskId: 1 }));
      });
      await new Promise((resolve) => local.close(resolve));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(answer.status).toBe(500);
      expect(rejections).toEqual([]);
      expect(port).toBeGreaterThan(0);
    });
  });
});

describe("a batch builds at most its byte bound; the command that crosses it fails alone (item 3)", () => {
  /** Four commands, each holding 100 references to the previous command's whole result: 100x growth a command. */
  function growing(): string {
    const params = (prev: string) => Array.from({ length: 100 }, (_, i) => `users[${i}]=$result[${prev}]`).join("&");
    const cmd: Record<string, string> = { c0: `tasks.task.getaccess?taskId=1&users[0]=${"x".repeat(10_000)}` };
    for (let i = 1; i < 4; i++) cmd[`c${i}`] = `tasks.task.getaccess?taskId=1&${params(`c${i - 1}`)}`;
    return JSON.stringify({ cmd });
  }

  it("the 16.7 KB batch of the probe: the first two answer, the third crosses 16 MiB and fails alone", async () => {
    const body = growing();
    expect(body.length).toBeLessThan(20_000);
    const r = await post(router(), `/rest/1/${CODE}/batch`, body);
    expect(r.status).toBe(200);
    expect(r.text.length).toBeLessThan(16 * 1024 * 1024 + 100_000);
    const result = JSON.parse(r.text).result;
    expect(Object.keys(result.result)).toEqual(["c0", "c1", "c3"]);
    expect(Object.keys(result.result_error)).toEqual(["c2"]);
    expect(result.result_error.c2.error_description).toMatch(/bound of 16777216 bytes/);
    // The fourth refers to a command that failed: its references stay as written, as for any command that did not run.
    expect(result.result.c3.users[0]).toBe("$result[c2]");
  }, 30_000);

  it("a smaller bound is honoured the same way, and answers within it are kept", async () => {
    const r = await post(router({ maxBatchBytes: 50_000 }), `/rest/1/${CODE}/batch`, growing());
    const result = JSON.parse(r.text).result;
    expect(Object.keys(result.result)).toEqual(["c0", "c2"]);
    expect(Object.keys(result.result_error)).toEqual(["c1", "c3"]);
    expect(JSON.parse(r.text).result.result_error.c3.error_description).toMatch(/bound of 50000 bytes/);
  });
});

describe("a command that throws an exotic value ends that command only (item 4)", () => {
  const hostile = [
    {
      toString() {
        throw new Error("no text for you");
      },
    },
    new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error("no prototype either");
        },
      },
    ),
    Object.create(null),
    Symbol("s"),
  ];
  it.each(hostile.map((v, i) => [i, v]))("value %i: the other commands keep their answers", async (_i, value) => {
    thrown = value;
    logs.length = 0;
    const cmd = { a: "user.current", b: "tasks.task.unpin?id=1", c: "tasks.task.getaccess?taskId=5" };
    const r = await post(router(), `/rest/1/${CODE}/batch`, JSON.stringify({ cmd }));
    expect(r.status).toBe(200);
    const result = JSON.parse(r.text).result;
    expect(result.result).toEqual({ a: { ID: "1" }, c: { taskId: 5 } });
    expect(result.result_error.b.error).toBe("INTERNAL_SERVER_ERROR");
    expect(logs.length).toBeGreaterThan(0);
  });

  it("a result, or a page's count, that cannot be written as JSON fails its own command", async () => {
    const cmd = { a: "user.current", b: "sale.paysystem.list", c: "mailservice.list" };
    const r = await post(router(), `/rest/1/${CODE}/batch`, JSON.stringify({ cmd }));
    const result = JSON.parse(r.text).result;
    expect(result.result).toEqual({ a: { ID: "1" } });
    expect(result.result_error.b.error).toBe("INTERNAL_SERVER_ERROR");
    expect(result.result_error.c.error).toBe("INTERNAL_SERVER_ERROR");
  });

  it("outside a batch, the same values answer 500 with the spec's internal error", async () => {
    for (const value of hostile) {
      thrown = value;
      const r = await post(router(), `/rest/1/${CODE}/tasks.task.unpin`, JSON.stringify({ id: 1 }));
      expect(r.status).toBe(500);
      expect(JSON.parse(r.text).error).toBe("INTERNAL_SERVER_ERROR");
    }
  });
});

describe("a method slower than its idempotency lease runs once (the lease is kept while it runs)", () => {
  it("a 300 ms method with a 100 ms lease, and repeats arriving while it runs: one run, every answer the same", async () => {
    runs = 0;
    const handle = router({ idempotencyStore: createMemoryIdempotencyStore(), idempotency: { leaseMs: 100 }, methodScopes: { v3: { "tasks.task.add": ["task"] } } });
    const add = () =>
      handle(
        new Request(`https://p.example/rest/api/1/${CODE}/tasks.task.add`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "Idempotency-Key": "slow-key" },
          body: JSON.stringify({ fields: { title: "T" } }),
        }),
      ).then(async (r) => ({ status: r.status, body: await r.text() }));
    const first = add();
    await new Promise((resolve) => setTimeout(resolve, 150));
    const answers = await Promise.all([first, add(), add()]);
    expect(runs).toBe(1);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => JSON.parse(a.body).result.item.id))).toEqual(new Set([1]));
  });
});

describe("the fault probe after issue 29: no 500 from a value's text, no credential into a handler, the forms a PHP array takes", () => {
  it("a parameter that another's requirement reads, sent as {\"toString\": 1}, is that parameter's type error, not a 500", async () => {
    logs.length = 0;
    for (const [body, type] of [
      [JSON.stringify({ auth: APP_TOKEN, event: "ONCRMDEALADD", handler: "https://example.com/h", event_type: { toString: 1 } }), "application/json"],
      [`auth=${APP_TOKEN}&event=ONCRMDEALADD&handler=https%3A%2F%2Fexample.com%2Fh&event_type[toString]=1`, "application/x-www-form-urlencoded"],
    ] as const) {
      const r = await post(router(), "/rest/event.bind", body, type);
      expect(r.status, r.text).toBe(400);
      expect(JSON.parse(r.text).error).not.toBe("INTERNAL_SERVER_ERROR");
    }
    expect(logs).toEqual([]);
  });

  it("a batch command's own auth never reaches the handler, nor the answer; `.json` after its method is the call's format, as alone", async () => {
    const cmd = { a: "tasks.task.getaccess.json?taskId=1&auth=commandToken123", b: { method: "tasks.task.getaccess", params: { taskId: 2, auth: "commandToken456" } } };
    const r = await post(router(), `/rest/1/${CODE}/batch`, JSON.stringify({ cmd }));
    expect(r.status).toBe(200);
    expect(r.text).not.toMatch(/commandToken/);
    expect(JSON.parse(r.text).result.result).toEqual({ a: { taskId: 1 }, b: { taskId: 2 } });
  });

  it("a 3.0 batch command's own auth never reaches the handler nor the answer either", async () => {
    const handle = router({ v3Batch: true, methodScopes: { v3: { "tasks.task.chat.message.send": ["task"] } } });
    const r = await post(handle, `/rest/api/1/${CODE}/batch`, JSON.stringify([{ method: "tasks.task.chat.message.send", query: { auth: "commandToken789", fields: { taskId: 1, text: "hi" } } }]));
    expect(r.status, r.text).toBe(200);
    expect(r.text).not.toMatch(/commandToken/);
    expect(JSON.parse(r.text).result).toEqual([{ echo: { fields: { taskId: 1, text: "hi" } } }]);
  });

  it("pageOf's start with no number in it is the first page, not a 500 (`start` has no type in the shipped spec)", async () => {
    expect(pageOf([1, 2, 3], JSON.parse('{"toString": 1}'), 2)).toEqual(page([1, 2], { total: 3, next: 2 }));
    expect(pageOf([1, 2, 3], [JSON.parse('{"toString": 1}')], 2)).toEqual(page([1, 2], { total: 3, next: 2 }));
    expect(pageOf([1, 2, 3], "2", 2)).toEqual(page([3], { total: 3 }));
  });

  it("a map's values are read from a form as a member's are; a union reads a value as the first option that takes it, each reading kept (a recursive union costs linear time)", () => {
    const map = { name: "m", required: false, type: { kind: "object", members: [], additional: { kind: "integer" } } } as const;
    const info = { name: "x", described: true, scopes: null, applicationContextOnly: false, adminOnly: false, idempotencyKey: false, params: [map], atLeastOne: [], callForms: [] };
    expect(legacyParams(info as never, { m: { a: "5", b: "x" } }, {})).toEqual({ m: { a: 5, b: "x" } });
    // A union of object cases told apart by `type` (the timeline's actions): a form's value is read as the case that
    // takes it, not the first object case (review: `actionParams[1]=a` of a `restEvent` action was refused).
    const cases = { name: "a", required: false, type: { kind: "union", options: [{ kind: "object", members: [{ name: "type", required: true, type: { kind: "string", enum: ["redirect"] } }, { name: "uri", required: false, type: { kind: "string" } }] }, { kind: "object", members: [{ name: "type", required: true, type: { kind: "string", enum: ["restEvent"] } }, { name: "actionParams", required: false, type: { kind: "array", items: { kind: "string" } } }] }] } } as const;
    expect(legacyParams({ ...info, params: [cases] } as never, { a: { type: "restEvent", actionParams: { "1": "a" } } }, {})).toEqual({ a: { type: "restEvent", actionParams: ["a"] } });
    expect(legacyParams({ ...info, params: [cases] } as never, { a: { type: "redirect", uri: "/x" } }, {})).toEqual({ a: { type: "redirect", uri: "/x" } });
    // T = T[] | map<T>: a list 20 deep of a text, refused in the end, was read as each option at every level (2^depth:
    // 1.1 s here; deeper, the depth limit cut it off).
    const shapes = { T: { kind: "union", options: [{ kind: "array", items: { kind: "ref", name: "T" } }, { kind: "object", members: [], additional: { kind: "ref", name: "T" } }] } } as never;
    const deep = { ...info, params: [{ name: "p", required: false, type: { kind: "ref", name: "T" } }] };
    let v: unknown = "x";
    for (let i = 0; i < 20; i++) v = [v];
    const started = performance.now();
    expect(legacyParams(deep as never, { p: v }, shapes)).toEqual({ p: v });
    // A hang guard, far above the millisecond it takes now.
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("validating a union of lists that recurse costs linear time: each option's answer for a value is kept", () => {
    // T = T[] | T[] | T[] (options alike, as a spec may write them): a list 15 deep of a text fits none, and each
    // level asked every option again, 3^15 checks (1.8 s here).
    const list = () => ({ kind: "array", items: { kind: "ref", name: "T" } });
    const shapes = { T: { kind: "union", options: [list(), list(), list()] } } as never;
    let v: unknown = "x";
    for (let i = 0; i < 15; i++) v = [v];
    const started = performance.now();
    expect(typeOk({ kind: "ref", name: "T" }, v, "p", shapes)).toEqual({ argument: "p", reason: "type" });
    // A hang guard, far above the millisecond it takes now.
    expect(performance.now() - started).toBeLessThan(500);
    let ok: unknown = [];
    for (let i = 0; i < 20; i++) ok = [ok];
    expect(typeOk({ kind: "ref", name: "T" }, ok, "p", shapes)).toBeNull();
  });

  it("the unions' kept answers are by depth: an answer taken at the depth limit does not hold nearer the top (review)", () => {
    // U = R0 -> … -> R39 -> P | Q; P = { x: T, y: integer }, Q = { x: T }; T = T[] | integer. Through P, `x`'s lists
    // meet the depth limit and pass; through Q, nearer the top, the bad leaf is found. A refusal either way.
    const shapes: Record<string, unknown> = {
      U: { kind: "union", options: [{ kind: "ref", name: "R0" }, { kind: "ref", name: "Q" }] },
      P: { kind: "object", members: [{ name: "x", required: true, type: { kind: "ref", name: "T" } }, { name: "y", required: true, type: { kind: "integer" } }] },
      Q: { kind: "object", members: [{ name: "x", required: true, type: { kind: "ref", name: "T" } }] },
      T: { kind: "union", options: [{ kind: "array", items: { kind: "ref", name: "T" } }, { kind: "integer" }] },
    };
    for (let i = 0; i < 40; i++) shapes[`R${i}`] = { kind: "ref", name: i === 39 ? "P" : `R${i + 1}` };
    let x: unknown = "bad";
    for (let i = 0; i < 10; i++) x = [x];
    expect(typeOk({ kind: "ref", name: "U" }, { x, y: "no" }, "p", shapes as never)).toEqual({ argument: "p", reason: "type" });
  });

  it("a map given as a list is the PHP array keyed by position; a union's text is read as the option that takes it", async () => {
    const form = await post(router(), `/rest/1/${CODE}/sale.paysystem.settings.update`, "ID=1&SETTINGS[0][TYPE]=VALUE&SETTINGS[0][VALUE]=a&SETTINGS[1][TYPE]=VALUE", "application/x-www-form-urlencoded");
    expect(form.status, form.text).toBe(200);
    expect(JSON.parse(form.text).result.SETTINGS).toEqual({ "0": { TYPE: "VALUE", VALUE: "a" }, "1": { TYPE: "VALUE" } });
    const json = await post(router(), `/rest/1/${CODE}/sale.paysystem.settings.update`, JSON.stringify({ SETTINGS: [{ TYPE: "VALUE" }] }));
    expect(JSON.parse(json.text).result.SETTINGS).toEqual({ "0": { TYPE: "VALUE" } });
    // `integer | integer[]`: a form's "5" is the integer, its list the list; a text neither takes stays refused.
    const one = await post(router(), `/rest/1/${CODE}/telephony.externalCall.show`, "CALL_ID=c&USER_ID=5", "application/x-www-form-urlencoded");
    expect(JSON.parse(one.text).result.USER_ID).toBe(5);
    const many = await post(router(), `/rest/1/${CODE}/telephony.externalCall.show`, "CALL_ID=c&USER_ID[]=5&USER_ID[]=6", "application/x-www-form-urlencoded");
    expect(JSON.parse(many.text).result.USER_ID).toEqual([5, 6]);
    const bad = await post(router(), `/rest/1/${CODE}/telephony.externalCall.show`, "CALL_ID=c&USER_ID=five", "application/x-www-form-urlencoded");
    expect(bad.status).toBe(400);
  });

  it("a Host header that is no URL's host gives a handler reading context.request a URL on localhost, not a 500", async () => {
    const server = createServer(toNodeListener(router({ allowHttp: true })));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      for (const host of ["x:99999", "a b", "[::1", "ex%ample"]) {
        const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: `/rest/1/${CODE}/mailservice.fields`, headers: { Host: host, "User-Agent": "probe", "Content-Type": "application/json" } }, (res) => {
            let body = "";
            res.on("data", (c) => (body += c));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
          });
          req.on("error", reject);
          req.end("{}");
        });
        expect(answer.status, `${host}: ${answer.body}`).toBe(200);
        expect(JSON.parse(answer.body).result).toEqual({ agent: "probe", url: "http://localhost/rest/1/hostileHookCode7/mailservice.fields" });
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
