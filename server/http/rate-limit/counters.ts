import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/** One event counted in a fixed window. */
interface WindowCount {
  /** Events in the window so far, this one included. */
  consumed: number;
  limit: number;
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
  /** False once the window holds more than `limit` events. */
  allowed: boolean;
}

/** A family of fixed-window counters, one per key (a client, an address, a license). */
export interface FixedWindow {
  readonly limit: number;
  readonly windowSeconds: number;
  /**
   * Counts one event for `key`. `reads` names plain Redis keys (under the prefix) to read in the
   * same round trip: their values come back as `reads`, which is undefined without Redis or when
   * Redis did not answer (the count then came from this instance alone). `also` names further
   * windows (another family's `redisKey` and its window) that count this event too, in the same
   * round trip: their counts come back as `also`, undefined on the same terms as `reads`.
   */
  hit(
    key: string,
    reads?: string[],
    also?: { redisKey: string; windowSeconds: number }[],
  ): Promise<WindowCount & { reads?: (string | null)[]; also?: number[] }>;
  /** The count so far, without adding to it. */
  peek(key: string): Promise<number>;
  /** The Redis key that holds `key`'s count (under the prefix), for another hit's `reads`. */
  redisKey(key: string): string;
}

export interface Counters {
  /**
   * The counters named `name` (`rl:pdf`, `signin:ip`, …): `key`'s count is the Redis key
   * `<prefix><name>:<key>`. One family per name, limit and window, however often it is asked for.
   */
  window(name: string, limit: number, windowSeconds: number): FixedWindow;
}

/**
 * The fixed window in Redis, as rate-limiter-flexible keeps it (same key, same commands: the
 * counter is created with the window's expiry, then incremented), plus further windows counting
 * the same event and the values of further keys, all in one round trip: KEYS = counter, also…,
 * read…; ARGV = window seconds, the number of also-windows, each one's window seconds; returns
 * the count, its time to live in ms, each also-window's count, then each read's value.
 */
export const HIT_SCRIPT = `local function count(key, seconds)
  redis.call('set', key, 0, 'EX', seconds, 'NX')
  local consumed = redis.call('incr', key)
  local ttl = redis.call('pttl', key)
  if ttl == -1 then
    redis.call('expire', key, seconds)
    ttl = 1000 * seconds
  end
  return consumed, ttl
end
local consumed, ttl = count(KEYS[1], ARGV[1])
local result = {consumed, ttl}
local also = tonumber(ARGV[2] or 0)
for i = 2, also + 1 do result[#result + 1] = (count(KEYS[i], ARGV[i + 1])) end
for i = also + 2, #KEYS do result[#result + 1] = redis.call('get', KEYS[i]) or false end
return result`;

type HitRedis = Redis & {
  svcHit(
    numberOfKeys: number,
    ...keysThenArgs: (string | number)[]
  ): Promise<[number, number, ...(string | number | null)[]]>;
};

/**
 * Every rate limit and count of the service, in one place and one shape: a fixed window per key.
 * With Redis the window lives there (one script call per event, shared by every instance); while
 * Redis does not answer, rate-limiter-flexible's in-memory limiter counts on this instance instead,
 * so an outage degrades to per-instance counts rather than failing requests (fail open). Without
 * Redis that in-memory limiter is the window. Every key starts with `prefix` (REDIS_KEY_PREFIX):
 * deployments sharing one Redis never touch each other's counts.
 */
export function createCounters(opts: { redis?: Redis | undefined; prefix?: string | undefined }): Counters {
  const prefix = opts.prefix ?? 'svc:';
  const redis = opts.redis && withHitCommand(opts.redis);
  const windows = new Map<string, FixedWindow>();
  return {
    window(name, limit, windowSeconds) {
      const id = `${name}|${limit}|${windowSeconds}`;
      let window = windows.get(id);
      if (!window) {
        window = fixedWindow({ redis, prefix, keyPrefix: `${prefix}${name}`, limit, windowSeconds });
        windows.set(id, window);
      }
      return window;
    },
  };
}

function withHitCommand(redis: Redis): HitRedis {
  if (!('svcHit' in redis)) redis.defineCommand('svcHit', { lua: HIT_SCRIPT });
  return redis as HitRedis;
}

function fixedWindow(opts: {
  redis: HitRedis | undefined;
  prefix: string;
  keyPrefix: string;
  limit: number;
  windowSeconds: number;
}): FixedWindow {
  const { redis, prefix, limit, windowSeconds } = opts;
  const memory = new RateLimiterMemory({ points: limit, duration: windowSeconds, keyPrefix: opts.keyPrefix });
  const counted = (consumed: number, resetMs: number): WindowCount => {
    const allowed = consumed <= limit;
    return { consumed, limit, remaining: allowed ? limit - consumed : 0, resetMs, allowed };
  };
  const inMemory = (key: string) =>
    memory.consume(key).then(
      (res) => counted(res.consumedPoints, res.msBeforeNext),
      // rate-limiter-flexible rejects with the count itself when the window is full.
      (refusal) => {
        if (refusal instanceof RateLimiterRes) return counted(refusal.consumedPoints, refusal.msBeforeNext);
        throw refusal;
      },
    );
  const redisKey = (key: string) => memory.getKey(key);
  return {
    limit,
    windowSeconds,
    hit(key, reads = [], also = []) {
      for (const read of reads)
        if (!read.startsWith(prefix))
          return Promise.reject(new Error(`Redis key ${read} is outside REDIS_KEY_PREFIX ${prefix}`));
      for (const { redisKey: counted } of also)
        if (!counted.startsWith(prefix))
          return Promise.reject(new Error(`Redis key ${counted} is outside REDIS_KEY_PREFIX ${prefix}`));
      if (!redis) return inMemory(key);
      // Without further windows (every request but a warm embed session) the call is as it was.
      const call =
        also.length === 0
          ? redis.svcHit(1 + reads.length, redisKey(key), ...reads, windowSeconds)
          : redis.svcHit(
              1 + also.length + reads.length,
              redisKey(key),
              ...also.map((a) => a.redisKey),
              ...reads,
              windowSeconds,
              also.length,
              ...also.map((a) => a.windowSeconds),
            );
      return call.then(
        ([consumed, ttl, ...values]) => {
          const count: WindowCount & { reads?: (string | null)[]; also?: number[] } = counted(
            Number(consumed),
            Number(ttl),
          );
          if (also.length === 0) count.reads = values as (string | null)[];
          else {
            count.also = values.slice(0, also.length).map(Number);
            count.reads = values.slice(also.length) as (string | null)[];
          }
          return count;
        },
        // Redis did not answer: this instance counts alone until it does.
        () => inMemory(key),
      );
    },
    async peek(key) {
      if (redis) {
        try {
          return Number((await redis.get(redisKey(key))) ?? 0);
        } catch {
          // As for hit: this instance's own count.
        }
      }
      return (await memory.get(key))?.consumedPoints ?? 0;
    },
    redisKey,
  };
}
