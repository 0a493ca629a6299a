import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { ApiError, type Clock, createClient } from "collab-platform-api-client";
import { type Admission, type Caller, type LegacyHandlers, type V3Handlers, MethodError, createHandler, createLimiter, createMock, toNodeListener } from "collab-platform-api-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacy as skeletonLegacy, v3 as skeletonV3 } from "../../output/server/skeleton/handlers.js";
import { TIME, TestServer, certificate, json, trustingFetch } from "../support/https.js";

/**
 * The client at scale (issue 16): the request-rate bucket kept before sending, operating-time holds per method,
 * one token renewal for concurrent calls, and batches of any size. Time is a fake clock shared with the server
 * (D6): a wait moves the clock, nothing sleeps.
 */

/**
 * Virtual time: a sleep ends when the clock reaches its end, and the clock moves on to the next sleep's end only
 * when no request is in flight, so that every request reaches the server at the time the client meant to send it.
 * Nothing waits in real time (D6).
 */
function virtualTime(start = Date.UTC(2026, 10, 23, 10, 0, 0)) {
  let inFlight = 0;
  let pending = false;
  const timers: Array<{ at: number; wake: () => void }> = [];
  const clock: Clock & { t: number } = {
    t: start,
    now: () => clock.t,
    sleep: (ms: number) =>
      new Promise<void>((wake) => {
        timers.push({ at: clock.t + ms, wake });
        schedule();
      }),
  };
  function schedule(): void {
    if (pending) return;
    pending = true;
    setImmediate(() => {
      pending = false;
      if (inFlight > 0 || timers.length === 0) return;
      timers.sort((x, y) => x.at - y.at);
      clock.t = Math.max(clock.t, timers[0]?.at ?? clock.t);
      for (const due of timers.filter((x) => x.at <= clock.t)) {
        timers.splice(timers.indexOf(due), 1);
        due.wake();
      }
      schedule();
    });
  }
  const track = (f: typeof fetch): typeof fetch =>
    (async (...args: Parameters<typeof fetch>) => {
      inFlight++;
      try {
        return await f(...args);
      } finally {
        inFlight--;
        schedule();
      }
    }) as typeof fetch;
  return { clock, track };
}

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("throttle before sending (limits.md: 50 requests, draining 2 a second)", () => {
  let https: Server;
  let base = "";
  let fetchImpl: typeof fetch;
  let clock = virtualTime().clock;
  const refusals: string[] = [];
  let admitted = 0;

  beforeAll(async () => {
    const { key, cert } = await certificate();
    // The generated server with its limiter at the documented thresholds, on the same fake clock.
    const limiter = createLimiter({ burst: 50, requestsPerSecond: 2, now: () => clock.now() });
    const counting = {
      admit: (...a: Parameters<typeof limiter.admit>): Admission => {
        const r = limiter.admit(...a);
        if (r.allowed) admitted++;
        else refusals.push(a[1]);
        return r;
      },
      account: limiter.account,
      usage: limiter.usage,
    };
    const legacy: LegacyHandlers = { ...skeletonLegacy, "user.current": async () => ({ ID: "1" }) as never };
    const v3: V3Handlers = { ...skeletonV3 };
    const authenticate = (): Caller => ({ userId: 1, scopes: ["user"] });
    https = createServer({ key, cert }, toNodeListener(createHandler({ legacy, v3 }, { authenticate, limiter: counting })));
    await new Promise<void>((r) => https.listen(0, "127.0.0.1", r));
    base = `https://127.0.0.1:${(https.address() as AddressInfo).port}`;
    fetchImpl = trustingFetch(cert, 32);
  });
  afterAll(() => new Promise<void>((r) => https.close(() => r())));

  it("a burst of 500 calls never meets QUERY_LIMIT_EXCEEDED, and takes the documented time; without the throttle it does", async () => {
    const time = virtualTime();
    clock = time.clock;
    const t0 = clock.t;
    const waits: number[] = [];
    const c = createClient({ baseUrl: base, auth: { userId: 1, code: "c0deC0de" }, fetch: time.track(fetchImpl), clock, retry: { maxAttempts: 1, maxTotalMs: 600_000 }, onWait: (e) => waits.push(e.delayMs) });
    const results = await Promise.all(Array.from({ length: 500 }, () => c.user.current()));
    expect(results).toHaveLength(500);
    expect(refusals).toEqual([]);
    expect(admitted).toBe(500);
    // 50 at once, then 2 a second: the 500th goes out 225 s in.
    expect(waits).toHaveLength(450);
    expect(clock.t - t0).toBe(225_000);
    expect(c.limits().throttle).toMatchObject({ burst: 50, drainPerSecond: 2 });
    // The same burst without the throttle: the server refuses past its 50.
    const later = virtualTime(clock.t + 3_600_000);
    clock = later.clock;
    const bare = createClient({ baseUrl: base, auth: { userId: 1, code: "c0deC0de" }, fetch: later.track(fetchImpl), clock, throttle: false, retry: { maxAttempts: 1 } });
    const outcomes = await Promise.allSettled(Array.from({ length: 100 }, () => bare.user.current()));
    expect(outcomes.filter((o) => o.status === "rejected").map((o) => (o as PromiseRejectedResult).reason.code)).toEqual(Array(50).fill("QUERY_LIMIT_EXCEEDED"));
  });

  it("a wait past the call's budget fails at once with retryAt and gives its place back (D10); presets", async () => {
    const time = virtualTime(clock.t + 7_200_000);
    clock = time.clock;
    const c = createClient({ baseUrl: base, auth: { userId: 1, code: "c0deC0de" }, fetch: time.track(fetchImpl), clock, throttle: { burst: 2, drainPerSecond: 1 }, retry: { maxTotalMs: 1500 } });
    await c.user.current();
    await c.user.current();
    // The third waits one second, within the budget.
    const t = clock.t;
    await c.user.current();
    expect(clock.t - t).toBe(1000);
    // Two more at once: the first waits a second; the second would wait two, past the budget of 1.5 s.
    const [fourth, fifth] = await Promise.allSettled([c.user.current(), c.user.current()]);
    expect(fourth.status).toBe("fulfilled");
    expect(fifth).toMatchObject({ status: "rejected", reason: { code: "QUERY_LIMIT_EXCEEDED", status: 0, retryAt: t + 1000 + 2000 } });
    // It gave its place back: the next call waits one second, not two.
    const before = clock.t;
    await c.user.current();
    expect(clock.t - before).toBe(1000);
    expect(createClient({ baseUrl: base, auth: { userId: 1, code: "x" }, throttle: "enterprise" }).limits().throttle).toEqual({ burst: 250, drainPerSecond: 5, level: 0 });
  });

  it("a call aborted while it waits for the bucket gives its place back and is not sent", async () => {
    const time = virtualTime(clock.t + 10_800_000);
    clock = time.clock;
    // The virtual sleep, ended by an abort as the real one is.
    const abortable: Clock = {
      now: () => time.clock.now(),
      sleep: (ms, signal) =>
        new Promise<void>((resolve, reject) => {
          if (signal?.aborted) return reject(signal.reason);
          signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
          void time.clock.sleep(ms).then(resolve);
        }),
    };
    const controller = new AbortController();
    let sent = 0;
    const counted = (async (...a: Parameters<typeof fetch>) => {
      sent++;
      return time.track(fetchImpl)(...a);
    }) as typeof fetch;
    // Aborted once its wait has begun.
    const onWait = () => queueMicrotask(() => controller.abort(new Error("stop")));
    const c = createClient({ baseUrl: base, auth: { userId: 1, code: "c0deC0de" }, fetch: counted, clock: abortable, throttle: { burst: 1, drainPerSecond: 1 }, onWait });
    await c.user.current();
    await expect(c.user.current({}, { signal: controller.signal })).rejects.toThrow();
    expect(sent).toBe(1);
    // Its place is free again: the next call waits one second, as after one call, not two.
    const before = clock.t;
    await c.user.current();
    expect(clock.t - before).toBe(1000);
    expect(sent).toBe(2);
  });
});

describe("the same burst against the mock (issue 15), no handler code", () => {
  it("500 calls never meet QUERY_LIMIT_EXCEEDED from the mock's limiter at the documented thresholds", async () => {
    const time = virtualTime();
    const { key, cert } = await certificate();
    let refused = 0;
    const limiter = createLimiter({ burst: 50, requestsPerSecond: 2, now: () => time.clock.now() });
    const counting = { ...limiter, admit: (...a: Parameters<typeof limiter.admit>) => { const r = limiter.admit(...a); if (!r.allowed) refused++; return r; } };
    const https = createServer({ key, cert }, toNodeListener(createMock({ limiter: counting })));
    await new Promise<void>((r) => https.listen(0, "127.0.0.1", r));
    try {
      const c = createClient({ baseUrl: `https://127.0.0.1:${(https.address() as AddressInfo).port}`, auth: { userId: 1, code: "c0deC0de" }, fetch: time.track(trustingFetch(cert, 32)), clock: time.clock, retry: { maxAttempts: 1, maxTotalMs: 600_000 } });
      const t0 = time.clock.t;
      const answers = await Promise.all(Array.from({ length: 500 }, () => c.user.current()));
      expect(answers).toHaveLength(500);
      expect(refused).toBe(0);
      expect(time.clock.t - t0).toBe(225_000);
    } finally {
      await new Promise<void>((r) => https.close(() => r()));
    }
  });
});

describe("OPERATION_TIME_LIMIT holds its method only, until the reset of the last successful answer", () => {
  it("holds the method until operating_reset_at, then a minute more if it persists; other methods go on", async () => {
    const time = virtualTime();
    const { clock } = time;
    const reset = Math.floor(clock.t / 1000) + 30;
    let blockedUntil = 0;
    const sent: Array<[string, number]> = [];
    server.handler = (r, res) => {
      const method = r.url.split("/").pop() ?? "";
      sent.push([method, clock.t]);
      if (method === "tasks.task.getaccess" && clock.t < blockedUntil) {
        return json(res, 429, { error: "OPERATION_TIME_LIMIT", error_description: "Method is blocked due to operation time limit" });
      }
      json(res, 200, { result: { allowedActions: [] }, time: { ...TIME, operating: 470, operating_reset_at: reset } });
    };
    const events: Array<[string, string, number]> = [];
    const c = createClient({
      baseUrl: server.baseUrl,
      auth: { userId: 7, code: "s3cretWebhookC0de" },
      fetch: time.track(server.fetch()),
      clock,
      throttle: false,
      retry: { maxTotalMs: 600_000 },
      onWait: (e) => events.push([e.method, e.reason, e.delayMs]),
      onRetry: (e) => events.push([e.method, "retry", e.delayMs]),
    });
    const t0 = clock.t;
    await c.tasks.task.getaccess({ taskId: 1 });
    expect(c.limits().methods["legacy:tasks.task.getaccess"]).toEqual({ operating: 470, resetAt: reset * 1000, heldUntil: undefined });
    // Blocked: the retry goes at the reset time of the last successful answer (30 s), not after a short backoff.
    blockedUntil = reset * 1000;
    await c.tasks.task.getaccess({ taskId: 1 });
    expect(sent.map(([m, at]) => [m, at - t0])).toEqual([
      ["tasks.task.getaccess", 0],
      ["tasks.task.getaccess", 0],
      ["tasks.task.getaccess", 30_000],
    ]);
    expect(events).toEqual([["tasks.task.getaccess", "retry", 30_000]]);
    // Blocked again, the last reset now past: a minute, then a minute more while the error persists. Two calls of
    // the method refused together make one hold; another method goes at once.
    blockedUntil = clock.t + 90_000;
    events.length = 0;
    sent.length = 0;
    const t1 = clock.t;
    const [, , other] = await Promise.all([c.tasks.task.getaccess({ taskId: 2 }), c.tasks.task.getaccess({ taskId: 3 }), c.call("user.current")]);
    expect(other).toEqual({ allowedActions: [] });
    expect(sent.filter(([m]) => m === "user.current").map(([, at]) => at - t1)).toEqual([0]);
    expect(sent.filter(([m]) => m === "tasks.task.getaccess").map(([, at]) => at - t1)).toEqual([0, 0, 60_000, 60_000, 120_000, 120_000]);
    expect(events.map(([m, why]) => [m, why])).toEqual(Array(4).fill(["tasks.task.getaccess", "retry"]));
    // A call made while the method is held waits for the hold without sending ("operating"), then goes.
    const once = createClient({ baseUrl: server.baseUrl, auth: { userId: 7, code: "s3cretWebhookC0de" }, fetch: time.track(server.fetch()), clock, throttle: false, retry: { maxAttempts: 1, maxTotalMs: 600_000 }, onWait: (e) => events.push([e.method, e.reason, e.delayMs]) });
    blockedUntil = clock.t + 1;
    events.length = 0;
    sent.length = 0;
    const t2 = clock.t;
    await expect(once.tasks.task.getaccess({ taskId: 4 })).rejects.toMatchObject({ code: "OPERATION_TIME_LIMIT" });
    expect(once.limits().methods["legacy:tasks.task.getaccess"]?.heldUntil).toBe(t2 + 60_000);
    await once.tasks.task.getaccess({ taskId: 5 });
    expect(events).toEqual([["tasks.task.getaccess", "operating", 60_000]]);
    expect(sent.map(([, at]) => at - t2)).toEqual([0, 60_000]);
  });

  it("a hold past the budget fails at once with retryAt, without sending", async () => {
    const time = virtualTime();
    const { clock } = time;
    server.handler = (_r, res) => json(res, 429, { error: "OPERATION_TIME_LIMIT", error_description: "Method is blocked due to operation time limit" });
    const c = createClient({ baseUrl: server.baseUrl, auth: { userId: 7, code: "s3cretWebhookC0de" }, fetch: time.track(server.fetch()), clock, retry: { maxTotalMs: 5_000 } });
    await expect(c.user.current()).rejects.toMatchObject({ code: "OPERATION_TIME_LIMIT", retryAt: clock.t + 60_000 });
    const sent = server.requests.length;
    await expect(c.user.current()).rejects.toMatchObject({ code: "OPERATION_TIME_LIMIT", status: 0, retryAt: clock.t + 60_000 });
    expect(server.requests.length).toBe(sent);
  });
});

describe("one token renewal for concurrent calls", () => {
  function tokenServer() {
    server.handler = (r, res) =>
      (r.json as { auth?: string }).auth === "fresh" ? json(res, 200, { result: true, time: TIME }) : json(res, 401, { error: "expired_token", error_description: "The access token provided has expired" });
  }

  it.each([5, 50])("%i concurrent calls on an expired token make exactly one refresh; the new pair reaches onTokens", async (n) => {
    tokenServer();
    let refreshes = 0;
    const pairs: unknown[] = [];
    const c = createClient({
      baseUrl: server.baseUrl,
      auth: {
        accessToken: "old",
        refresh: async () => {
          refreshes++;
          await new Promise((r) => setTimeout(r, 20));
          return { accessToken: "fresh", refreshToken: "r2", expiresIn: 3600 };
        },
      },
      fetch: server.fetch(),
      throttle: false,
      onTokens: (t) => pairs.push(t),
    });
    const results = await Promise.all(Array.from({ length: n }, () => c.user.current()));
    expect(results).toEqual(Array(n).fill(true));
    expect(refreshes).toBe(1);
    expect(pairs).toEqual([{ accessToken: "fresh", refreshToken: "r2", expiresIn: 3600 }]);
    expect(server.requests.filter((r) => (r.json as { auth?: string }).auth === "fresh")).toHaveLength(n);
  });

  it("a failed renewal fails each waiting call once, with the renewal's error", async () => {
    tokenServer();
    let refreshes = 0;
    const c = createClient({
      baseUrl: server.baseUrl,
      auth: {
        accessToken: "old",
        refresh: async () => {
          refreshes++;
          throw new Error("refresh token revoked");
        },
      },
      fetch: server.fetch(),
      throttle: false,
    });
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => c.user.current()));
    expect(outcomes.map((o) => (o.status === "rejected" ? (o.reason as Error).message : "ok"))).toEqual(Array(5).fill("refresh token revoked"));
    expect(refreshes).toBe(1);
  });
});

describe("batches of any size", () => {
  /** The platform's batch answer for the commands of one request; `fail` names the commands that fail. */
  function batchServer(fail: Set<string>) {
    server.handler = (r, res) => {
      const cmd = (r.json as { cmd: Record<string, string>; halt: number }).cmd;
      const result: Record<string, unknown> = {};
      const errors: Record<string, unknown> = {};
      for (const [name, call] of Object.entries(cmd)) {
        if (fail.has(name)) errors[name] = { error: "ACCESS_DENIED", error_description: "Access denied!" };
        else result[name] = { ID: name, call };
      }
      json(res, 200, { result: { result, result_error: errors, result_total: [], result_next: [], result_time: [] }, time: TIME });
    };
  }

  it("120 commands go in three requests of 50, 50 and 20, in order, each outcome typed ok or not", async () => {
    batchServer(new Set(["c77"]));
    const commands = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`c${i}`, ["user.current"] as const]));
    const c = createClient({ baseUrl: server.baseUrl, auth: { userId: 7, code: "s3cretWebhookC0de" }, fetch: server.fetch() });
    const r = await c.batch(commands);
    expect(server.requests.map((q) => Object.keys((q.json as { cmd: object }).cmd).length)).toEqual([50, 50, 20]);
    expect(Object.keys((server.requests[1]?.json as { cmd: object }).cmd)[0]).toBe("c50");
    expect(Object.keys(r.outcomes)).toEqual(Object.keys(commands));
    expect(r.outcomes.c77).toMatchObject({ ok: false, error: { code: "ACCESS_DENIED", method: "user.current" } });
    expect(r.outcomes.c78).toEqual({ ok: true, result: { ID: "c78", call: "user.current" } });
    expect(Object.values(r.outcomes).filter((o) => !o?.ok)).toHaveLength(1);
    expect(r.times).toHaveLength(3);
    expect(r.raw).toHaveLength(3);
  });

  it("halt stops the failing request's later commands and the requests after it", async () => {
    batchServer(new Set(["c10"]));
    const commands = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`c${i}`, ["user.current"] as const]));
    const c = createClient({ baseUrl: server.baseUrl, auth: { userId: 7, code: "s3cretWebhookC0de" }, fetch: server.fetch() });
    const r = await c.batch(commands, { halt: true });
    expect(server.requests).toHaveLength(1);
    expect((server.requests[0]?.json as { halt: number }).halt).toBe(1);
    expect(r.outcomes.c10?.ok).toBe(false);
    expect(r.outcomes.c60).toBeUndefined();
  });

  it("a $result reference into another request is refused before anything is sent; within one request it goes through", async () => {
    batchServer(new Set());
    const commands: Record<string, readonly [string, unknown?]> = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`c${i}`, ["user.current"] as const]));
    commands.c55 = ["tasks.task.getaccess", { taskId: "$result[c1][ID]" }];
    const c = createClient({ baseUrl: server.baseUrl, auth: { userId: 7, code: "s3cretWebhookC0de" }, fetch: server.fetch() }) as unknown as {
      batch(c: Record<string, readonly [string, unknown?]>, o?: { maxCommands?: number }): Promise<unknown>;
    };
    await expect(c.batch(commands)).rejects.toThrow('batch command "c55" refers to $result[c1], which goes in another request of 50 commands');
    expect(server.requests).toHaveLength(0);
    commands.c55 = ["tasks.task.getaccess", { taskId: "$result[c52][ID]" }];
    await c.batch(commands);
    expect((server.requests[1]?.json as { cmd: Record<string, string> }).cmd.c55).toBe("tasks.task.getaccess?taskId=%24result%5Bc52%5D%5BID%5D");
    await expect(c.batch({})).rejects.toThrow(RangeError);
  });

  it("a batch against the generated server: the router's own errors per command", async () => {
    const { key, cert } = await certificate();
    const legacy: LegacyHandlers = {
      ...skeletonLegacy,
      "user.current": async () => ({ ID: "1" }) as never,
      "tasks.task.getaccess": async (p) => {
        if (p.taskId === 13) throw new MethodError({ code: "ACCESS_DENIED", status: 403, description: "Access denied!" });
        return { allowedActions: {} } as never;
      },
    };
    const https = createServer({ key, cert }, toNodeListener(createHandler({ legacy, v3: { ...skeletonV3 } }, { authenticate: () => ({ userId: 1, scopes: ["user", "task"] }) })));
    await new Promise<void>((r) => https.listen(0, "127.0.0.1", r));
    try {
      const f = trustingFetch(cert);
      const c = createClient({ baseUrl: `https://127.0.0.1:${(https.address() as AddressInfo).port}`, auth: { userId: 1, code: "c0deC0de" }, fetch: f });
      const commands = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`t${i}`, ["tasks.task.getaccess", { taskId: i }] as const]));
      const r = await c.batch(commands);
      const failed = Object.entries(r.outcomes).filter(([, o]) => o && !o.ok);
      expect(failed.map(([n, o]) => [n, o?.ok === false ? o.error.code : ""])).toEqual([["t13", "ACCESS_DENIED"]]);
      expect(Object.keys(r.outcomes)).toHaveLength(120);
    } finally {
      await new Promise<void>((r) => https.close(() => r()));
    }
  });
});

describe("limits() and ApiError", () => {
  it("limits() reports the bucket's level, and null without the throttle", async () => {
    server.handler = (_r, res) => json(res, 200, { result: true, time: TIME });
    const { clock, track } = virtualTime();
    const c = createClient({ baseUrl: server.baseUrl, auth: { userId: 7, code: "s3cretWebhookC0de" }, fetch: track(server.fetch()), clock });
    await c.user.current();
    await c.user.current();
    expect(c.limits().throttle?.level).toBe(2);
    clock.t += 500;
    expect(c.limits().throttle?.level).toBe(1);
    expect(createClient({ baseUrl: server.baseUrl, auth: { userId: 7, code: "x" }, throttle: false }).limits().throttle).toBeNull();
    expect(new ApiError({ method: "m", status: 0, code: "X", description: "" })).toBeInstanceOf(Error);
  });
});

describe("all(): every record of a list method", () => {
  const RECORDS = Array.from({ length: 10_000 }, (_, i) => ({ ID: String(i + 1), NAME: `p${i + 1}` }));

  it("walks 10,000 records by the >ID cursor with start=-1 and the identifier ascending, a page as it arrives", async () => {
    const { clock, track } = virtualTime();
    server.handler = (r, res) => {
      const p = r.json as { FILTER?: Record<string, string>; ORDER?: unknown; start?: number; SELECT?: string[] };
      const after = Number(p.FILTER?.[">ID"] ?? 0);
      json(res, 200, { result: RECORDS.filter((x) => Number(x.ID) > after).slice(0, 50), time: TIME });
    };
    const warnings: string[] = [];
    const progress: number[] = [];
    const c = createClient({ baseUrl: server.baseUrl, auth: { userId: 7, code: "s3cretWebhookC0de" }, fetch: track(server.fetch()), clock });
    const seen: string[] = [];
    let pages = 0;
    for await (const page of c.all("sale.paysystem.list", { SELECT: ["ID", "NAME"], ORDER: { NAME: "DESC" } }, { onWarning: (m) => warnings.push(m), onProgress: (p) => progress.push(p.records) })) {
      pages++;
      for (const ps of page) seen.push(ps.ID as string);
    }
    expect(seen).toEqual(RECORDS.map((x) => x.ID));
    expect(pages).toBe(200);
    // 200 full pages and the empty one that ends the walk.
    expect(server.requests).toHaveLength(201);
    expect(server.requests[1]?.json).toEqual({ SELECT: ["ID", "NAME"], ORDER: { ID: "ASC" }, FILTER: { ">ID": "50" }, start: -1 });
    expect(warnings).toEqual(['all("sale.paysystem.list") walks by ID ascending (the platform\'s cursor for large lists); the given ORDER is replaced']);
    expect(progress.at(-1)).toBe(10_000);
    expect(progress).toHaveLength(201);
  });

  it("a first page that claims total 1e12 allocates nothing for it: pages go as they are asked for, a short page ends the walk (issue 24)", async () => {
    server.handler = (r, res) => {
      const start = Number((r.json as { start?: number }).start ?? 0);
      // A server that lies about its count: 120 records, `total` a trillion, `next` always there.
      json(res, 200, { result: RECORDS.slice(start, Math.min(start + 50, 120)), total: 1e12, next: start + 50, time: TIME });
    };
    const c = createClient({ baseUrl: server.baseUrl, auth: { userId: 7, code: "s3cretWebhookC0de" }, fetch: server.fetch(), throttle: false });
    const seen: string[] = [];
    // Before the fix the client listed every start up front: a fatal invalid-size error the caller could not catch.
    for await (const page of c.all("sale.paysystem.list", {}, { cursor: false, concurrency: 1_000_000 })) for (const ps of page) seen.push(ps.ID as string);
    expect(seen).toEqual(RECORDS.slice(0, 120).map((x) => x.ID));
    // The requests still in flight when the short page ended the walk settle before the next test.
    for (let settled = -1; settled !== server.requests.length; ) {
      settled = server.requests.length;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The first page, then at most 16 in flight (whatever `concurrency` asked), one more for each full page taken
    // before the short one (one here): never a request per claimed page.
    expect(server.requests.length).toBeLessThanOrEqual(1 + 16 + 1);
  });

  it("walks by start where asked (cursor: false): the first page's total, then pages with a bounded number in flight, in order", async () => {
    let inFlight = 0;
    let most = 0;
    server.handler = async (r, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((ok) => setTimeout(ok, 5));
      inFlight--;
      const start = Number((r.json as { start?: number }).start ?? 0);
      const next = start + 50 < 620 ? start + 50 : undefined;
      json(res, 200, { result: RECORDS.slice(start, Math.min(start + 50, 620)), total: 620, ...(next !== undefined ? { next } : {}), time: TIME });
    };
    const c = createClient({ baseUrl: server.baseUrl, auth: { userId: 7, code: "s3cretWebhookC0de" }, fetch: server.fetch(), throttle: false });
    const seen: string[] = [];
    for await (const page of c.all("sale.paysystem.list", {}, { cursor: false, concurrency: 3 })) for (const ps of page) seen.push(ps.ID as string);
    expect(seen).toEqual(RECORDS.slice(0, 620).map((x) => x.ID));
    // Requests in flight together arrive in any order; each page is asked for once.
    expect(server.requests.map((q) => (q.json as { start: number }).start).sort((a, b) => a - b)).toEqual(Array.from({ length: 13 }, (_, i) => i * 50));
    expect(most).toBe(3);
  });

  it("a server that ignores the cursor's filter stops the walk with an error, not a loop", async () => {
    server.handler = (_r, res) => json(res, 200, { result: RECORDS.slice(0, 50), time: TIME });
    const c = createClient({ baseUrl: server.baseUrl, auth: { userId: 7, code: "s3cretWebhookC0de" }, fetch: server.fetch(), throttle: false });
    const walk = async () => {
      for await (const _ of c.all("sale.paysystem.list")) void _;
    };
    await expect(walk()).rejects.toThrow('all("sale.paysystem.list"): the ID cursor did not advance past 50; pass cursor: false');
    expect(server.requests).toHaveLength(2);
  });
});

describe("review findings", () => {
  it("a call sent while a renewal is under way, with the old token, joins it: one refresh", async () => {
    server.handler = (r, res) =>
      (r.json as { auth?: string }).auth === "fresh" ? json(res, 200, { result: true, time: TIME }) : json(res, 401, { error: "expired_token", error_description: "The access token provided has expired" });
    let refreshes = 0;
    let started!: () => void;
    const refreshing = new Promise<void>((r) => (started = r));
    const c = createClient({
      baseUrl: server.baseUrl,
      auth: {
        accessToken: "old",
        refresh: async () => {
          refreshes++;
          started();
          await new Promise((r) => setTimeout(r, 80));
          return "fresh";
        },
      },
      fetch: server.fetch(),
      throttle: false,
    });
    const first = c.user.current();
    await refreshing;
    // Sent now, with the old token: its expiry meets the renewal under way.
    const second = c.user.current();
    await expect(Promise.all([first, second])).resolves.toEqual([true, true]);
    expect(refreshes).toBe(1);
  });

  it("all() with pages in flight: a failing page fails the walk, and no rejection is left unhandled", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on("unhandledRejection", onUnhandled);
    try {
      server.handler = async (r, res) => {
        const start = Number((r.json as { start?: number }).start ?? 0);
        if (start === 100) return json(res, 403, { error: "ACCESS_DENIED", error_description: "Access denied!" });
        await new Promise((ok) => setTimeout(ok, start === 0 ? 0 : 30));
        json(res, 200, { result: Array.from({ length: 50 }, (_, i) => ({ ID: String(start + i + 1) })), total: 500, next: start + 50, time: TIME });
      };
      const c = createClient({ baseUrl: server.baseUrl, auth: { userId: 7, code: "s3cretWebhookC0de" }, fetch: server.fetch(), throttle: false });
      const walk = async () => {
        for await (const _ of c.all("sale.paysystem.list", {}, { cursor: false, concurrency: 3 })) void _;
      };
      await expect(walk()).rejects.toMatchObject({ code: "ACCESS_DENIED" });
      await new Promise((r) => setTimeout(r, 100));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("a batch whose second request fails throws with the outcomes of the first, which ran", async () => {
    let n = 0;
    server.handler = (r, res) => {
      n++;
      if (n === 2) return json(res, 403, { error: "ACCESS_DENIED", error_description: "Access denied!" });
      const cmd = (r.json as { cmd: Record<string, string> }).cmd;
      json(res, 200, { result: { result: Object.fromEntries(Object.keys(cmd).map((k) => [k, { ID: k }])), result_error: [] }, time: TIME });
    };
    const commands = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`c${i}`, ["user.current"] as const]));
    const c = createClient({ baseUrl: server.baseUrl, auth: { userId: 7, code: "s3cretWebhookC0de" }, fetch: server.fetch(), throttle: false });
    const error = (await c.batch(commands).catch((e: unknown) => e)) as ApiError & { batch?: { outcomes: Record<string, unknown> } };
    expect(error).toMatchObject({ code: "ACCESS_DENIED" });
    expect(Object.keys(error.batch?.outcomes ?? {})).toHaveLength(50);
  });
});
