import { Agent as HttpsAgent, type Server, createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { AjaxError, ApiVersion, B24Hook, B24OAuth } from "@bitrix24/b24jssdk";
import {
  type Caller,
  type Credentials,
  type LegacyHandlers,
  type V3Handlers,
  createHandler,
  createLimiter,
  page,
  pageOf,
  toNodeListener,
} from "collab-platform-api-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacy as skeletonLegacy, v3 as skeletonV3 } from "../../output/server/skeleton/handlers.js";
import { certificate } from "../support/https.js";
import { generate } from "../../generator/generate.js";
import type { ServerData } from "../../runtime/shared/data.js";
import { createHandlerWith } from "../../runtime/server/index.js";
import { GEN, SPEC_TEXT } from "../helpers.js";

/**
 * The platform's official JavaScript SDK (`@bitrix24/b24jssdk`, pinned) against the generated server over HTTPS on
 * 127.0.0.1, unchanged, as it calls the platform (issue 14). The SDK's own limiter and retries are lowered so that
 * the rate-limit cases answer at once (D6); every list helper runs with a cap on the requests the server takes, so
 * that an ignored cursor fails instead of looping.
 */
const CODE = "sdkHookC0de";
const TOKEN = "sdkAccessT0ken";
const RECORDS = Array.from({ length: 120 }, (_, i) => ({ ID: String(i + 1), NAME: `Pay system ${i + 1}` }));
const MAX_LIST_REQUESTS = 6;
/** The SDK's limiter off and one attempt a call: a 503 or a 429 is thrown at once instead of waited out. */
const FAST = {
  rateLimit: { burstLimit: 100_000, drainRate: 100_000, adaptiveEnabled: false },
  adaptiveConfig: { enabled: false, thresholdPercent: 100, coefficient: 0, maxDelay: 0 },
  maxRetries: 1,
  retryDelay: 10,
};

const seen: Array<{ path: string; body: string }> = [];
let listRequests = 0;

function authenticate(c: Credentials): Caller | { error: "INVALID_CREDENTIALS" | "invalid_token" } {
  if (c.kind === "webhook") return c.code === CODE ? { userId: Number(c.userId), scopes: ["task", "user", "pay_system", "telephony"] } : { error: "INVALID_CREDENTIALS" };
  return c.token === TOKEN ? { userId: 3, scopes: ["task", "user", "pay_system"], applicationId: "app" } : { error: "invalid_token" };
}

/** The pay systems a list request asks for: the SDK's cursor filter (`>ID`) and order, then the page. */
function paySystems(params: { FILTER?: Record<string, unknown>; start?: unknown }) {
  listRequests++;
  if (listRequests > MAX_LIST_REQUESTS) throw new Error("the list helper did not stop");
  const after = Number(params.FILTER?.[">ID"] ?? 0);
  const matching = RECORDS.filter((r) => Number(r.ID) > after);
  if (params.start === -1 || params.start === "-1") return page(matching.slice(0, 50));
  return pageOf(matching, params.start);
}

const legacy: LegacyHandlers = {
  ...skeletonLegacy,
  "user.current": async (_p, ctx) => ({ ID: String(ctx.auth.userId), ACTIVE: true }),
  "tasks.task.getaccess": async (p) => ({ allowedActions: { [String(p.taskId)]: { ACCEPT: true } } }),
  "sale.paysystem.list": async (p) => paySystems(p as never) as never,
};
const v3: V3Handlers = {
  ...skeletonV3,
  "tasks.task.get": async (p) => ({ item: { id: String(p.taskId), title: "From the 3.0 handler" } }) as never,
};

let server: Server;
let strict: Server;
let platform: Server;
let platformBase = "";
let base = "";
let strictBase = "";
let ca = "";

async function listen(handle: (r: Request) => Promise<Response>, key: string, cert: string): Promise<Server> {
  const s = createServer({ key, cert }, (req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => seen.push({ path: req.url ?? "", body }));
    toNodeListener(handle)(req, res);
  });
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return s;
}

beforeAll(async () => {
  const { key, cert } = await certificate();
  ca = cert;
  // The platform's 3.0 batch is an option, off by default (the spec says to call 3.0 methods one by one).
  server = await listen(createHandler({ legacy, v3 }, { authenticate, v3Batch: true }), key, cert);
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // One request a second, and 1 s of execution time per method in the window: each limit is met by the second call.
  const slow: LegacyHandlers = { ...legacy, "tasks.task.getaccess": async (p) => (await new Promise((r) => setTimeout(r, 30)), legacy["tasks.task.getaccess"](p, {} as never)) };
  const limiter = createLimiter({ requestsPerSecond: 1, burst: 1 });
  const operating = createLimiter({ operatingLimitSeconds: 0.001 });
  strict = await listen(
    createHandler({ legacy: slow, v3 }, { authenticate: (c) => authenticate(c), limiter: { admit: (...a) => (a[1] === "user.current" ? limiter : operating).admit(...a), account: (...a) => operating.account(...a), usage: (...a) => operating.usage(...a) } }),
    key,
    cert,
  );
  strictBase = `https://127.0.0.1:${(strict.address() as AddressInfo).port}`;
  // A server generated with `v3ErrorPrefix: platform` (D11): its 3.0 codes are the ones the SDK knows.
  const generated = (await generate(SPEC_TEXT, { ...GEN, format: false, v3ErrorPrefix: "platform" })).files;
  const data = JSON.parse(/^export default (\{.*\});$/m.exec(generated.find((f) => f.path === "server/methods.js")?.contents ?? "")?.[1] ?? "null") as ServerData;
  platform = await listen(
    createHandlerWith({ legacy: { ...legacy }, v3: { ...v3 } }, { authenticate }, data, { documentation: { legacy: [], v3: [] }, scopeList: { legacy: [], v3: [] } }, { openapiV3: {} }),
    key,
    cert,
  );
  platformBase = `https://127.0.0.1:${(platform.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of [server, strict, platform]) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});
beforeEach(() => {
  seen.length = 0;
  listRequests = 0;
});

/** The SDK's clients trust the test's certificate through their own axios instances; nothing else changes. */
function trusted<T extends { getHttpClient(v: ApiVersion): { ajaxClient: { defaults: { httpsAgent?: unknown } } } }>(b24: T): T {
  for (const v of [ApiVersion.v2, ApiVersion.v3]) b24.getHttpClient(v).ajaxClient.defaults.httpsAgent = new HttpsAgent({ ca });
  return b24;
}
const hook = (at = base) => trusted(B24Hook.fromWebhookUrl(`${at}/rest/1/${CODE}/`, { restrictionParams: FAST }));

describe("the official JS SDK against the generated server", () => {
  it("a plain call, and a call with parameters", async () => {
    const me = await hook().actions.v2.call.make({ method: "user.current" });
    expect(me.getData()?.result).toEqual({ ID: "1", ACTIVE: true });
    const access = await hook().actions.v2.call.make({ method: "tasks.task.getaccess", params: { taskId: 8017 } });
    expect(access.getData()?.result).toEqual({ allowedActions: { "8017": { ACCEPT: true } } });
    expect(seen.at(-1)?.path).toMatch(/^\/rest\/1\/sdkHookC0de\/tasks\.task\.getaccess\?bx24_request_id=/);
  });

  it("errors are the SDK's errors with the spec's codes", async () => {
    const missing = await hook().actions.v2.call.make({ method: "no.such.method" }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(AjaxError);
    expect(missing).toMatchObject({ code: "ERROR_METHOD_NOT_FOUND", status: 404 });
    // The spec's own answer for a taskId of the wrong type: code `0`, text `wrong task id`. The SDK keeps the text
    // and the status; a code of digits it replaces with its HTTP client's own, as it would the platform's.
    const wrong = await hook().actions.v2.call.make({ method: "tasks.task.getaccess", params: { taskId: "eight" } }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(AjaxError);
    expect(wrong).toMatchObject({ status: 400, message: "wrong task id" });
    const missing2 = await hook().actions.v2.call.make({ method: "telephony.externalCall.searchCrmEntities", params: {} }).catch((e: unknown) => e);
    expect(missing2).toMatchObject({ code: "ERROR_CORE", status: 400, message: "PHONE_NUMBER is empty" });
  });

  it("callList: all 120 records through the SDK's cursor (filter >ID, start -1)", async () => {
    const all = await hook().actions.v2.callList.make({ method: "sale.paysystem.list", params: { select: ["ID", "NAME"] }, idKey: "ID" });
    expect(all.isSuccess).toBe(true);
    expect((all.getData() as unknown[]).map((r) => (r as { ID: string }).ID)).toEqual(RECORDS.map((r) => r.ID));
    expect(listRequests).toBe(3);
    // The SDK writes the list parameters in lower case; the handler got them under the spec's names.
    expect(JSON.parse(seen[0]?.body ?? "{}")).toMatchObject({ filter: { ">ID": 0 }, order: { ID: "ASC" }, start: -1 });
  });

  it("fetchList: the same 120 records, page by page", async () => {
    const ids: string[] = [];
    for await (const chunk of hook().actions.v2.fetchList.make({ method: "sale.paysystem.list", params: {}, idKey: "ID" })) {
      ids.push(...(chunk as Array<{ ID: string }>).map((r) => r.ID));
    }
    expect(ids).toEqual(RECORDS.map((r) => r.ID));
  });

  it("callListMethod follows next: 120 records in 3 requests (50 of 120 before issue 14)", async () => {
    const b24 = hook();
    const all = await b24.callListMethod("sale.paysystem.list", { select: ["ID"] });
    expect(all.isSuccess).toBe(true);
    expect(all.getData()).toHaveLength(120);
    expect(listRequests).toBe(3);
  });

  it("batch in object form with halt: results by name, a reference to an earlier result", async () => {
    const r = await hook().actions.v2.batch.make({ calls: { me: ["user.current", {}], access: ["tasks.task.getaccess", { taskId: "$result[me][ID]" }] } });
    expect(r.isSuccess).toBe(true);
    expect(r.getData()).toEqual({ me: { ID: "1", ACTIVE: true }, access: { allowedActions: { "1": { ACCEPT: true } } } });
  });

  it("batch in array form without halt: a failing command fails alone", async () => {
    const r = await hook().actions.v2.batch.make({
      calls: [["user.current", {}], ["no.such.method", {}], ["tasks.task.getaccess", { taskId: 5 }]],
      options: { isHaltOnError: false, returnAjaxResult: true },
    });
    const rows = r.getData() as Array<{ isSuccess: boolean; getData(): { result: unknown } }>;
    expect(rows.map((x) => x.isSuccess)).toEqual([true, false, true]);
    expect(rows[2]?.getData().result).toEqual({ allowedActions: { "5": { ACCEPT: true } } });
    expect(JSON.parse(seen.at(-1)?.body ?? "{}")).toMatchObject({ halt: 0, cmd: ["user.current?", "no.such.method?", "tasks.task.getaccess?taskId=5"] });
  });

  it("batch with halt stops at the first failure; the deprecated callBatch speaks the same", async () => {
    const r = await hook().callBatch([["user.current"], ["no.such.method"], ["user.current"]], true);
    expect(r.isSuccess).toBe(false);
    const sent = JSON.parse(seen.at(-1)?.body ?? "{}") as { halt: number };
    expect(sent.halt).toBe(1);
  });

  it("a 3.0 call", async () => {
    const r = await hook().actions.v3.call.make({ method: "tasks.task.get", params: { taskId: 3 } });
    expect(r.getData()?.result).toEqual({ item: { id: "3", title: "From the 3.0 handler" } });
    expect(seen.at(-1)?.path).toMatch(/^\/rest\/api\/1\/sdkHookC0de\/tasks\.task\.get\?/);
  });

  it("a 3.0 batch, with the option on: results in order", async () => {
    const r = await hook().actions.v3.batch.make({ calls: [["tasks.task.get", { taskId: 1 }], ["tasks.task.get", { taskId: 2 }]] });
    expect(r.isSuccess).toBe(true);
    expect(r.getData()).toEqual([{ item: { id: "1", title: "From the 3.0 handler" } }, { item: { id: "2", title: "From the 3.0 handler" } }]);
    expect(JSON.parse(seen.at(-1)?.body ?? "{}")).toMatchObject({ "0": { method: "tasks.task.get", query: { taskId: 1 } } });
  });

  it("3.0 error codes: the SDK reads the platform's prefix as its own soft error; the spec's prefix it throws (D11)", async () => {
    const soft = await hook(platformBase).actions.v3.call.make({ method: "tasks.task.get", params: { taskId: "x" } });
    expect(soft.isSuccess).toBe(false);
    expect(JSON.stringify(soft.getErrorMessages())).toContain("has a wrong type");
    const thrown = await hook().actions.v3.call.make({ method: "tasks.task.get", params: { taskId: "x" } }).catch((e: unknown) => e);
    expect(thrown).toMatchObject({ code: "SERVICE_REST_V3_EXCEPTION_VALIDATION_REQUESTVALIDATIONEXCEPTION", status: 400 });
  });

  it("OAuth: the token travels as the auth member, to /rest//method as the SDK builds it; no refresh leaves the machine", async () => {
    const app = trusted(
      new B24OAuth(
        {
          applicationToken: "x",
          userId: 3,
          memberId: "m",
          accessToken: TOKEN,
          refreshToken: "refresh",
          expires: Math.floor(Date.now() / 1000) + 3600,
          expiresIn: 3600,
          scope: "task,user",
          domain: base.replace("https://", ""),
          clientEndpoint: `${base}/rest/`,
          serverEndpoint: `${base}/rest/`,
          status: "L",
        } as never,
        { clientId: "c", clientSecret: "s" },
        { restrictionParams: FAST } as never,
      ),
    );
    app.setCustomRefreshAuth(async () => {
      throw new Error("no token refresh in tests");
    });
    const r = await app.actions.v2.call.make({ method: "user.current" });
    expect(r.getData()?.result).toEqual({ ID: "3", ACTIVE: true });
    expect(seen.at(-1)?.path).toMatch(/^\/rest\/\/user\.current\?/);
    expect(JSON.parse(seen.at(-1)?.body ?? "{}")).toEqual({ auth: TOKEN });
  });

  it("both rate-limit codes reach the SDK as its errors: QUERY_LIMIT_EXCEEDED 503 and OPERATION_TIME_LIMIT 429", async () => {
    const b24 = hook(strictBase);
    await b24.actions.v2.call.make({ method: "user.current" });
    const rate = await b24.actions.v2.call.make({ method: "user.current" }).catch((e: unknown) => e);
    expect(rate).toMatchObject({ code: "QUERY_LIMIT_EXCEEDED", status: 503 });
    await b24.actions.v2.call.make({ method: "tasks.task.getaccess", params: { taskId: 1 } });
    const operating = await b24.actions.v2.call.make({ method: "tasks.task.getaccess", params: { taskId: 1 } }).catch((e: unknown) => e);
    expect(operating).toMatchObject({ code: "OPERATION_TIME_LIMIT", status: 429 });
  });
});
