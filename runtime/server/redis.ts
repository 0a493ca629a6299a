import { DEFAULT_REDIS_TIMEOUT_MS, type RedisLike, evalWithin, prefixOf } from "../shared/redis.js";
import { type AtomicIdempotencyStore, DEFAULT_MAX_BYTES, type EvictionEvent, newLease } from "./idempotency.js";
import type { RateStore } from "./limiter.js";

/**
 * Stores on Redis that several server instances share: the idempotency records, with
 * one run per key across instances and a byte bound, and the request-rate buckets of the limiter. Each operation
 * is one Lua script, so that it is atomic in Redis whatever the instances do at the same moment.
 *
 * Import from `…-server/redis`: no main entry imports this file.
 */
export type { RedisLike } from "../shared/redis.js";

export interface RedisIdempotencyStoreOptions {
  /** A client you made (ioredis `new Redis(…)` or `new Cluster(…)`): connection, TLS and retries are yours. */
  client: RedisLike;
  /** Prefix of every key (default `{collab-api}:idem:`); in a cluster give one with a hash tag. */
  prefix?: string;
  /** Bound of one Redis call in ms (default 2,000): past it the call is refused as when Redis is down. */
  timeoutMs?: number;
  /** Bytes of kept answers in all, shared by every instance (UTF-16 code units of key and body). Default 64 MiB. */
  maxBytes?: number;
  /** The clock of record expiry (each record holds its absolute expiry, checked on read; Redis's TTL is a backstop). */
  now?: () => number;
  onEvict?: (event: EvictionEvent) => void;
}

// KEYS: record, bytes counter, expiry index, sizes. ARGV: now, leaseMs, lease, bodyHash, backstopMs.
// A record is a hash: s (r running, d done), e (expiry, ms of the injected clock), h (body hash), l (lease), b (body).
const RESERVE = `
local now = tonumber(ARGV[1])
local r = redis.call('HMGET', KEYS[1], 's', 'e', 'h')
if r[1] then
  if tonumber(r[2]) > now then
    if r[1] == 'd' then return {'done', r[3], redis.call('HGET', KEYS[1], 'b')} end
    return {'running', r[3]}
  end
  local z = redis.call('HGET', KEYS[4], KEYS[1])
  if z then redis.call('DECRBY', KEYS[2], z); redis.call('HDEL', KEYS[4], KEYS[1]) end
  redis.call('ZREM', KEYS[3], KEYS[1])
  redis.call('DEL', KEYS[1])
end
redis.call('HSET', KEYS[1], 's', 'r', 'e', tostring(now + tonumber(ARGV[2])), 'h', ARGV[4], 'l', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {'reserved'}
`;

// KEYS as RESERVE. ARGV: now, lease, bodyHash, body, ttlMs, maxBytes, size, backstopMs.
// Returns -1 (too large, not kept), 0 (the lease was lost) or 1 + the records evicted to make room.
const COMPLETE = `
local now = tonumber(ARGV[1])
local r = redis.call('HMGET', KEYS[1], 's', 'l')
if r[1] ~= 'r' or r[2] ~= ARGV[2] then return 0 end
local size = tonumber(ARGV[7])
local maxBytes = tonumber(ARGV[6])
local function drop(k)
  local z = redis.call('HGET', KEYS[4], k)
  if z then redis.call('DECRBY', KEYS[2], z); redis.call('HDEL', KEYS[4], k) end
  redis.call('ZREM', KEYS[3], k)
  redis.call('DEL', k)
end
if size * 8 > maxBytes then redis.call('DEL', KEYS[1]); return -1 end
for _, k in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, 100)) do drop(k) end
local evicted = 0
while evicted < 1000 and tonumber(redis.call('GET', KEYS[2]) or '0') + size > maxBytes do
  local first = redis.call('ZRANGE', KEYS[3], 0, 0)
  if #first == 0 then break end
  drop(first[1])
  evicted = evicted + 1
end
local expires = now + tonumber(ARGV[5])
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 's', 'd', 'e', tostring(expires), 'h', ARGV[3], 'b', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[8])
redis.call('ZADD', KEYS[3], expires, KEYS[1])
redis.call('HSET', KEYS[4], KEYS[1], size)
redis.call('INCRBY', KEYS[2], size)
return 1 + evicted
`;

// KEYS: record. ARGV: lease, expiry (ms of the injected clock), backstopMs.
const EXTEND = `
local r = redis.call('HMGET', KEYS[1], 's', 'l')
if r[1] == 'r' and r[2] == ARGV[1] then
  redis.call('HSET', KEYS[1], 'e', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return 1
`;

// KEYS: record. ARGV: lease.
const RELEASE = `
local r = redis.call('HMGET', KEYS[1], 's', 'l')
if r[1] == 'r' and r[2] == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
`;

/**
 * The idempotency records on Redis: `reserve` takes a key for exactly one run across every instance that shares the
 * Redis and the prefix; a kept answer holds its expiry from `now` and is checked on read; past `maxBytes` the records
 * that expire soonest go first. When Redis cannot be reached, the router refuses idempotent calls (503 with
 * `Retry-After`, the handler not run: idempotency fails closed).
 */
export function createRedisIdempotencyStore(options: RedisIdempotencyStoreOptions): AtomicIdempotencyStore {
  const { client } = options;
  const prefix = prefixOf(options.prefix, "{collab-api}:idem:");
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const now = options.now ?? Date.now;
  const run = (script: string, keyCount: number, ...args: Array<string | number>) => evalWithin(client, options.timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS, script, keyCount, ...args);
  const keys = (key: string) => [4, `${prefix}r:${key}`, `${prefix}bytes`, `${prefix}expiry`, `${prefix}sizes`] as const;
  // Redis's own expiry is a backstop for records the index no longer reaches: well past any record's own.
  const backstop = (ms: number) => Math.max(60_000, Math.ceil(ms * 2));
  return {
    async reserve(key, bodyHash, leaseMs) {
      const lease = `${newLease()}-${Math.random().toString(36).slice(2, 10)}`;
      const r = (await run(RESERVE, ...keys(key), now(), leaseMs, lease, bodyHash, backstop(leaseMs))) as string[];
      if (r[0] === "done") return { state: "done", record: { bodyHash: r[1] ?? "", body: r[2] ?? "" } };
      if (r[0] === "running") return { state: "running", bodyHash: r[1] ?? "" };
      return { state: "reserved", lease };
    },
    async complete(key, lease, record, ttlMs, scope) {
      const size = `${prefix}r:${key}`.length + record.body.length + record.bodyHash.length;
      const r = Number(await run(COMPLETE, ...keys(key), now(), lease, record.bodyHash, record.body, ttlMs, maxBytes, size, backstop(ttlMs)));
      if (r === -1) options.onEvict?.({ scope, reason: "too-large" });
      for (let i = 1; i < r; i++) options.onEvict?.({ scope, reason: "capacity" });
    },
    async release(key, lease) {
      await run(RELEASE, 1, `${prefix}r:${key}`, lease);
    },
    async extend(key, lease, leaseMs) {
      await run(EXTEND, 1, `${prefix}r:${key}`, lease, now() + leaseMs, backstop(leaseMs));
    },
  };
}

// KEYS: bucket. ARGV: now, burst, perSecond. A token bucket: `t` tokens at `a` (ms).
const TAKE = `
local now = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local rate = tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 't', 'a')
local tokens = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
tokens = math.min(burst, tokens + (math.max(0, now - at) / 1000) * rate)
local ok = 0
if tokens >= 1 then tokens = tokens - 1; ok = 1 end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'a', tostring(math.max(now, at)))
if rate > 0 then redis.call('PEXPIRE', KEYS[1], math.ceil((burst / rate) * 1000) + 60000) else redis.call('PEXPIRE', KEYS[1], 3600000) end
return ok
`;

export interface RedisRateStoreOptions {
  client: RedisLike;
  /** Prefix of every key (default `{collab-api}:rate:`). */
  prefix?: string;
  /** Bound of one Redis call in ms (default 2,000): past it the request goes through uncounted (fail open). */
  timeoutMs?: number;
}

/**
 * The limiter's request-rate buckets on Redis, shared by every instance: `createLimiter({ requestsPerSecond, burst,
 * rateStore: createRedisRateStore({ client }) })`. When Redis cannot be reached the limiter lets requests through
 * (rate limits fail open), with one `onStoreError` per outage.
 */
export function createRedisRateStore(options: RedisRateStoreOptions): RateStore {
  const prefix = prefixOf(options.prefix, "{collab-api}:rate:");
  return {
    async take(key, now, burst, perSecond) {
      return Number(await evalWithin(options.client, options.timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS, TAKE, 1, `${prefix}${key}`, now, burst, perSecond)) === 1;
    },
  };
}
