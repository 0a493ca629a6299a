// One server instance for the Redis test: the generated server package with the Redis stores, on 127.0.0.1.
// argv: redis port, instance name. Prints `listening PORT` once it serves. Each run of `tasks.task.add` is counted
// in Redis (`runs:<Idempotency-Key>`), so that the test sees the runs of every instance.
import { createServer } from "node:http";
import { Redis } from "ioredis";
import { createHandler, toNodeListener, createLimiter } from "../../output/server/index.js";
import { createRedisIdempotencyStore, createRedisRateStore } from "../../output/server/runtime/server/redis.js";

const [redisPort, name] = process.argv.slice(2);
const client = new Redis({ host: "127.0.0.1", port: Number(redisPort), lazyConnect: false, maxRetriesPerRequest: 1 });
const handle = createHandler(
  {
    legacy: { "user.current": async (_p, ctx) => ({ ID: String(ctx.auth.userId), instance: name }) },
    v3: {
      "tasks.task.add": async (params, ctx) => {
        const n = await client.incr(`runs:${ctx.idempotencyKey}`);
        // Long enough that the repeats on the other instance arrive while this run holds the key.
        await new Promise((resolve) => setTimeout(resolve, 60));
        return { item: { id: n, title: params.fields?.title ?? null, instance: name } };
      },
    },
  },
  {
    authenticate: (c) => (c.kind === "webhook" && c.code === "redisHook1" ? { userId: Number(c.userId), scopes: ["task", "user"], admin: true } : { error: "INVALID_CREDENTIALS" }),
    allowHttp: true,
    methodScopes: { v3: { "tasks.task.add": ["task"] } },
    idempotencyStore: createRedisIdempotencyStore({ client, prefix: "test:idem:" }),
    limiter: createLimiter({ requestsPerSecond: 0.001, burst: 25, rateStore: createRedisRateStore({ client, prefix: "test:rate:" }) }),
    log: (e) => process.stderr.write(`${name}: ${e.message}\n`),
  },
);
const server = createServer(toNodeListener(handle));
server.listen(0, "127.0.0.1", () => process.stdout.write(`listening ${server.address().port}\n`));
const stop = () => server.close(() => client.quit().finally(() => process.exit(0)));
process.on("SIGTERM", stop);
process.stdin.on("end", stop);
process.stdin.resume();
