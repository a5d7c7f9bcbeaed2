import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createFixedClock } from '../../lib/clock.ts';
import { needs } from '../../test-support/needs.ts';
import { createViewLedger } from './view-ledger.ts';

const PAGE = 'https://smithlaw.com/estate-planning';

describe('the view ledger in memory', () => {
  it('says first once per session, calculator and page, again after the token lifetime', async () => {
    const clock = createFixedClock('2026-03-01T12:00:00Z');
    const ledger = createViewLedger({ clock, ttlMs: 600_000 });
    expect(await ledger.first('sid_a', 'rmd', PAGE)).toBe(true);
    expect(await ledger.first('sid_a', 'rmd', PAGE)).toBe(false);
    expect(await ledger.first('sid_a', 'estate-tax', PAGE)).toBe(true);
    expect(await ledger.first('sid_a', 'rmd', 'https://smithlaw.com/contact')).toBe(true);
    expect(await ledger.first('sid_b', 'rmd', PAGE)).toBe(true);
    clock.advance(599_999);
    expect(await ledger.first('sid_a', 'rmd', PAGE)).toBe(false);
    clock.advance(1);
    expect(await ledger.first('sid_a', 'rmd', PAGE)).toBe(true);
  });

  it('forgets the oldest entry past its size, never growing beyond it', async () => {
    const clock = createFixedClock('2026-03-01T12:00:00Z');
    const ledger = createViewLedger({ clock, maxEntries: 2 });
    for (const sid of ['s1', 's2', 's3']) expect(await ledger.first(sid, 'rmd', PAGE)).toBe(true);
    // s1 went to make room (it could count again); s2 and s3 are remembered.
    expect(await ledger.first('s3', 'rmd', PAGE)).toBe(false);
    expect(await ledger.first('s1', 'rmd', PAGE)).toBe(true);
  });

  it('decides on this instance while Redis does not answer', async () => {
    // Nothing listens on port 1; with the offline queue off every command fails at once.
    const down = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    const ledger = createViewLedger({ clock: createFixedClock('2026-03-01T12:00:00Z'), redis: down });
    expect(await ledger.first('sid_a', 'rmd', PAGE)).toBe(true);
    expect(await ledger.first('sid_a', 'rmd', PAGE)).toBe(false);
    down.disconnect();
  });
});

needs('redis').describe('the view ledger in the shared Redis (Redis)', () => {
  const redis = new Redis(process.env.REDIS_URL ?? '', { lazyConnect: true, maxRetriesPerRequest: 1 });
  const prefix = `svc-views-${randomBytes(6).toString('hex')}:`;
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('two instances: the first to see a widget counts it, the other does not; one key per widget, hashed', async () => {
    const clock = createFixedClock('2026-03-01T12:00:00Z');
    const a = createViewLedger({ clock, redis, prefix });
    const b = createViewLedger({ clock, redis, prefix });
    expect(await a.first('sid_secret', 'rmd', PAGE)).toBe(true);
    expect(await b.first('sid_secret', 'rmd', PAGE)).toBe(false);
    expect(await b.first('sid_secret', 'rmd', PAGE)).toBe(false);
    expect(await b.first('sid_secret', 'rmd', 'https://smithlaw.com/contact')).toBe(true);
    expect(await a.first('sid_secret', 'rmd', 'https://smithlaw.com/contact')).toBe(false);
    const keys = await redis.keys(`${prefix}*`);
    expect(keys).toHaveLength(2);
    expect(keys.join()).not.toContain('sid_secret');
    const ttl = await redis.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThanOrEqual(600_000);
  });
});
