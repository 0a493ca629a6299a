import { type Server, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openapiV3 } from "../../output/server/documentation.js";
import mockData from "../../output/server/mock.js";
import serverData from "../../output/server/methods.js";
import { createEventHandler, formEncode, parseFormBody } from "../../runtime/server/events.js";
import { EVENTS_CONTROL_PATH, type MockData, type MockOptions, createMockWith } from "../../runtime/server/mock.js";
import { CORE, toNodeListener } from "../../runtime/server/node.js";
import type { ServerData } from "../../runtime/shared/data.js";

/**
 * The mock delivers events to bound handlers (issue 29 item 4): only when asked (`deliverEvent`, `POST /_mock/events`),
 * only to handlers on loopback or on hosts named, with a timeout, no redirects followed and the handler's answer read
 * up to a bound; a binding to another host is kept, not delivered to, and the mock says so. The handlers here are
 * real servers on 127.0.0.1, the server package's own `createEventHandler` among them.
 */

const data = serverData as unknown as ServerData;
const mock = mockData as unknown as MockData;
const builtIns = { documentation: { legacy: [], v3: ["rest.documentation.openapi", "documentation"] }, scopeList: { legacy: [], v3: ["rest.scope.list"] } };
const TOKEN = "app-token-4f1c";
const seed = { tokens: [{ token: "t", userId: 1, scopes: [], applicationId: "A" }, { token: "u", userId: 1, scopes: [], applicationId: "B" }], applicationToken: TOKEN };

function mockOf(options: MockOptions = {}) {
  return createMockWith({ seed, ...options }, data, mock, builtIns, { openapiV3 });
}

async function bind(handle: ReturnType<typeof mockOf>, params: Record<string, unknown>, token = "t") {
  const res = await handle(new Request("https://127.0.0.1/rest/event.bind", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...params, auth: token }) }));
  return (await res.json()) as { result?: unknown; error?: string };
}

const received: Array<Record<string, unknown>> = [];
const servers: Server[] = [];
let base = "";
let slow = "";

beforeAll(async () => {
  // The application's handler: the server package's own, checking the application token.
  const handler = createEventHandler({ applicationToken: TOKEN, handlers: { ONCRMDEALADD: (p: unknown) => void received.push(p as Record<string, unknown>) } });
  const listen = async (listener: Parameters<typeof createServer>[1]) => {
    const s = createServer(listener);
    servers.push(s);
    await new Promise<void>((ok) => s.listen(0, "127.0.0.1", ok));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  };
  base = await listen((req, res) => {
    if (req.url === "/redirect") {
      res.writeHead(302, { location: "http://127.0.0.1:1/elsewhere" }).end();
      return;
    }
    if (req.url === "/big") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("x".repeat(200_000));
      return;
    }
    toNodeListener(handler)(req, res);
  });
  // A handler that never answers: the delivery gives up after its timeout.
  slow = await listen(() => undefined);
});

afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((ok) => s.close(ok));
  }
});

describe("the mock delivers events to bound handlers, only when asked", () => {
  it("posts the event form-encoded, as the platform does, and the package's handler accepts its application token", async () => {
    const handle = mockOf();
    expect((await bind(handle, { event: "onCrmDealAdd", handler: `${base}/events?secret=s3cr3t` })).result).toBe(true);
    // Nothing is sent at binding: only when asked.
    expect(received).toHaveLength(0);
    const report = await handle.deliverEvent("onCrmDealAdd", { FIELDS: { ID: 6641 } }, { origin: "https://127.0.0.1:8443" });
    expect(report).toEqual({ event: "ONCRMDEALADD", delivered: [{ id: 1, handler: `${base}/events`, status: 200 }], skipped: [] });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      event: "ONCRMDEALADD",
      event_handler_id: "1",
      data: { FIELDS: { ID: "6641" } },
      auth: { application_token: TOKEN, domain: "127.0.0.1:8443", client_endpoint: "https://127.0.0.1:8443/rest/", member_id: "mock", status: "L" },
    });
    // No access or refresh token travels with it (the reference: they are not always passed).
    expect(Object.keys(received[0]?.auth as object)).not.toContain("access_token");
    expect(received[0]?.ts).toMatch(/^\d+$/);
  });

  it("answers POST /_mock/events with the report; a bad request is the control endpoint's 400, not a crash", async () => {
    const handle = mockOf();
    await bind(handle, { event: "ONCRMDEALADD", handler: `${base}/events` });
    const before = received.length;
    const ask = (body: string, headers: Record<string, string> = { "content-type": "application/json" }, url = `https://127.0.0.1${EVENTS_CONTROL_PATH}`) => handle(new Request(url, { method: "POST", headers, body }));
    const res = await ask(JSON.stringify({ event: "ONCRMDEALADD", data: { FIELDS: { ID: 7 } } }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ event: "ONCRMDEALADD", delivered: [{ status: 200 }] });
    expect(received.length).toBe(before + 1);
    for (const body of ["", "[]", "{}", '{"event": 5}', "not json"]) expect((await ask(body)).status, body).toBe(400);
    expect((await handle(new Request(`https://127.0.0.1${EVENTS_CONTROL_PATH}`))).status).toBe(405);
    // JSON only: a page in a browser cannot send it without a preflight, which the mock never grants.
    expect((await ask('{"event":"ONCRMDEALADD"}', { "content-type": "text/plain" })).status).toBe(415);
    // A body over 1 MiB is refused unread.
    expect((await ask(`{"event":"X","data":"${"x".repeat(1 << 20)}"}`)).status).toBe(400);
    // A deep value that PHP's form would write many times over (every key repeats its path) is refused, not built.
    let deep: unknown = Array.from({ length: 20_000 }, () => 1);
    for (let i = 0; i < 200; i++) deep = [deep];
    const big = await ask(JSON.stringify({ event: "ONCRMDEALADD", data: deep }));
    expect(big.status).toBe(400);
    expect(((await big.json()) as { error_description: string }).error_description).toMatch(/form body passes/);
    // A Host header names no other place for the handler to call back: auth[domain] stays the mock's.
    const at = received.length;
    await ask(JSON.stringify({ event: "ONCRMDEALADD", data: {} }), { "content-type": "application/json" }, `http://evil.example${EVENTS_CONTROL_PATH}`);
    expect(received[at]?.auth).toMatchObject({ domain: "127.0.0.1", client_endpoint: "http://127.0.0.1/rest/" });
  });

  it("through the node adapter, answers only loopback peers; the mock keeps the router's fast path", async () => {
    const handle = mockOf();
    const core = handle[CORE];
    expect(typeof core).toBe("function");
    const input = (peer: string | null) => ({
      url: `http://127.0.0.1${EVENTS_CONTROL_PATH}`,
      pathname: EVENTS_CONTROL_PATH,
      method: "POST",
      peer,
      header: (n: string) => (n === "content-type" ? "application/json" : null),
      readText: async () => '{"event":"ONCRMDEALADD"}',
      request: () => new Request(`http://127.0.0.1${EVENTS_CONTROL_PATH}`),
    });
    expect((await core(input("10.0.0.5"))).status).toBe(403);
    expect((await core(input("::ffff:127.0.0.1"))).status).toBe(200);
    expect((await core(input("127.0.0.1"))).status).toBe(200);
    // An adapter that cannot tell the peer is refused; so is a loopback peer that names another host (DNS rebinding).
    expect((await core(input(null))).status).toBe(403);
    expect((await core({ ...input("127.0.0.1"), url: `http://rebound.example${EVENTS_CONTROL_PATH}` })).status).toBe(403);
    // An address that does not parse (a Host header of spaces) is the control endpoint's 400, not a dropped connection.
    expect((await core({ ...input("127.0.0.1"), url: `http://a b${EVENTS_CONTROL_PATH}` })).status).toBe(400);
    // Other paths are the router's, as it reads them: `/./` is no address of the API.
    const server = createServer(toNodeListener(mockOf({ allowHttp: true, seed: {} })));
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    try {
      const port = (server.address() as AddressInfo).port;
      const raw = await fetch(`http://127.0.0.1:${port}/rest/user.current`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"auth":"t"}' });
      expect(raw.status).toBe(200);
      const odd = await new Promise<number>((ok, fail) => {
        const req = request({ host: "127.0.0.1", port, method: "POST", path: "/rest/./user.current", headers: { "content-type": "application/json" } }, (r) => {
          r.resume();
          ok(r.statusCode ?? 0);
        });
        req.on("error", fail);
        req.end('{"auth":"t"}');
      });
      expect(odd).not.toBe(200);
    } finally {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    }
  });

  it("keeps a binding to another host but does not deliver there, and says so at binding and in the report", async () => {
    const logs: string[] = [];
    const handle = mockOf({ log: (e) => logs.push(e.message) });
    await bind(handle, { event: "ONCRMDEALADD", handler: "https://app.example/h?token=abc123" });
    await bind(handle, { event: "ONCRMDEALADD", handler: "https://user:pw@127.0.0.1:9/h" });
    expect(logs).toHaveLength(2);
    expect(logs[0]).toContain("the handler https://app.example/h of ONCRMDEALADD is kept, but the mock will not deliver events to it: not on loopback");
    expect(logs[1]).toContain("the URL carries credentials");
    // The link's query and credentials (a token) reach no message.
    expect(logs.join("\n")).not.toMatch(/abc123|pw@/);
    // `localhost.` is not the loopback name: the hosts file need not answer it, and a resolver may send it elsewhere.
    await bind(handle, { event: "ONCRMDEALADD", handler: "http://LOCALHOST.:9/h" });
    expect(logs[2]).toContain("not on loopback");
    const report = await handle.deliverEvent("ONCRMDEALADD", {});
    expect(report.delivered).toEqual([]);
    expect(report.skipped.map((s) => s.problem)).toEqual(["not on loopback, and no --event-host names it", "the URL carries credentials", "not on loopback, and no --event-host names it"]);
    // Listed as bound all the same, as the platform lists it.
    const listed = await handle(new Request("https://127.0.0.1/rest/event.get", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ auth: "t" }) }));
    expect(((await listed.json()) as { result: unknown[] }).result).toHaveLength(3);
  });

  it("a name with a line break writes no line of its own; a token of letters alone is not shown; the mapped loopback is loopback", async () => {
    const logs: string[] = [];
    const handle = mockOf({ log: (e) => logs.push(e.message), events: { timeoutMs: 300 } });
    await bind(handle, { event: "ONINJ\nnotice: SIGTERM, stopped", handler: "https://app.example/hook/abcdefghijklmnopSECRET/x" });
    expect(logs).toHaveLength(1);
    expect(logs[0]).not.toMatch(/[\n\r]/);
    expect(logs[0]).toContain("ONINJ\\u000aNOTICE: SIGTERM, STOPPED");
    expect(logs[0]).toContain("https://app.example/hook/<redacted>/x");
    expect(logs[0]).not.toContain("SECRET");
    // Tokens with hyphens, dots or `~` (a UUID, a JWT, base64url, with a digit or without) are redacted too (the
    // reviews found them shown); a segment of 16 or more is shown only as lower-case words joined by `-`, `_`, `.`.
    const tokens = ["550e8400-e29b-41d4-a716-446655440000", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlc2ln", "AbC123dEf456GhI789-_x~", "Kx-aBcDeFgHiJkLmNoP", "Secret.TokenValueX"];
    for (const t of tokens) await bind(handle, { event: "ONCRMDEALADD", handler: `https://app.example/hook/${t}/x` });
    // A webhook's code after `rest/<user id>/`, whatever its length.
    tokens.push("k3j2h4g5f6d7s8");
    await bind(handle, { event: "ONCRMDEALADD", handler: "https://other.example/rest/1/k3j2h4g5f6d7s8/crm.deal.add" });
    // Another scheme (an offline binding keeps any) shows its scheme alone: its path may hold credentials.
    tokens.push("hunter-pass");
    await bind(handle, { event: "ONCRMDEALADD", handler: "mailto:user:hunter-pass@x.example", event_type: "offline" });
    await bind(handle, { event: "ONCRMDEALADD", handler: "https://app.example/my-deal-handler-page/event-handler.php" });
    const report = await handle.deliverEvent("ONCRMDEALADD", {});
    for (const t of tokens) expect(JSON.stringify([logs, report]), t).not.toContain(t);
    expect(logs.join("\n")).toContain("https://other.example/rest/1/<redacted>/crm.deal.add");
    expect(logs.at(-1)).toContain("https://app.example/my-deal-handler-page/event-handler.php");
    // `[::ffff:127.0.0.1]`, which a URL writes `[::ffff:7f00:1]`, is loopback: tried, not skipped.
    await bind(handle, { event: "ONMAPPED", handler: "http://[::ffff:127.0.0.1]:1/h" });
    expect((await handle.deliverEvent("ONMAPPED", {})).skipped).toEqual([]);
  });

  it("data that holds a lone surrogate is the control endpoint's 400, not a dropped connection; data that holds itself is refused", async () => {
    const handle = mockOf();
    await bind(handle, { event: "ONCRMDEALADD", handler: `${base}/events` });
    const ask = (body: string) => handle(new Request(`https://127.0.0.1${EVENTS_CONTROL_PATH}`, { method: "POST", headers: { "content-type": "application/json" }, body }));
    for (const body of ['{"event":"ONCRMDEALADD","data":{"s":"\\ud800"}}', '{"event":"ONCRMDEALADD","data":{"\\udc00":"x"}}']) {
      const res = await ask(body);
      expect(res.status, body).toBe(400);
      expect(((await res.json()) as { error_description: string }).error_description).toMatch(/lone surrogate/);
    }
    // A name bound with one: each request for it is a 400 as well.
    await bind(handle, { event: "ON\ud800X", handler: `${base}/events` });
    expect((await ask('{"event":"ON\\ud800X"}')).status).toBe(400);
    // In process: a value that holds itself has no form body (it was written forever).
    const a: Record<string, unknown> = { FIELDS: {} };
    (a.FIELDS as Record<string, unknown>).parent = a;
    await expect(handle.deliverEvent("ONCRMDEALADD", a)).rejects.toThrow(/holds itself/);
  });

  it("a host option that is no host name is an error at creation; a handler's trailing dot names the same host", async () => {
    for (const h of ["app.example:8080", "http://app.example/", "u@app.example"]) expect(() => mockOf({ events: { hosts: [h] } }), h).toThrow(/events.hosts takes host names/);
    const handle = mockOf({ events: { hosts: ["app.example"], timeoutMs: 300 } });
    await bind(handle, { event: "ONCRMDEALADD", handler: "http://app.example.:1/h" });
    expect((await handle.deliverEvent("ONCRMDEALADD", {})).skipped).toEqual([]);
  });

  it("delivers to a host the options name (in any spelling), and only there", async () => {
    const handle = mockOf({ events: { hosts: ["APP.example."], timeoutMs: 300 } });
    await bind(handle, { event: "ONCRMDEALADD", handler: "http://app.example:1/h" });
    await bind(handle, { event: "ONCRMDEALADD", handler: "http://other.example:1/h" });
    const report = await handle.deliverEvent("ONCRMDEALADD", {});
    // Named, so it is tried (the name does not resolve here: a failure of the delivery, not a refusal).
    expect(report.delivered.map((d) => d.handler)).toEqual(["http://app.example:1/h"]);
    expect(report.delivered[0]?.problem).toBeDefined();
    expect(report.skipped).toEqual([{ id: 2, handler: "http://other.example:1/h", problem: "not on loopback, and no --event-host names it" }]);
  });

  it("a handler that binds another while it is called is not called again in the same run; a token in a path is not shown", async () => {
    const handle = mockOf();
    let calls = 0;
    const server = createServer((req, res) => {
      calls += 1;
      void bind(handle, { event: "ONCRMDEALADD", handler: `${base}/events?n=${calls}` }).then(() => res.end("ok"));
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    try {
      const hook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook/4f1c9a7be2d84c06a1b3/`;
      await bind(handle, { event: "ONCRMDEALADD", handler: hook });
      const report = await handle.deliverEvent("ONCRMDEALADD", {});
      expect(report.delivered).toHaveLength(1);
      expect(calls).toBe(1);
      expect(report.delivered[0]?.handler).toMatch(/\/hook\/<redacted>\/$/);
      expect(JSON.stringify(report)).not.toContain("4f1c9a7be2d84c06a1b3");
    } finally {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    }
  });

  it("follows no redirect, waits no longer than its timeout, reads no more than its bound of an answer", async () => {
    const handle = mockOf({ events: { timeoutMs: 300, maxAnswerBytes: 1000 } });
    for (const path of ["/redirect", "/big"]) await bind(handle, { event: "ONCRMDEALADD", handler: `${base}${path}` });
    await bind(handle, { event: "ONCRMDEALADD", handler: `${slow}/h` });
    await bind(handle, { event: "ONCRMDEALADD", handler: "http://127.0.0.1:1/closed" });
    const report = await handle.deliverEvent("ONCRMDEALADD", {});
    expect(report.delivered.map((d) => [d.status, d.problem])).toEqual([
      [302, "a redirect, not followed"],
      [200, "an answer over 1000 bytes, cut off"],
      [undefined, "no answer within 300 ms"],
      [undefined, "the handler could not be reached"],
    ]);
  });

  it("delivers to the asking application's handlers only when one is named; offline bindings wait for event.offline.get", async () => {
    const handle = mockOf();
    await bind(handle, { event: "ONCRMDEALADD", handler: `${base}/events` }, "t");
    await bind(handle, { event: "ONCRMDEALADD", handler: `${base}/events` }, "u");
    await bind(handle, { event: "ONCRMDEALADD", event_type: "offline" }, "u");
    const a = await handle.deliverEvent("ONCRMDEALADD", {}, { applicationId: "A" });
    expect(a.delivered.map((d) => d.id)).toEqual([1]);
    const all = await handle.deliverEvent("ONCRMDEALADD", {});
    expect(all.delivered.map((d) => d.id)).toEqual([1, 2]);
    expect(all.skipped).toEqual([{ id: 3, handler: "(not a URL)", problem: "an offline binding: its events wait for event.offline.get" }]);
    // An event nobody bound is delivered nowhere.
    expect(await handle.deliverEvent("ONTASKADD")).toEqual({ event: "ONTASKADD", delivered: [], skipped: [] });
  });
});

describe("formEncode", () => {
  it("a value met twice is written twice; one that holds itself, or a lone surrogate, is a RangeError", () => {
    const shared = { ID: 1 };
    expect(formEncode({ a: shared, b: [shared] })).toBe("a[ID]=1&b[0][ID]=1");
    const loop: Record<string, unknown> = {};
    loop.self = [{ again: loop }];
    expect(() => formEncode({ data: loop })).toThrow(RangeError);
    expect(() => formEncode({ data: "\ud800" })).toThrow(/lone surrogate/);
    expect(() => formEncode({ ["\udfff"]: "x" })).toThrow(RangeError);
    // A pair is text: encoded as UTF-8.
    expect(formEncode({ e: "\ud83d\ude00" })).toBe("e=%F0%9F%98%80");
  });

  it("writes PHP's bracket syntax, which parseFormBody reads back (every scalar a string)", () => {
    expect(formEncode({ event: "E", data: { FIELDS: { ID: 5, TAGS: ["a", "b"] }, ON: true, OFF: false, NONE: null } })).toBe("event=E&data[FIELDS][ID]=5&data[FIELDS][TAGS][0]=a&data[FIELDS][TAGS][1]=b&data[ON]=1&data[OFF]=0");
    const scalar = fc.oneof(fc.string(), fc.integer().map(String));
    const key = fc.string({ minLength: 1 }).filter((k) => !["__proto__", "constructor", "prototype"].includes(k) && !/^\d+$/.test(k) && !/[[\]]/.test(k));
    const value = fc.letrec((tie) => ({ v: fc.oneof({ depthSize: "small" }, scalar, fc.dictionary(key, tie("v"), { minKeys: 1, maxKeys: 4 })) })).v;
    fc.assert(
      fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 4 }), (o) => {
        expect(JSON.parse(JSON.stringify(parseFormBody(formEncode(o))))).toEqual(o);
      }),
      { numRuns: 300 },
    );
  });
});
