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

/** A `count` counter another decision depends on (a license's sessions this minute). */
export interface WatchedCounter {
  name: string;
  key: string;
  windowSeconds: number;
}

export interface RateLimiter {
  /**
   * Counts one request of `group` for `key`. With `watch`, the decision also says what that
   * counter stands at (`watched`), read in the same Redis round trip.
   */
  consume(
    group: RateLimitGroup,
    key: string,
    watch?: WatchedCounter,
  ): Promise<RateDecision & { watched?: number }>;
  /** Counts one event of `name` for `key` in a fixed window; returns the count so far in it. */
  count(name: string, key: string, windowSeconds: number): Promise<number>;
  /** The current count without adding to it. */
  peek(name: string, key: string, windowSeconds: number): Promise<number>;
}

/**
 * rate-limiter-flexible's fixed window (same key, same counting), plus the lookup caches' epoch
 * read in the same round trip: KEYS = counter, epoch[, watched counter]; ARGV = points, window
 * seconds. Returns the count, its TTL, the epoch and (with a third key) the watched count.
 */
const CONSUME_WITH_EPOCH = `redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX')
local consumed = redis.call('incrby', KEYS[1], ARGV[1])
local ttl = redis.call('pttl', KEYS[1])
if ttl == -1 then
  redis.call('expire', KEYS[1], ARGV[2])
  ttl = 1000 * ARGV[2]
end
local epoch = redis.call('get', KEYS[2])
local watched = 0
if #KEYS > 2 then watched = tonumber(redis.call('get', KEYS[3]) or '0') or 0 end
return {consumed, ttl, epoch or false, watched}`;

type EpochRedis = Redis & {
  svcConsumeWithEpoch(
    numberOfKeys: number,
    ...keysThenArgs: (string | number)[]
  ): Promise<[number, number, string | null, number]>;
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
  const peek = async (name: string, key: string, windowSeconds: number) =>
    (await counter(name, windowSeconds).get(key))?.consumedPoints ?? 0;
  return {
    async count(name, key, windowSeconds) {
      return (await counter(name, windowSeconds).consume(key)).consumedPoints;
    },
    peek,
    async consume(group, key, watch) {
      const limiter = limiters.get(group)!;
      const limit = limiter.points;
      if (epochRedis && opts.coherence) {
        const watchedKey = watch && counter(watch.name, watch.windowSeconds).getKey(watch.key);
        const counted = await consumeWithEpoch(epochRedis, opts.coherence, limiter, key, watchedKey);
        if (counted) {
          const [consumed, ttl, watched] = counted;
          const allowed = consumed <= limit;
          return {
            group,
            limit,
            remaining: allowed ? limit - consumed : 0,
            resetMs: ttl,
            allowed,
            ...(watch ? { watched } : {}),
          };
        }
      }
      const decision = await consumeOnce(group, limiter, key);
      if (!watch) return decision;
      return { ...decision, watched: await peek(watch.name, watch.key, watch.windowSeconds) };
    },
  };
}

async function consumeOnce(
  group: RateLimitGroup,
  limiter: RateLimiterAbstract,
  key: string,
): Promise<RateDecision> {
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
}

function withEpochCommand(redis: Redis): EpochRedis {
  if (!('svcConsumeWithEpoch' in redis))
    redis.defineCommand('svcConsumeWithEpoch', { lua: CONSUME_WITH_EPOCH });
  return redis as EpochRedis;
}

/**
 * The count, the epoch and the watched count in one round trip; undefined (and the caches told)
 * when Redis failed.
 */
async function consumeWithEpoch(
  redis: EpochRedis,
  coherence: CacheCoherence & { epochKey: string },
  limiter: RateLimiterAbstract,
  key: string,
  watchedKey: string | undefined,
): Promise<[number, number, number] | undefined> {
  try {
    const keys = [limiter.getKey(key), coherence.epochKey, ...(watchedKey ? [watchedKey] : [])];
    const [consumed, ttl, epoch, watched] = await redis.svcConsumeWithEpoch(
      keys.length,
      ...keys,
      1,
      limiter.duration,
    );
    coherence.observe(epoch || null);
    return [Number(consumed), Number(ttl), Number(watched)];
  } catch {
    coherence.unreachable();
    return undefined;
  }
}
