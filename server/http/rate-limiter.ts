import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { RATE_LIMIT_GROUPS, type RateLimitGroup, scaledLimit } from './rate-limit-groups.ts';

export interface RateDecision {
  group: RateLimitGroup;
  limit: number;
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
  allowed: boolean;
}

export interface RateLimiter {
  consume(group: RateLimitGroup, key: string): Promise<RateDecision>;
  /** Counts one event of `name` for `key` in a fixed window; returns the count so far in it. */
  count(name: string, key: string, windowSeconds: number): Promise<number>;
  /** The current count without adding to it. */
  peek(name: string, key: string, windowSeconds: number): Promise<number>;
}

/**
 * One limiter per group. With Redis the counters are shared by every instance; an in-memory
 * insurance limiter answers while Redis is unreachable, so an outage degrades to per-instance
 * limits instead of failing requests.
 */
export function createRateLimiter(opts: { scale: number; redis?: Redis; prefix?: string }): RateLimiter {
  const prefix = opts.prefix ?? 'svc:';
  const limiters = new Map<RateLimitGroup, RateLimiterAbstract>();
  for (const group of Object.keys(RATE_LIMIT_GROUPS) as RateLimitGroup[]) {
    const points = scaledLimit(group, opts.scale);
    const duration = RATE_LIMIT_GROUPS[group].windowSeconds;
    const keyPrefix = `${prefix}rl:${group}`;
    const memory = new RateLimiterMemory({ points, duration, keyPrefix });
    limiters.set(
      group,
      opts.redis
        ? new RateLimiterRedis({
            storeClient: opts.redis,
            points,
            duration,
            keyPrefix,
            insuranceLimiter: memory,
          })
        : memory,
    );
  }
  const counters = new Map<string, RateLimiterAbstract>();
  const counter = (name: string, duration: number) => {
    const id = `${name}:${duration}`;
    let limiter = counters.get(id);
    if (!limiter) {
      const options = { points: Number.MAX_SAFE_INTEGER, duration, keyPrefix: `${prefix}count:${id}` };
      const memory = new RateLimiterMemory(options);
      limiter = opts.redis
        ? new RateLimiterRedis({ ...options, storeClient: opts.redis, insuranceLimiter: memory })
        : memory;
      counters.set(id, limiter);
    }
    return limiter;
  };
  return {
    async count(name, key, windowSeconds) {
      return (await counter(name, windowSeconds).consume(key)).consumedPoints;
    },
    async peek(name, key, windowSeconds) {
      return (await counter(name, windowSeconds).get(key))?.consumedPoints ?? 0;
    },
    async consume(group, key) {
      const limiter = limiters.get(group)!;
      const limit = limiter.points;
      try {
        const res = await limiter.consume(key);
        return { group, limit, remaining: res.remainingPoints, resetMs: res.msBeforeNext, allowed: true };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          return { group, limit, remaining: 0, resetMs: rejection.msBeforeNext, allowed: false };
        }
        throw rejection;
      }
    },
  };
}
