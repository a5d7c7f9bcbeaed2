import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { needs } from '../../test-support/needs.ts';
import { createCounters } from './counters.ts';
import { createRateLimiter } from './rate-limiter.ts';
import { createSignInLimiter } from './sign-in-limiter.ts';

describe('fixed-window counters', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    vi.setSystemTime(new Date('2026-03-01T12:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('allow the limit per window, refuse past it with the time to reset, reopen after it', async () => {
    const window = createCounters({}).window('rl:test', 2, 60);
    expect(await window.hit('a')).toEqual({
      consumed: 1,
      limit: 2,
      remaining: 1,
      resetMs: 60_000,
      allowed: true,
    });
    vi.advanceTimersByTime(15_000);
    expect(await window.hit('a')).toMatchObject({ consumed: 2, remaining: 0, allowed: true });
    expect(await window.hit('a')).toEqual({
      consumed: 3,
      limit: 2,
      remaining: 0,
      resetMs: 45_000,
      allowed: false,
    });
    expect(await window.peek('a')).toBe(3);
    expect((await window.hit('b')).allowed).toBe(true);
    vi.advanceTimersByTime(45_001);
    expect(await window.hit('a')).toMatchObject({ consumed: 1, allowed: true });
  });

  it('are one family per name, limit and window', () => {
    const counters = createCounters({ prefix: 'p:' });
    expect(counters.window('x', 1, 60)).toBe(counters.window('x', 1, 60));
    expect(counters.window('x', 2, 60)).not.toBe(counters.window('x', 1, 60));
    expect(counters.window('x', 1, 60).redisKey('k')).toBe('p:x:k');
  });

  it('read nothing outside the prefix', async () => {
    await expect(
      createCounters({ prefix: 'p:' }).window('x', 1, 60).hit('k', ['q:cache:epoch']),
    ).rejects.toThrow(/outside/);
  });

  it('count on this instance while Redis does not answer, and say so to a reader', async () => {
    // Nothing listens on port 1; with the offline queue off every command fails at once.
    const down = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    const window = createCounters({ redis: down, prefix: 'p:' }).window('rl:test', 1, 60);
    const first = await window.hit('a', ['p:cache:epoch']);
    expect(first).toMatchObject({ consumed: 1, allowed: true });
    expect(first.reads).toBeUndefined();
    expect(await window.hit('a')).toMatchObject({ consumed: 2, allowed: false, resetMs: 60_000 });
    expect(await window.peek('a')).toBe(2);
    down.disconnect();
  });
});

needs('redis').describe('counters in the shared Redis (Redis)', () => {
  const redis = new Redis(process.env.REDIS_URL ?? '', { lazyConnect: true, maxRetriesPerRequest: 1 });
  const prefix = `svc-counters-${randomBytes(6).toString('hex')}:`;
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('every key the rate limits and sign-in limits write starts with REDIS_KEY_PREFIX', async () => {
    // A marker in every key we ask for: afterwards, any key in the whole Redis that carries it and
    // does not start with the prefix was written outside it.
    const marker = `m${randomBytes(6).toString('hex')}`;
    const coherence = { epochKey: `${prefix}cache:epoch`, observe: vi.fn(), unreachable: vi.fn() };
    const limiter = createRateLimiter({ scale: 1, redis, prefix, coherence });
    const signIn = createSignInLimiter({ scale: 1, redis, prefix });
    const watch = { name: 'license-sessions', key: `sessions:${marker}`, windowSeconds: 60 };
    for (const group of ['activation', 'calculations', 'pdf', 'leads', 'default', 'tight'] as const)
      await limiter.consume(group, `ip:${marker}`, watch);
    await limiter.count(watch.name, watch.key, watch.windowSeconds);
    await limiter.peek('leads-per-day', `license:${marker}`, 86_400);
    await signIn.consume({ ip: marker, email: `${marker}@firm.example` });
    expect(await signIn.mayMail(`${marker}@firm.example`)).toBe(true);

    const written: string[] = [];
    for await (const keys of redis.scanStream({ match: `*${marker}*`, count: 1000 })) written.push(...keys);
    expect(written.filter((k) => !k.startsWith(prefix))).toEqual([]);
    expect(written.sort()).toEqual(
      [
        ...['activation', 'calculations', 'pdf', 'leads', 'default', 'tight'].map(
          (g) => `rl:${g}:ip:${marker}`,
        ),
        `count:license-sessions:60:sessions:${marker}`,
        `signin:ip:${marker}`,
        `signin:emailClient:${marker}@firm.example|${marker}`,
        `signin:mail:${marker}@firm.example`,
      ]
        .map((k) => `${prefix}${k}`)
        .sort(),
    );
    expect(coherence.unreachable).not.toHaveBeenCalled();
  });

  it('two instances share one window', async () => {
    const one = createCounters({ redis, prefix }).window('rl:shared', 2, 60);
    const two = createCounters({ redis, prefix }).window('rl:shared', 2, 60);
    expect((await one.hit('k')).allowed).toBe(true);
    expect((await two.hit('k')).allowed).toBe(true);
    const third = await one.hit('k');
    expect(third).toMatchObject({ consumed: 3, allowed: false, remaining: 0, limit: 2 });
    expect(third.resetMs).toBeGreaterThan(58_000);
    expect(await two.peek('k')).toBe(3);
    // Other keys read in the count's own round trip, as another instance left them.
    await redis.set(`${prefix}cache:epoch`, 'e7');
    const fourth = await two.hit('k', [`${prefix}cache:epoch`, one.redisKey('k'), `${prefix}absent`]);
    expect(fourth.reads).toEqual(['e7', '4', null]);
  });
});
