import type { Redis } from 'ioredis';
import type { CacheCoherence } from '../../domain/caches/lookup-caches.ts';
import { createCounters } from './counters.ts';
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
   * counter stands at (`watched`), read in the same Redis round trip. With `also`, that counter
   * counts the request too, in the same round trip, and the decision says its new count (`also`).
   */
  consume(
    group: RateLimitGroup,
    key: string,
    watch?: WatchedCounter,
    also?: WatchedCounter,
  ): Promise<RateDecision & { watched?: number; also?: number }>;
  /** Counts one event of `name` for `key` in a fixed window; returns the count so far in it. */
  count(name: string, key: string, windowSeconds: number): Promise<number>;
  /** The current count without adding to it. */
  peek(name: string, key: string, windowSeconds: number): Promise<number>;
}

/**
 * One limiter per group, on the service's counters (`counters.ts`: shared through Redis when there
 * is one, per instance while it does not answer). With `coherence` each group count also reads the
 * lookup caches' epoch in the same round trip (and reports a round trip that failed), so a write on
 * any instance reaches this one's caches before the request is authenticated for good.
 */
export function createRateLimiter(opts: {
  scale: number;
  redis?: Redis;
  prefix?: string;
  coherence?: CacheCoherence & { epochKey: string };
}): RateLimiter {
  const counters = createCounters({ redis: opts.redis, prefix: opts.prefix });
  const groups = new Map(
    (Object.keys(RATE_LIMIT_GROUPS) as RateLimitGroup[]).map((name) => [
      name,
      counters.window(`rl:${name}`, scaledLimit(name, opts.scale), RATE_LIMIT_GROUPS[name].windowSeconds),
    ]),
  );
  const counter = (name: string, windowSeconds: number) =>
    counters.window(`count:${name}:${windowSeconds}`, Number.MAX_SAFE_INTEGER, windowSeconds);
  const peek = (name: string, key: string, windowSeconds: number) => counter(name, windowSeconds).peek(key);
  const coherence = opts.redis ? opts.coherence : undefined;
  return {
    async count(name, key, windowSeconds) {
      return (await counter(name, windowSeconds).hit(key)).consumed;
    },
    peek,
    async consume(name, key, watch, also) {
      const window = groups.get(name)!;
      const watchedKey = coherence && watch && counter(watch.name, watch.windowSeconds).redisKey(watch.key);
      const alsoWindow = also && counter(also.name, also.windowSeconds);
      const count = await window.hit(
        key,
        coherence ? [coherence.epochKey, ...(watchedKey ? [watchedKey] : [])] : undefined,
        alsoWindow
          ? [{ redisKey: alsoWindow.redisKey(also.key), windowSeconds: also.windowSeconds }]
          : undefined,
      );
      if (coherence) {
        if (count.reads) coherence.observe(count.reads[0] ?? null);
        else coherence.unreachable();
      }
      const decision: RateDecision = {
        group: name,
        limit: count.limit,
        remaining: count.remaining,
        resetMs: count.resetMs,
        allowed: count.allowed,
      };
      const extra: { watched?: number; also?: number } = {};
      // Without Redis, or when it did not answer, the also-counter counts on its own (in memory).
      if (alsoWindow) extra.also = count.also?.[0] ?? (await alsoWindow.hit(also.key)).consumed;
      if (watch)
        extra.watched =
          count.reads && watchedKey
            ? Number(count.reads[1] ?? 0)
            : await peek(watch.name, watch.key, watch.windowSeconds);
      return watch || alsoWindow ? { ...decision, ...extra } : decision;
    },
  };
}
