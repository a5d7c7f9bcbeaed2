import { describe, expect, it } from 'vitest';
import { createFixedClock } from '../../lib/clock.ts';
import { CACHE_MAX_AGE_MS, cacheModeOf, createLookupCaches } from './lookup-caches.ts';

const clock = () => createFixedClock('2026-03-01T12:00:00Z');

describe('lookup caches', () => {
  it.each([
    [{}, 'local'],
    [{ DATABASE_URL: 'postgresql://x/y' }, 'off'],
    [{ DATABASE_URL: 'postgresql://x/y', REDIS_URL: 'redis://x' }, 'shared'],
  ] as const)('mode for %o is %s', (config, mode) => {
    expect(cacheModeOf(config)).toBe(mode);
  });

  it('keeps a loaded value, and drops everything on invalidate', async () => {
    const caches = createLookupCaches({ mode: 'local', clock: clock() });
    let loads = 0;
    const load = async () => ++loads;
    expect(await caches.lookup('license', 'a', load)).toBe(1);
    expect(await caches.lookup('license', 'a', load)).toBe(1);
    await caches.invalidate();
    expect(await caches.lookup('license', 'a', load)).toBe(2);
  });

  it('does not keep a value whose load was running when a write invalidated', async () => {
    const caches = createLookupCaches({ mode: 'local', clock: clock() });
    let release!: () => void;
    const slow = caches.lookup(
      'license',
      'a',
      () => new Promise<string>((r) => (release = () => r('stale'))),
    );
    await caches.invalidate();
    release();
    expect(await slow).toBe('stale');
    expect(await caches.lookup('license', 'a', async () => 'fresh')).toBe('fresh');
  });

  it('never keeps undefined, ends entries at `until` and at the longest age, and stays bounded', async () => {
    const c = clock();
    const caches = createLookupCaches({ mode: 'local', clock: c, maxEntries: 2 });
    let loads = 0;
    expect(await caches.lookup('token', 'none', async () => undefined)).toBeUndefined();
    await caches.lookup(
      'token',
      'short',
      async () => ++loads,
      () => c.now().getTime() + 1000,
    );
    c.advance(1000);
    await caches.lookup('token', 'short', async () => ++loads);
    expect(loads).toBe(2);
    await caches.lookup('account', 'x', async () => ++loads);
    c.advance(CACHE_MAX_AGE_MS);
    await caches.lookup('account', 'x', async () => ++loads);
    expect(loads).toBe(4);
    for (const k of ['p', 'q', 'r']) await caches.lookup('account', k, async () => k);
    let reloaded = false;
    await caches.lookup('account', 'p', async () => {
      reloaded = true;
      return 'p';
    });
    expect(reloaded).toBe(true);
  });

  it('shared: bypassed until an epoch is read, dropped when it changes, bypassed while Redis fails', async () => {
    const caches = createLookupCaches({ mode: 'shared', clock: clock() });
    let loads = 0;
    const load = async () => ++loads;
    await caches.lookup('license', 'a', load);
    await caches.lookup('license', 'a', load);
    expect(loads).toBe(2);
    caches.observe(null);
    await caches.lookup('license', 'a', load);
    await caches.lookup('license', 'a', load);
    expect(loads).toBe(3);
    caches.observe('epoch-2');
    await caches.lookup('license', 'a', load);
    expect(loads).toBe(4);
    const generation = caches.generation();
    caches.unreachable();
    expect(caches.generation()).toBeGreaterThan(generation);
    await caches.lookup('license', 'a', load);
    await caches.lookup('license', 'a', load);
    expect(loads).toBe(6);
  });

  it('off: never caches', async () => {
    const caches = createLookupCaches({ mode: 'off', clock: clock() });
    caches.observe('x');
    let loads = 0;
    await caches.lookup('license', 'a', async () => ++loads);
    await caches.lookup('license', 'a', async () => ++loads);
    expect(loads).toBe(2);
  });
});
