import { createServer as createHttpServer } from "node:http";
import { type Server, createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { createClient } from "collab-platform-api-client";
import {
  type Caller,
  type Credentials,
  type LegacyHandlers,
  MethodError,
  type V3Handlers,
  createHandler,
  createLimiter,
  createMemoryIdempotencyStore,
  toNodeListener,
} from "collab-platform-api-server";
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacy as skeletonLegacy, v3 as skeletonV3 } from "../../output/server/skeleton/handlers.js";
import { certificate } from "../support/https.js";

/** The generated client against the generated server, over HTTPS on 127.0.0.1. */
const WEBHOOK = "hookC0deSecret";
const calls: Record<string, number> = {};
const logs: string[] = [];
let nextAddFails = false;

function authenticate(c: Credentials): Caller | { error: "INVALID_CREDENTIALS" | "invalid_token" | "expired_token" | "user_access_error" } {
  if (c.kind === "webhook") {
    if (c.userId === "7" && c.code === WEBHOOK) return { userId: 7, scopes: ["task", "user", "telephony", "calendar", "vote", "pay_system", "mailservice"] };
    if (c.userId === "8" && c.code === "limited") return { userId: 8, scopes: ["user"] };
    return { error: "INVALID_CREDENTIALS" };
  }
  if (c.token === "app-admin") return { userId: 1, scopes: ["task", "user", "placement", "telephony", "messageservice", "sonet"], admin: true, applicationId: "app1" };
  if (c.token === "app-user") return { userId: 2, scopes: ["task", "user", "placement"], admin: false, applicationId: "app1" };
  if (c.token === "expired") return { error: "expired_token" };
  if (c.token === "closed") return { error: "user_access_error" };
  return { error: "invalid_token" };
}

const legacy: LegacyHandlers = {
  ...skeletonLegacy,
  "tasks.task.getaccess": async (params) => {
    calls.getaccess = (calls.getaccess ?? 0) + 1;
    return { allowedActions: Object.fromEntries((params.users ?? [7]).map((u) => [String(u), { ACCEPT: true }])) };
  },
  "user.current": async (_p, ctx) => ({ ID: String(ctx.auth.userId), ACTIVE: true }),
  "placement.get": async () => [],
  "sonet_group.update": async () => {
    throw new Error(`database password hunter2 at https://x.example/rest/7/${WEBHOOK}/user.current`);
  },
  "telephony.externalLine.add": async () => {
    throw new MethodError({ code: "ERROR_CORE", description: "Line already exists" });
  },
  "calendar.user.settings.set": async () => {
    await new Promise((r) => setTimeout(r, 30));
    return true;
  },
};
const v3: V3Handlers = {
  ...skeletonV3,
  "tasks.task.add": async (params) => {
    calls.add = (calls.add ?? 0) + 1;
    await new Promise((r) => setTimeout(r, 20));
    if (nextAddFails) {
      nextAddFails = false;
      throw new MethodError({ code: "SERVICE_REST_V3_EXCEPTION_ACCESSDENIEDEXCEPTION", status: 403, description: "no access" });
    }
    return { item: { id: calls.add, title: (params.fields as { title?: string }).title } } as never;
  },
  "tasks.task.get": async (params) => ({ item: { id: String(params.taskId), archiveLink: "/bitrix/tools/disk/uf.php?x=1" } }) as never,
};

let server: Server;
let plain: ReturnType<typeof createHttpServer>;
let base = "";
let plainBase = "";
let agent: Agent;
const store = createMemoryIdempotencyStore({ maxEntries: 1000 });

async function start(handler: (r: Request) => Promise<Response>, key: string, cert: string): Promise<Server> {
  const s = createServer({ key, cert }, toNodeListener(handler, { maxBodyBytes: 64 * 1024 }));
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return s;
}

beforeAll(async () => {
  const { key, cert } = await certificate();
  const handle = createHandler(
    { legacy, v3 },
    { authenticate, idempotencyStore: store, maxBodyBytes: 64 * 1024, log: (e) => logs.push(JSON.stringify(e)), methodScopes: { v3: { "tasks.task.add": ["task"] } } },
  );
  server = await start(handle, key, cert);
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  plain = createHttpServer(toNodeListener(handle));
  await new Promise<void>((r) => plain.listen(0, "127.0.0.1", r));
  plainBase = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
  agent = new Agent({ connect: { ca: cert } });
});
afterAll(async () => {
  server.closeAllConnections();
  plain.closeAllConnections();
  await Promise.all([new Promise((r) => server.close(r)), new Promise((r) => plain.close(r))]);
});
beforeEach(() => {
  for (const k of Object.keys(calls)) delete calls[k];
});

const fetchTls = ((url: string, init?: RequestInit) => undiciFetch(url, { ...(init as object), dispatcher: agent })) as unknown as typeof fetch;

async function post(path: string, body: unknown, headers: Record<string, string> = {}, method = "POST") {
  const res = await fetchTls(`${base}${path}`, {
    method,
    headers: { "Content-Type": "application/json", ...headers },
    ...(method === "GET" ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json: json as Record<string, unknown>, headers: res.headers };
}

const hook = () => createClient({ baseUrl: base, auth: { userId: 7, code: WEBHOOK }, fetch: fetchTls, retry: { maxAttempts: 1 } });
const app = (token = "app-admin", refresh?: () => Promise<string>) =>
  createClient({ baseUrl: base, auth: { accessToken: token, ...(refresh ? { refresh } : {}) }, fetch: fetchTls, retry: { maxAttempts: 1 } });

describe("envelope, addressing, built-ins", () => {
  it("answers the client with the envelope and a complete time object", async () => {
    const r = await hook().tasks.task.getaccess.withResponse({ taskId: 1, users: [3] });
    expect(r.result).toEqual({ allowedActions: { "3": { ACCEPT: true } } });
    expect(Object.keys(r.time).sort()).toEqual(["date_finish", "date_start", "duration", "finish", "operating", "operating_reset_at", "processing", "start"]);
    expect(r.time.date_start).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(Date.parse(r.time.date_finish)).toBeGreaterThanOrEqual(Date.parse(r.time.date_start));
  });

  it("all four addressing forms, and the .json suffix in legacy", async () => {
    expect((await post(`/rest/7/${WEBHOOK}/user.current`, {})).json.result).toEqual({ ID: "7", ACTIVE: true });
    expect((await post(`/rest/7/${WEBHOOK}/user.current.json`, {})).json.result).toEqual({ ID: "7", ACTIVE: true });
    expect((await post("/rest/user.current", { auth: "app-user" })).json.result).toEqual({ ID: "2", ACTIVE: true });
    expect((await post(`/rest/api/7/${WEBHOOK}/tasks.task.get`, { taskId: 5 })).json.result).toMatchObject({ item: { id: "5" } });
    expect((await post("/rest/api/tasks.task.get", { taskId: 6, auth: "app-user" })).json.result).toMatchObject({ item: { id: "6" } });
  });

  it("a 3.0-only method without /api/, and an unknown method: ERROR_METHOD_NOT_FOUND 404", async () => {
    for (const path of [`/rest/7/${WEBHOOK}/tasks.task.chat.message.send`, `/rest/7/${WEBHOOK}/no.such.method`, `/rest/api/7/${WEBHOOK}/user.current`]) {
      const r = await post(path, {});
      expect(r).toMatchObject({ status: 404, json: { error: path.includes("/api/") ? { code: "ERROR_METHOD_NOT_FOUND", message: "Method not found!" } : "ERROR_METHOD_NOT_FOUND" } });
    }
  });

  it("serves rest.documentation.openapi, its synonym, and rest.scope.list (GET or POST)", async () => {
    const doc = await app().v3.rest.documentation.openapi();
    expect((doc as { openapi: string }).openapi).toBe("3.0.3");
    const r = await post(`/rest/api/7/${WEBHOOK}/documentation`, undefined, {}, "GET");
    expect(r.json.result).toMatchObject({ openapi: "3.0.3", paths: { "/tasks.task.get": {} } });
    const scopes = await app().v3.call("rest.scope.list");
    expect(scopes).toMatchObject({ legacy: { "tasks.task.get": ["task"], "event.unbind": null }, v3: { "tasks.task.get": null } });
  });

  it("a legacy GET takes its parameters from the query string in PHP's form (D32; the reference's general-principles page)", async () => {
    const r = await post(`/rest/7/${WEBHOOK}/tasks.task.getaccess?taskId=1&users[]=3&users[]=5`, undefined, {}, "GET");
    expect(r).toMatchObject({ status: 200, json: { result: { allowedActions: { "3": { ACCEPT: true }, "5": { ACCEPT: true } } } } });
    // A token in the query string authenticates as in a body.
    expect((await post("/rest/user.current?auth=app-admin", undefined, {}, "GET")).status).toBe(200);
    // A PUT names the verb and the verbs the method takes.
    const put = await post(`/rest/7/${WEBHOOK}/user.current`, "{}", {}, "PUT");
    expect(put).toMatchObject({ status: 405, json: { error: "ERROR_HTTP_METHOD_NOT_ALLOWED", error_description: "The HTTP method PUT is not accepted by user.current; use GET or POST" } });
    expect(put.headers.get("allow")).toBe("GET, POST");
  });

  it("a method of the skeleton not yet written answers ERROR_METHOD_NOT_FOUND 404", async () => {
    await expect(hook().tasks.task.unpin({ id: 1 })).rejects.toMatchObject({ status: 404, code: "ERROR_METHOD_NOT_FOUND" });
  });
});

describe("HTTPS and authentication", () => {
  it("plain HTTP: INVALID_REQUEST 401 'Https required'", async () => {
    const res = await fetch(`${plainBase}/rest/7/${WEBHOOK}/user.current`, { method: "POST", body: "{}" });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "INVALID_REQUEST", error_description: "Https required" });
  });

  it("trusts X-Forwarded-Proto only when told to", async () => {
    const { key, cert } = await certificate();
    const trusting = createHandler({ legacy, v3 }, { authenticate, trustProxy: true });
    const res = await trusting(new Request(`http://127.0.0.1/rest/7/${WEBHOOK}/user.current`, { method: "POST", body: "{}", headers: { "X-Forwarded-Proto": "https" } }));
    expect(res.status).toBe(200);
    void [key, cert];
    const r2 = await fetch(`${plainBase}/rest/7/${WEBHOOK}/user.current`, { method: "POST", body: "{}", headers: { "X-Forwarded-Proto": "https" } });
    expect(r2.status).toBe(401);
  });

  it.each([
    ["/rest/user.current", {}, 401, "NO_AUTH_FOUND", "Wrong authorization data"],
    ["/rest/7/wrong/user.current", {}, 401, "INVALID_CREDENTIALS", "Invalid request credentials"],
    // The spec quotes no text for invalid_token: the description is empty, never the table's When cell (issue 14).
    ["/rest/user.current", { auth: "nope" }, 401, "invalid_token", ""],
    ["/rest/user.current", { auth: "expired" }, 401, "expired_token", "The access token provided has expired"],
    ["/rest/user.current", { auth: "closed" }, 401, "user_access_error", "The user does not have access to the application"],
  ])("%s %j → %i %s", async (path, body, status, code, text) => {
    expect(await post(path, body)).toMatchObject({ status, json: { error: code, error_description: text } });
  });

  it("WRONG_AUTH_TYPE 403 for an application-only method called by webhook", async () => {
    expect(await post(`/rest/7/${WEBHOOK}/placement.get`, {})).toMatchObject({
      status: 403,
      json: { error: "WRONG_AUTH_TYPE", error_description: "Current authorization type is denied for this method" },
    });
  });

  it("scopes: insufficient_scope in legacy (webhook and application texts), INSUFFICIENTSCOPEEXCEPTION 403 in 3.0", async () => {
    expect(await post("/rest/8/limited/tasks.task.getaccess", { taskId: 1 })).toMatchObject({
      status: 401,
      json: { error: "insufficient_scope", error_description: "The request requires higher privileges than provided by the webhook token" },
    });
    expect(await post("/rest/telephony.externalCall.searchCrmEntities", { PHONE_NUMBER: "1", auth: "app-user" })).toMatchObject({
      status: 401,
      json: { error: "insufficient_scope", error_description: "The request requires higher privileges than provided by the access token" },
    });
    const r = await post("/rest/api/8/limited/tasks.task.add", { fields: { title: "t" } });
    expect(r.status).toBe(403);
    expect(r.json.error).toMatchObject({ code: "SERVICE_REST_V3_EXCEPTION_INSUFFICIENTSCOPEEXCEPTION" });
  });

  it("administrator-only methods answer ACCESS_DENIED to others", async () => {
    expect(await post("/rest/placement.get", { auth: "app-user" })).toMatchObject({ status: 403, json: { error: "ACCESS_DENIED", error_description: "Access denied!" } });
    expect(await post("/rest/placement.get", { auth: "app-admin" })).toMatchObject({ status: 200, json: { result: [] } });
  });

  it("the client refreshes an expired token against the server", async () => {
    let refreshed = 0;
    const c = app("expired", async () => {
      refreshed++;
      return "app-user";
    });
    await expect(c.user.current()).resolves.toEqual({ ID: "2", ACTIVE: true });
    expect(refreshed).toBe(1);
  });
});

describe("validation and 3.0 request rules", () => {
  it("legacy: the spec's own error where it links one to the failure, else ERROR_ARGUMENT 400 with the argument member", async () => {
    // tasks.task.getaccess: "code `100` … (taskId missing)", "code `0`, text `wrong task id` (taskId of wrong type)".
    const e = await hook().call("tasks.task.getaccess", {} as never).catch((x: unknown) => x);
    expect(e).toMatchObject({ status: 400, code: "100", description: "Argument 'TASKID' is null or empty" });
    expect(await post(`/rest/7/${WEBHOOK}/tasks.task.getaccess`, { taskId: "x" })).toEqual(expect.objectContaining({ status: 400, json: { error: "0", error_description: "wrong task id" } }));
    expect(await post(`/rest/7/${WEBHOOK}/tasks.task.stopwatch`, {})).toMatchObject({ status: 400, json: { error: "ERROR_ARGUMENT", argument: "taskId" } });
    expect(await post(`/rest/7/${WEBHOOK}/calendar.user.settings.set`, { settings: { view: "year" } })).toMatchObject({ status: 400, json: { argument: "settings.view" } });
    expect(await post(`/rest/7/${WEBHOOK}/telephony.externalCall.attachRecord`, { CALL_ID: "c" })).toMatchObject({ status: 400, json: { argument: "RECORD_URL, FILENAME" } });
    // Two complete call forms: the spec does not make them exclude each other, so the call is taken.
    expect((await post(`/rest/7/${WEBHOOK}/vote.AttachedVote.recall`, { attachId: 1, signedAttachId: "s" })).json).not.toMatchObject({ error: "ERROR_ARGUMENT" });
  });

  it("3.0: REQUESTVALIDATIONEXCEPTION; INVALIDJSONEXCEPTION for form-data and broken JSON; GET only without parameters", async () => {
    const missing = await post(`/rest/api/7/${WEBHOOK}/tasks.task.get`, { taskId: "1" });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toMatchObject({ code: "SERVICE_REST_V3_EXCEPTION_VALIDATION_REQUESTVALIDATIONEXCEPTION", validation: [{ field: "taskId" }] });
    const form = await post(`/rest/api/7/${WEBHOOK}/tasks.task.get`, "taskId=1", { "Content-Type": "application/x-www-form-urlencoded" });
    expect(form.json.error).toMatchObject({ code: "SERVICE_REST_V3_EXCEPTION_INVALIDJSONEXCEPTION" });
    const broken = await post(`/rest/api/7/${WEBHOOK}/tasks.task.get`, "{\"taskId\": 1");
    expect(broken.json.error).toMatchObject({ code: "SERVICE_REST_V3_EXCEPTION_INVALIDJSONEXCEPTION" });
    const get = await post(`/rest/api/7/${WEBHOOK}/tasks.task.get?taskId=1`, undefined, {}, "GET");
    expect(get.json.error).toMatchObject({ code: "SERVICE_REST_V3_EXCEPTION_VALIDATION_REQUESTVALIDATIONEXCEPTION" });
  });
});

describe("idempotency", () => {
  const add = (key: string | null, title = "T") =>
    post(`/rest/api/7/${WEBHOOK}/tasks.task.add`, { fields: { title } }, key === null ? {} : { "Idempotency-Key": key });

  it("rejects a bad key with INVALIDIDEMPOTENCYKEYEXCEPTION 400, echoing it", async () => {
    const r = await add("é-not-ascii");
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: "SERVICE_REST_V3_EXCEPTION_INVALIDIDEMPOTENCYKEYEXCEPTION" });
    expect((await add("x".repeat(256))).status).toBe(400);
    expect(calls.add).toBeUndefined();
  });

  it("replays the first success for the same body, 422 for another body, key echoed", async () => {
    const first = await add("k-1");
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotency-key")).toBe("k-1");
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await add("k-1");
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toEqual(first.json);
    expect(calls.add).toBe(1);
    const other = await add("k-1", "other");
    expect(other.status).toBe(422);
    expect(other.json.error).toMatchObject({ code: "SERVICE_REST_V3_EXCEPTION_IDEMPOTENCYKEYREUSEDEXCEPTION" });
  });

  it("does not store errors: a repeat after an error runs the method again", async () => {
    nextAddFails = true;
    expect((await add("k-err")).status).toBe(403);
    const retry = await add("k-err");
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(calls.add).toBe(2);
  });

  it("concurrent repeats of one key run the method once and replay it to the others", async () => {
    const all = await Promise.all(Array.from({ length: 10 }, () => add("k-concurrent")));
    expect(all.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(calls.add).toBe(1);
    expect(all.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(9);
    expect(new Set(all.map((r) => JSON.stringify(r.json)))).toHaveLength(1);
  });

  it("is per application or webhook and user: another caller with the same key runs anew", async () => {
    await add("k-scope");
    const r = await post("/rest/api/tasks.task.add", { fields: { title: "T" }, auth: "app-admin" }, { "Idempotency-Key": "k-scope" });
    expect(r.headers.get("idempotent-replayed")).toBeNull();
    expect(calls.add).toBe(2);
  });

  it("the client's key survives a retry and the server replays; ignored for read and legacy methods", async () => {
    const c = createClient({ baseUrl: base, auth: { userId: 7, code: WEBHOOK }, fetch: fetchTls });
    const r1 = await c.v3.tasks.task.add.withResponse({ fields: { title: "T" } }, { idempotencyKey: "k-client" });
    const r2 = await c.v3.tasks.task.add.withResponse({ fields: { title: "T" } }, { idempotencyKey: "k-client" });
    expect([r1.replayed, r2.replayed]).toEqual([false, true]);
    const read = await post(`/rest/api/7/${WEBHOOK}/tasks.task.get`, { taskId: 1 }, { "Idempotency-Key": "k-read" });
    expect(read.headers.get("idempotent-replayed")).toBeNull();
    const leg = await post(`/rest/7/${WEBHOOK}/user.current`, {}, { "Idempotency-Key": "k-legacy" });
    expect(leg.headers.get("idempotency-key")).toBeNull();
  });

  it("the memory store stays within its bound and drops entries after their TTL", async () => {
    let t = 0;
    const s = createMemoryIdempotencyStore({ maxEntries: 3, now: () => t });
    for (const k of ["a", "b", "c", "d"]) await s.set(k, { bodyHash: k, body: k }, 100);
    expect(s.size).toBe(3);
    expect(await s.get("a")).toBeUndefined();
    expect(await s.get("d")).toEqual({ bodyHash: "d", body: "d" });
    t = 150;
    expect(await s.get("d")).toBeUndefined();
  });
});

describe("limits, handler failures, secrets", () => {
  it("QUERY_LIMIT_EXCEEDED 503 past the request rate; OPERATION_TIME_LIMIT 429 past the execution time, with time.operating", async () => {
    const limited = createHandler({ legacy, v3 }, { authenticate, limiter: createLimiter({ requestsPerSecond: 1, burst: 2 }) });
    const req = () => new Request(`https://h.example/rest/7/${WEBHOOK}/user.current`, { method: "POST", body: "{}" });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await limited(req())).status);
    expect(statuses).toEqual([200, 200, 503]);
    const body = (await (await limited(req())).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ error: "QUERY_LIMIT_EXCEEDED", error_description: "Too many requests" });
    const slow = createHandler({ legacy, v3 }, { authenticate, limiter: createLimiter({ operatingLimitSeconds: 0.02 }) });
    const cal = () => new Request(`https://h.example/rest/7/${WEBHOOK}/calendar.user.settings.set`, { method: "POST", body: JSON.stringify({ settings: { view: "day" } }) });
    const ok = (await (await slow(cal())).json()) as { time: { operating: number; operating_reset_at: number } };
    expect(ok.time.operating).toBeGreaterThanOrEqual(0.02);
    const blocked = await slow(cal());
    expect(blocked.status).toBe(429);
    const b = (await blocked.json()) as { error: string; time: { operating: number; operating_reset_at: number } };
    expect(b.error).toBe("OPERATION_TIME_LIMIT");
    expect(b.time.operating_reset_at).toBeGreaterThan(Date.now() / 1000);
  });

  it("a handler that throws: INTERNAL_SERVER_ERROR 500 without its message; a MethodError is answered as is", async () => {
    const r = await post("/rest/sonet_group.update", { GROUP_ID: 1, auth: "app-admin" });
    expect(r).toMatchObject({ status: 500, json: { error: "INTERNAL_SERVER_ERROR", error_description: "Internal server error" } });
    expect(JSON.stringify(r.json)).not.toContain("hunter2");
    expect(await post("/rest/telephony.externalLine.add", { NUMBER: "1", auth: "app-admin" })).toMatchObject({ status: 400, json: { error: "ERROR_CORE", error_description: "Line already exists" } });
  });

  it("no secret in any log line", () => {
    expect(logs.length).toBeGreaterThan(0);
    for (const line of logs) {
      expect(line).not.toContain(WEBHOOK);
      expect(line).not.toContain("app-admin");
    }
  });

  it("a body over the limit is refused", async () => {
    const r = await post(`/rest/7/${WEBHOOK}/user.current`, { pad: "x".repeat(70 * 1024) });
    expect(r).toMatchObject({ status: 400, json: { error: "ERROR_ARGUMENT", error_description: "Request body is too large" } });
  });
});

describe("bad requests", () => {
  const W = `/rest/7/${WEBHOOK}`;
  const A = `/rest/api/7/${WEBHOOK}`;
  type Case = [string, string, string | undefined, Record<string, string>, string, number, string];
  const cases: Case[] = [
    ["broken JSON, legacy", `${W}/user.current`, "{", {}, "POST", 400, "ERROR_ARGUMENT"],
    ["broken JSON, 3.0", `${A}/tasks.task.get`, "{", {}, "POST", 400, "SERVICE_REST_V3_EXCEPTION_INVALIDJSONEXCEPTION"],
    ["JSON array body", `${W}/user.current`, "[1,2]", {}, "POST", 400, "ERROR_ARGUMENT"],
    ["JSON string body", `${A}/tasks.task.get`, '"x"', {}, "POST", 400, "SERVICE_REST_V3_EXCEPTION_INVALIDJSONEXCEPTION"],
    ["JSON null body, 3.0", `${A}/tasks.task.get`, "null", {}, "POST", 400, "SERVICE_REST_V3_EXCEPTION_INVALIDJSONEXCEPTION"],
    ["__proto__ key, legacy", `${W}/tasks.task.getaccess`, '{"taskId":1,"__proto__":{"admin":true}}', {}, "POST", 400, "ERROR_ARGUMENT"],
    ["__proto__ nested, 3.0", `${A}/tasks.task.add`, '{"fields":{"__proto__":{"x":1}}}', {}, "POST", 400, "SERVICE_REST_V3_EXCEPTION_VALIDATION_REQUESTVALIDATIONEXCEPTION"],
    ["constructor key", `${W}/tasks.task.getaccess`, '{"taskId":1,"constructor":{"prototype":{}}}', {}, "POST", 400, "ERROR_ARGUMENT"],
    // "1" reads as an integer and is taken, as the platform takes form values (issue 14); "one" does not.
    ["string for integer", `${W}/tasks.task.getaccess`, '{"taskId":"one"}', {}, "POST", 400, "0"],
    ["float for integer", `${W}/tasks.task.getaccess`, '{"taskId":1.5}', {}, "POST", 400, "0"],
    // An object with numeric keys is a PHP list, and taken; other keys are not a list.
    ["object for array", `${W}/tasks.task.getaccess`, '{"taskId":1,"users":{"a":1}}', {}, "POST", 400, "100"],
    ["string items for an array of integers", "/rest/event.offline.clear", '{"process_id":"p","id":["a"],"auth":"app-admin"}', {}, "POST", 400, "ERROR_ARGUMENT"],
    ["missing required", `${W}/tasks.task.stopwatch`, "{}", {}, "POST", 400, "ERROR_ARGUMENT"],
    ["empty string for required", `${W}/tasks.task.stopwatch`, '{"taskId":""}', {}, "POST", 400, "ERROR_ARGUMENT"],
    ["value not in the list", `${W}/calendar.user.settings.set`, '{"settings":{"collapseOffHours":"yes"}}', {}, "POST", 400, "ERROR_ARGUMENT"],
    // "Y" reads as a boolean (data-types.md:16: booleans are most often Y or N); "maybe" does not.
    ["wrong member type", `${W}/calendar.user.settings.set`, '{"settings":{"showDeclined":"maybe"}}', {}, "POST", 400, "ERROR_ARGUMENT"],
    ["wrong nested item", `${W}/calendar.user.settings.set`, '{"settings":{"defaultReminders":{"fullDay":[{"type":"week"}]}}}', {}, "POST", 400, "ERROR_ARGUMENT"],
    ["none of at-least-one", `${W}/telephony.externalCall.attachRecord`, '{"CALL_ID":"c"}', {}, "POST", 400, "ERROR_ARGUMENT"],
    ["no call form", `${W}/vote.AttachedVote.recall`, "{}", {}, "POST", 400, "ERROR_ARGUMENT"],
    ["half a call form", `${W}/vote.AttachedVote.recall`, '{"moduleId":"m"}', {}, "POST", 400, "ERROR_ARGUMENT"],
    // (Two complete call forms are taken: the spec does not make them exclude each other.)
    ["missing, with the spec's own error", `${W}/telephony.externalCall.searchCrmEntities`, "{}", {}, "POST", 400, "ERROR_CORE"],
    ["huge body", `${W}/user.current`, JSON.stringify({ x: "y".repeat(100_000) }), {}, "POST", 400, "ERROR_ARGUMENT"],
    ["huge body, 3.0", `${A}/tasks.task.get`, JSON.stringify({ taskId: 1, x: "y".repeat(100_000) }), {}, "POST", 400, "SERVICE_REST_V3_EXCEPTION_VALIDATION_REQUESTVALIDATIONEXCEPTION"],
    ["form-data, 3.0", `${A}/tasks.task.get`, "taskId=1", { "Content-Type": "multipart/form-data; boundary=x" }, "POST", 400, "SERVICE_REST_V3_EXCEPTION_INVALIDJSONEXCEPTION"],
    ["text/plain, 3.0", `${A}/tasks.task.get`, '{"taskId":1}', { "Content-Type": "text/plain" }, "POST", 400, "SERVICE_REST_V3_EXCEPTION_INVALIDJSONEXCEPTION"],
    ["GET with query, 3.0", `${A}/tasks.task.get?taskId=1`, undefined, {}, "GET", 400, "SERVICE_REST_V3_EXCEPTION_VALIDATION_REQUESTVALIDATIONEXCEPTION"],
    ["missing auth", "/rest/user.current", "{}", {}, "POST", 401, "NO_AUTH_FOUND"],
    ["auth not a string", "/rest/user.current", '{"auth":123}', {}, "POST", 401, "NO_AUTH_FOUND"],
    ["wrong webhook code", "/rest/7/nope/user.current", "{}", {}, "POST", 401, "INVALID_CREDENTIALS"],
    ["wrong webhook user", `/rest/99/${WEBHOOK}/user.current`, "{}", {}, "POST", 401, "INVALID_CREDENTIALS"],
    ["unknown token", "/rest/user.current", '{"auth":"zzz"}', {}, "POST", 401, "invalid_token"],
    ["expired token", "/rest/user.current", '{"auth":"expired"}', {}, "POST", 401, "expired_token"],
    ["wrong auth kind", `${W}/telephony.externalCall.finish`, '{"CALL_ID":"c","USER_ID":1}', {}, "POST", 403, "WRONG_AUTH_TYPE"],
    ["wrong auth kind, event.bind", `${W}/event.bind`, '{"event":"E","handler":"https://h.example"}', {}, "POST", 403, "WRONG_AUTH_TYPE"],
    ["scope missing", "/rest/8/limited/tasks.task.getaccess", '{"taskId":1}', {}, "POST", 401, "insufficient_scope"],
    ["not an administrator", "/rest/placement.get", '{"auth":"app-user"}', {}, "POST", 403, "ACCESS_DENIED"],
    ["unknown method", `${W}/nope.nope`, "{}", {}, "POST", 404, "ERROR_METHOD_NOT_FOUND"],
    ["3.0-only method on legacy path", `${W}/tasks.task.chat.message.send`, "{}", {}, "POST", 404, "ERROR_METHOD_NOT_FOUND"],
    ["path outside /rest", "/api/user.current", "{}", {}, "POST", 404, "ERROR_METHOD_NOT_FOUND"],
    ["too many path segments", `${W}/x/user.current`, "{}", {}, "POST", 404, "ERROR_METHOD_NOT_FOUND"],
    // D32: a verb the method does not take is named, never "Method not found" (before issue 25 it was).
    ["PUT verb", `${W}/user.current`, "{}", {}, "PUT", 405, "ERROR_HTTP_METHOD_NOT_ALLOWED"],
    ["DELETE verb, 3.0", `${A}/tasks.task.get`, "{}", {}, "DELETE", 405, "ERROR_HTTP_METHOD_NOT_ALLOWED"],
    ["GET on legacy, a required parameter missing", `${W}/telephony.externalCall.searchCrmEntities`, undefined, {}, "GET", 400, "ERROR_CORE"],
    ["bad idempotency key", `${A}/tasks.task.add`, '{"fields":{"title":"t"}}', { "Idempotency-Key": "\u00e9" }, "POST", 400, "SERVICE_REST_V3_EXCEPTION_INVALIDIDEMPOTENCYKEYEXCEPTION"],
    ["idempotency key too long", `${A}/tasks.task.add`, '{"fields":{"title":"t"}}', { "Idempotency-Key": "k".repeat(256) }, "POST", 400, "SERVICE_REST_V3_EXCEPTION_INVALIDIDEMPOTENCYKEYEXCEPTION"],
    ["percent-encoded junk in the path", `${W}/%E0%A4%A`, "{}", {}, "POST", 404, "ERROR_METHOD_NOT_FOUND"],
    ["deeply nested JSON", `${W}/tasks.task.getaccess`, `{"taskId":1,"users":${"[".repeat(2000)}${"]".repeat(2000)}}`, {}, "POST", 400, "ERROR_ARGUMENT"],
  ];

  it(`answers each of ${cases.length} bad requests with the spec's code and status, and keeps serving`, async () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
    for (const [name, path, body, headers, method, status, code] of cases) {
      const r = await post(path, body ?? "", { ...headers }, method);
      const got = typeof r.json.error === "object" && r.json.error !== null ? (r.json.error as { code: string }).code : r.json.error;
      expect([name, r.status, got]).toEqual([name, status, code]);
    }
    expect((await post(`${W}/user.current`, {})).status).toBe(200);
  });
});
