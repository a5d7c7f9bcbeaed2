import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';

/** One event counted in a fixed window. */
export interface WindowCount {
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
  /** Counts one event for `key`. */
  hit(key: string): Promise<WindowCount>;
  /** The count so far, without adding to it. */
  peek(key: string): Promise<number>;
  /** The Redis key that holds `key`'s count (under the prefix), for `read`. */
  redisKey(key: string): string;
}

export interface Counters {
  /**
   * The counters named `name` (`rl:pdf`, `signin:ip`, …): `key`'s count is the Redis key
   * `<prefix><name>:<key>`. One family per name, limit and window, however often it is asked for.
   */
  window(name: string, limit: number, windowSeconds: number): FixedWindow;
  /**
   * Reads plain keys under the prefix in the same round trip as the hits asked for in the same tick
   * (ioredis pipelines them). Undefined without Redis or when Redis did not answer.
   */
  read(keys: string[]): Promise<(string | null)[] | undefined>;
}

/**
 * Every rate limit and count of the service, in one place: rate-limiter-flexible owns the window
 * (its fixed window in Redis: a counter that expires with the window). With Redis the counts are
 * shared by every instance, and an in-memory insurance limiter answers while Redis does not, so an
 * outage degrades to per-instance counts instead of failing requests. Every key starts with
 * `prefix` (REDIS_KEY_PREFIX): deployments sharing one Redis never touch each other's counts.
 */
export function createCounters(opts: { redis?: Redis | undefined; prefix?: string | undefined }): Counters {
  const prefix = opts.prefix ?? 'svc:';
  const windows = new Map<string, FixedWindow>();
  return {
    window(name, limit, windowSeconds) {
      const id = `${name}|${limit}|${windowSeconds}`;
      let window = windows.get(id);
      if (!window) {
        window = fixedWindow(limiterFor(opts.redis, `${prefix}${name}`, limit, windowSeconds));
        windows.set(id, window);
      }
      return window;
    },
    read(keys) {
      for (const key of keys)
        if (!key.startsWith(prefix))
          return Promise.reject(new Error(`Redis key ${key} is outside REDIS_KEY_PREFIX ${prefix}`));
      if (!opts.redis || keys.length === 0) return Promise.resolve(undefined);
      return opts.redis.mget(keys).catch(() => undefined);
    },
  };
}

function limiterFor(redis: Redis | undefined, keyPrefix: string, points: number, duration: number) {
  const memory = new RateLimiterMemory({ points, duration, keyPrefix });
  if (!redis) return memory;
  return new RateLimiterRedis({ storeClient: redis, points, duration, keyPrefix, insuranceLimiter: memory });
}

function fixedWindow(limiter: RateLimiterAbstract): FixedWindow {
  const limit = limiter.points;
  const count = (res: RateLimiterRes, allowed: boolean): WindowCount => ({
    consumed: res.consumedPoints,
    limit,
    remaining: allowed ? res.remainingPoints : 0,
    resetMs: res.msBeforeNext,
    allowed,
  });
  return {
    limit,
    windowSeconds: limiter.duration,
    hit(key) {
      return limiter.consume(key).then(
        (res) => count(res, true),
        // rate-limiter-flexible rejects with the count itself when the window is full.
        (refusal) => {
          if (refusal instanceof RateLimiterRes) return count(refusal, false);
          throw refusal;
        },
      );
    },
    async peek(key) {
      return (await limiter.get(key))?.consumedPoints ?? 0;
    },
    redisKey: (key) => limiter.getKey(key),
  };
}
