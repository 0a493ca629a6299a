/**
 * What the Redis stores need of a Redis client: `eval` of a Lua script, as ioredis's `Redis` and `Cluster` have it.
 * The stores take a client the caller made (connection, TLS, cluster and retries are the caller's), so this
 * package depends on no Redis library: `ioredis` is an optional peer dependency.
 */
export interface RedisLike {
  eval(script: string, numberOfKeys: number, ...args: Array<string | number>): Promise<unknown>;
}

/**
 * A key prefix as given, or the default. In a Redis Cluster every key of one store must share a slot: the defaults
 * carry a hash tag (`{collab-api}:…`), and a prefix of your own should too.
 */
export function prefixOf(prefix: string | undefined, fallback: string): string {
  return prefix === undefined ? fallback : prefix;
}

/** Default bound of one Redis call, in ms: past it the call counts as an outage (fail closed or open). */
export const DEFAULT_REDIS_TIMEOUT_MS = 2_000;

/**
 * `client.eval` bounded in time. A client that queues commands while it reconnects (ioredis's default) would
 * otherwise hold every request for as long as Redis is away.
 */
export function evalWithin(client: RedisLike, timeoutMs: number, script: string, numberOfKeys: number, ...args: Array<string | number>): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer in ${timeoutMs} ms`)), timeoutMs);
  });
  const call = client.eval(script, numberOfKeys, ...args);
  // A late answer or failure after the time-out is dropped, never an unhandled rejection.
  call.catch(() => undefined);
  return Promise.race([call, timeout]).finally(() => clearTimeout(timer));
}
