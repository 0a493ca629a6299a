import { DEFAULT_REDIS_TIMEOUT_MS, type RedisLike, evalWithin, prefixOf } from "../shared/redis.js";
import type { BucketStore } from "./limits.js";

/**
 * The throttle's counter on Redis, so that several workers calling one portal share one bucket. Import from
 * `…-client/redis`: no main or area entry imports this file, so browser bundles never see it.
 */
export type { RedisLike } from "../shared/redis.js";

// KEYS: counter. ARGV: now, burst, drainPerSecond. A leaky bucket: level `l` at `a` (ms); returns the wait in ms.
const TAKE = `
local now = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local drain = tonumber(ARGV[3])
local c = redis.call('HMGET', KEYS[1], 'l', 'a')
local level = 0
local at = now
if c[1] then
  at = math.max(now, tonumber(c[2]))
  level = math.max(0, tonumber(c[1]) - (math.max(0, now - tonumber(c[2])) / 1000) * drain)
end
level = level + 1
redis.call('HSET', KEYS[1], 'l', tostring(level), 'a', tostring(at))
if drain > 0 then redis.call('PEXPIRE', KEYS[1], math.ceil((level / drain) * 1000) + 60000) else redis.call('PEXPIRE', KEYS[1], 3600000) end
if level <= burst then return 0 end
if drain <= 0 then return 3600000 end
return math.ceil(((level - burst) / drain) * 1000)
`;

const GIVE = `
local l = tonumber(redis.call('HGET', KEYS[1], 'l') or '0')
if l > 0 then redis.call('HSET', KEYS[1], 'l', tostring(math.max(0, l - 1))) end
return 1
`;

export interface RedisBucketOptions {
  /** A client you made (ioredis `new Redis(…)`): connection, TLS and retries are yours. */
  client: RedisLike;
  /** Prefix of every key (default `{collab-api}:throttle:`). */
  prefix?: string;
  /** Bound of one Redis call in ms (default 2,000): past it the request goes out unthrottled (fail open). */
  timeoutMs?: number;
  /** Told once per outage; meanwhile requests go out unthrottled (the throttle fails open). */
  onError?: (err: unknown) => void;
}

/** A `BucketStore` on Redis: `createClient({ …, throttle: { ...THROTTLE_PRESETS.standard, store: redisBucket({ client }) } })`. */
export function redisBucket(options: RedisBucketOptions): BucketStore {
  const prefix = prefixOf(options.prefix, "{collab-api}:throttle:");
  const timeoutMs = options.timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
  let down = false;
  const failed = (err: unknown) => {
    if (!down) options.onError?.(err);
    down = true;
  };
  return {
    async take(key, now, burst, drainPerSecond) {
      try {
        const wait = Number(await evalWithin(options.client, timeoutMs, TAKE, 1, `${prefix}${key}`, now, burst, drainPerSecond));
        down = false;
        return Number.isFinite(wait) && wait > 0 ? wait : 0;
      } catch (err) {
        failed(err);
        return 0;
      }
    },
    give(key) {
      evalWithin(options.client, timeoutMs, GIVE, 1, `${prefix}${key}`).catch(failed);
    },
  };
}
