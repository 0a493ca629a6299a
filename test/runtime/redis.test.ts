import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openapiV3 } from "../../output/server/documentation.js";
import serverData from "../../output/server/methods.js";
import type { ServerData } from "../../runtime/shared/data.js";
import type { Caller, Credentials, HandlerOptions } from "../../runtime/server/handler.js";
import { type BuiltInSpec, createHandlerWith } from "../../runtime/server/index.js";
import { createLimiter } from "../../runtime/server/limiter.js";
import { createRedisIdempotencyStore, createRedisRateStore } from "../../runtime/server/redis.js";
import { redisBucket } from "../../runtime/client/redis.js";
import { REDIS_INSTALL, hasRedisServer, startRedis, type RedisProcess } from "../support/redis.js";

/**
 * The Redis stores against a real `redis-server` on loopback (issue 24 item 5, D26): two server processes share one
 * Redis, and each key runs once; records expire by the injected clock; the byte bound holds across instances; the
 * stores fail closed (idempotency) and open (rates).
 */
const available = hasRedisServer();
if (!available) console.warn(`redis.test.ts skipped: redis-server is not installed; install it with: ${REDIS_INSTALL}`);

const data = serverData as ServerData;
const builtIns: BuiltInSpec = { documentation: { legacy: [], v3: ["rest.documentation.openapi", "documentation"] }, scopeList: { legacy: [], v3: ["rest.scope.list"] } };

describe.skipIf(!available)(`Redis stores on a real redis-server (skipped without it: ${REDIS_INSTALL})`, () => {
  let redis: RedisProcess;
  let client: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis({ host: "127.0.0.1", port: redis.port, maxRetriesPerRequest: 1 });
  }, 20_000);
  afterAll(async () => {
    await client?.quit();
    await redis?.stop();
  });

  describe("two server processes on one Redis", () => {
    const instances: Array<{ child: ChildProcess; port: number }> = [];
    beforeAll(async () => {
      const script = fileURLToPath(new URL("../support/redis-instance.mjs", import.meta.url));
      for (const name of ["a", "b"]) {
        const child = spawn(process.execPath, [script, String(redis.port), name], { stdio: ["pipe", "pipe", "inherit"] });
        const port = await new Promise<number>((resolve, reject) => {
          let out = "";
          const timer = setTimeout(() => reject(new Error(`instance ${name} did not start: ${out}`)), 15_000);
          child.stdout?.on("data", (c: Buffer) => {
            out += c.toString();
            const m = /listening (\d+)/.exec(out);
            if (m) {
              clearTimeout(timer);
              resolve(Number(m[1]));
            }
          });
          child.once("exit", (code) => reject(new Error(`instance ${name} exited ${code}: ${out}`)));
        });
        instances.push({ child, port });
      }
    }, 30_000);
    afterAll(async () => {
      await Promise.all(
        instances.map(
          ({ child }) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null) return resolve();
              child.once("exit", () => resolve());
              child.stdin?.end();
              setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
            }),
        ),
      );
    });

    const add = (instance: number, user: number, key: string, title = "T") =>
      fetch(`http://127.0.0.1:${instances[instance]?.port}/rest/api/${user}/redisHook1/tasks.task.add`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Idempotency-Key": key },
        body: JSON.stringify({ fields: { title } }),
      }).then(async (r) => ({ status: r.status, replayed: r.headers.get("idempotent-replayed") === "true", body: await r.text() }));

    it("5 keys, 20 concurrent requests each split over both instances: each key runs once, every answer the same", async () => {
      const keys = ["k-one", "k-two", "k-three", "k-four", "k-five"];
      const answers = await Promise.all(keys.flatMap((key, u) => Array.from({ length: 20 }, (_, i) => add(i % 2, u + 1, key).then((a) => ({ key, ...a })))));
      expect(answers).toHaveLength(100);
      for (const key of keys) {
        expect(await client.get(`runs:${key}`)).toBe("1");
        const mine = answers.filter((a) => a.key === key);
        expect(mine.every((a) => a.status === 200)).toBe(true);
        expect(new Set(mine.map((a) => JSON.parse(a.body).result.item.id)).size).toBe(1);
        expect(mine.filter((a) => !a.replayed)).toHaveLength(1);
      }
      // A repeat with another body is the spec's reuse error, on either instance.
      const reused = await add(1, 1, "k-one", "other title");
      expect(reused.status).toBe(422);
    }, 60_000);

    it("the request-rate bucket is shared: 40 calls split over both instances, a burst of 25 admits 25", async () => {
      const calls = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          fetch(`http://127.0.0.1:${instances[i % 2]?.port}/rest/9/redisHook1/user.current`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }).then((r) => r.status),
        ),
      );
      expect(calls.filter((s) => s === 200)).toHaveLength(25);
      expect(calls.filter((s) => s === 503)).toHaveLength(15);
    }, 30_000);
  });

  describe("in one process, with an injected clock", () => {
    let t = 1_000_000;
    let runs = 0;
    const authenticate = (c: Credentials): Caller | { error: string } =>
      c.kind === "webhook" ? { userId: 1, scopes: ["task"] } : c.token === "no-app-token" ? { userId: 1, scopes: ["task"] } : { userId: 1, scopes: ["task"], applicationId: c.token.slice(0, 4) };
    const router = (extra: Partial<HandlerOptions>) =>
      createHandlerWith(
        {
          v3: {
            "tasks.task.add": async () => {
              runs++;
              return { item: { id: runs, pad: "x".repeat(1_000) } };
            },
          },
        },
        { authenticate, methodScopes: { v3: { "tasks.task.add": ["task"] } }, now: () => t, ...extra },
        data,
        builtIns,
        { openapiV3 },
      );
    const add = (handle: (r: Request) => Promise<Response>, key: string, auth?: string) =>
      handle(
        new Request(`https://p.example/rest/api/${auth ? "" : "1/hookCode12345/"}tasks.task.add`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "Idempotency-Key": key },
          body: JSON.stringify({ fields: { title: "T" }, ...(auth ? { auth } : {}) }),
        }),
      );

    it("a record lives for the retention by the store's clock, then the key runs again", async () => {
      const handle = router({ idempotencyStore: createRedisIdempotencyStore({ client, prefix: "ttl:", now: () => t }) });
      runs = 0;
      expect((await add(handle, "ttl-key")).status).toBe(200);
      expect((await add(handle, "ttl-key")).headers.get("Idempotent-Replayed")).toBe("true");
      t += data.idempotencyTtlMs - 1;
      expect((await add(handle, "ttl-key")).headers.get("Idempotent-Replayed")).toBe("true");
      t += 2;
      expect((await add(handle, "ttl-key")).headers.get("Idempotent-Replayed")).toBeNull();
      expect(runs).toBe(2);
    });

    it("the byte bound holds: the records that expire soonest go, each eviction is told", async () => {
      const evicted: string[] = [];
      const store = createRedisIdempotencyStore({ client, prefix: "bytes:", maxBytes: 20_000, now: () => t, onEvict: (e) => evicted.push(e.reason) });
      const handle = router({ idempotencyStore: store });
      for (let i = 0; i < 40; i++) {
        t += 1;
        expect((await add(handle, `bytes-${i}`)).status).toBe(200);
      }
      const bytes = Number(await client.get("bytes:bytes"));
      expect(bytes).toBeGreaterThan(15_000);
      expect(bytes).toBeLessThanOrEqual(20_000);
      expect(evicted.filter((r) => r === "capacity").length).toBeGreaterThan(20);
      // The newest are kept, the oldest went.
      expect((await add(handle, "bytes-39")).headers.get("Idempotent-Replayed")).toBe("true");
      expect((await add(handle, "bytes-0")).headers.get("Idempotent-Replayed")).toBeNull();
      // An answer larger than an eighth of the bound is not kept, and says so.
      const small = createRedisIdempotencyStore({ client, prefix: "tiny:", maxBytes: 4_000, now: () => t, onEvict: (e) => evicted.push(e.reason) });
      const h2 = router({ idempotencyStore: small });
      await add(h2, "big");
      expect(evicted).toContain("too-large");
      expect((await add(h2, "big")).headers.get("Idempotent-Replayed")).toBeNull();
    });

    it("keys are per application and user: a renewed token replays, another application runs", async () => {
      const handle = router({ idempotencyStore: createRedisIdempotencyStore({ client, prefix: "apps:", now: () => t }) });
      runs = 0;
      expect((await add(handle, "app-key", "app1-token-before-renewal")).status).toBe(200);
      expect((await add(handle, "app-key", "app1-token-after-renewal")).headers.get("Idempotent-Replayed")).toBe("true");
      expect((await add(handle, "app-key", "app2-token")).headers.get("Idempotent-Replayed")).toBeNull();
      expect(runs).toBe(2);
    });

    it("a token whose authenticate gives no application is refused an idempotent call: 500 and a log line, the handler not run", async () => {
      const logs: string[] = [];
      const handle = router({ idempotencyStore: createRedisIdempotencyStore({ client, prefix: "noapp:", now: () => t }), log: (e) => logs.push(e.message) });
      runs = 0;
      const r = await add(handle, "noapp-key", "no-app-token");
      expect(r.status).toBe(500);
      expect(runs).toBe(0);
      expect(logs.join("\n")).toMatch(/no applicationId/);
    });

    it("Redis unreachable: idempotent calls fail closed (503, Retry-After, no run); rates fail open with one notice", async () => {
      const down = { eval: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:1")) };
      const logs: string[] = [];
      const notices: unknown[] = [];
      const handle = router({
        idempotencyStore: createRedisIdempotencyStore({ client: down }),
        limiter: createLimiter({ requestsPerSecond: 1, burst: 1, rateStore: createRedisRateStore({ client: down }), onStoreError: (e) => notices.push(e), now: () => t }),
        log: (e) => logs.push(e.message),
      });
      runs = 0;
      for (let i = 0; i < 3; i++) {
        const r = await add(handle, `down-${i}`);
        expect(r.status).toBe(503);
        expect(r.headers.get("Retry-After")).toBe("1");
      }
      expect(runs).toBe(0);
      expect(logs.filter((l) => /idempotency store unavailable/.test(l))).toHaveLength(1);
      // Three requests through a limiter of burst 1 whose store is down: all admitted, one notice.
      expect(notices).toHaveLength(1);
    });

    it("the client's throttle counter is shared by two workers", async () => {
      const a = redisBucket({ client, prefix: "thr:" });
      const b = redisBucket({ client, prefix: "thr:" });
      const waits: number[] = [];
      for (let i = 0; i < 6; i++) waits.push(await (i % 2 ? a : b).take("portal.example", 5_000, 4, 2));
      // Four requests fit the burst; the fifth and sixth wait half a second each more.
      expect(waits).toEqual([0, 0, 0, 0, 500, 1000]);
      a.give?.("portal.example");
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await b.take("portal.example", 5_000, 4, 2)).toBe(1000);
      const notices: unknown[] = [];
      const failing = redisBucket({ client: { eval: () => Promise.reject(new Error("down")) }, onError: (e) => notices.push(e) });
      expect(await failing.take("x", 0, 1, 1)).toBe(0);
      expect(await failing.take("x", 0, 1, 1)).toBe(0);
      expect(notices).toHaveLength(1);
    });
  });
});
