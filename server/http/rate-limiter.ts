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
}

/**
 * One limiter per group. With Redis the counters are shared by every instance; an in-memory
 * insurance limiter answers while Redis is unreachable, so an outage degrades to per-instance
 * limits instead of failing requests.
 */
export function createRateLimiter(opts: { scale: number; redis?: Redis }): RateLimiter {
  const limiters = new Map<RateLimitGroup, RateLimiterAbstract>();
  for (const group of Object.keys(RATE_LIMIT_GROUPS) as RateLimitGroup[]) {
    const points = scaledLimit(group, opts.scale);
    const duration = RATE_LIMIT_GROUPS[group].windowSeconds;
    const keyPrefix = `svc:rl:${group}`;
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
  return {
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
