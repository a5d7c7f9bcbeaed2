import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { CacheCoherence } from '../domain/caches/lookup-caches.ts';
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
 * rate-limiter-flexible's fixed window (same key, same counting), plus the lookup caches' epoch
 * read in the same round trip: KEYS = counter, epoch; ARGV = points, window seconds.
 */
const CONSUME_WITH_EPOCH = `redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX')
local consumed = redis.call('incrby', KEYS[1], ARGV[1])
local ttl = redis.call('pttl', KEYS[1])
if ttl == -1 then
  redis.call('expire', KEYS[1], ARGV[2])
  ttl = 1000 * ARGV[2]
end
return {consumed, ttl, redis.call('get', KEYS[2])}`;

type EpochRedis = Redis & {
  svcConsumeWithEpoch(
    counter: string,
    epochKey: string,
    points: number,
    seconds: number,
  ): Promise<[number, number, string | null]>;
};

/**
 * One limiter per group. With Redis the counters are shared by every instance; an in-memory
 * insurance limiter answers while Redis is unreachable, so an outage degrades to per-instance
 * limits instead of failing requests. With `coherence` each group count also reads the lookup
 * caches' epoch in its round trip (and reports a failed round trip), so a write on any instance
 * reaches this one's caches before the request is authenticated for good.
 */
export function createRateLimiter(opts: {
  scale: number;
  redis?: Redis;
  prefix?: string;
  coherence?: CacheCoherence & { epochKey: string };
}): RateLimiter {
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
  const epochRedis = opts.redis && opts.coherence ? withEpochCommand(opts.redis) : undefined;
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
      if (epochRedis && opts.coherence) {
        const counted = await consumeWithEpoch(epochRedis, opts.coherence, limiter, key);
        if (counted) {
          const [consumed, ttl] = counted;
          const allowed = consumed <= limit;
          return { group, limit, remaining: allowed ? limit - consumed : 0, resetMs: ttl, allowed };
        }
      }
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

function withEpochCommand(redis: Redis): EpochRedis {
  if (!('svcConsumeWithEpoch' in redis))
    redis.defineCommand('svcConsumeWithEpoch', { numberOfKeys: 2, lua: CONSUME_WITH_EPOCH });
  return redis as EpochRedis;
}

/** The count and the epoch in one round trip; undefined (and the caches told) when Redis failed. */
async function consumeWithEpoch(
  redis: EpochRedis,
  coherence: CacheCoherence & { epochKey: string },
  limiter: RateLimiterAbstract,
  key: string,
): Promise<[number, number] | undefined> {
  try {
    const [consumed, ttl, epoch] = await redis.svcConsumeWithEpoch(
      limiter.getKey(key),
      coherence.epochKey,
      1,
      limiter.duration,
    );
    coherence.observe(epoch);
    return [Number(consumed), Number(ttl)];
  } catch {
    coherence.unreachable();
    return undefined;
  }
}
