import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Clock } from '../../lib/clock.ts';

/**
 * What the caches may be trusted for:
 * - `local`: one process owns the data (embedded PGlite, held by the data-dir lock); a write in
 *   this process drops the entries at once.
 * - `shared`: several instances behind one Redis. A write sets a new epoch in Redis; every request
 *   reads the epoch in the same Redis round trip as its rate-limit count and drops the entries when
 *   it changed. While Redis cannot be reached nothing is cached (a missed epoch would go unseen).
 * - `off`: PostgreSQL without Redis; other instances may write unseen, so nothing is cached.
 */
export type CacheMode = 'local' | 'shared' | 'off';

const CACHE_NAMES = [
  'token',
  'license',
  'license-key',
  'publishable-key',
  'activation',
  'family',
  'seats',
  'api-key',
  'account',
  'consent',
  'result-subscribers',
  'mcp-grant',
] as const;
export type CacheName = (typeof CACHE_NAMES)[number];

/** Told by the rate limiter what each Redis round trip said about the epoch. */
export interface CacheCoherence {
  /** The epoch read in this request's rate-limit round trip (`null` when none was ever written). */
  observe(epoch: string | null): void;
  /** The round trip failed: drop everything and bypass until an epoch is read again. */
  unreachable(): void;
}

export interface LookupCaches extends CacheCoherence {
  readonly mode: CacheMode;
  /** The Redis key holding the epoch (shared mode). */
  readonly epochKey: string;
  /** Changes whenever entries are dropped: a principal verified before then is verified again. */
  generation(): number;
  /**
   * The cached value of `key`, else `load()`'s (kept when defined). `until` bounds an entry's life
   * (a token's expiry, a rolled key's overlap end) in epoch milliseconds.
   */
  lookup<T>(
    cache: CacheName,
    key: string,
    load: () => Promise<T | undefined>,
    until?: (value: T) => number,
  ): Promise<T | undefined>;
  /**
   * The live cached value of `key`, if there is one, and nothing else: no load, no I/O. For choices
   * made before the request's epoch read (which counter a request counts toward); what the request
   * then answers is looked up again after it.
   */
  peek<T>(cache: CacheName, key: string): T | undefined;
  /** Called after every committed write that changes what the caches hold (`invalidateCaches`). */
  invalidate(): Promise<void>;
}

export interface LookupCacheOptions {
  mode: CacheMode;
  clock: Clock;
  redis?: Redis;
  prefix?: string;
  /** Entries per cache; past it the oldest entry goes. */
  maxEntries?: number;
  /**
   * Longest life of an entry. Only a lost invalidation (a writer that could not reach Redis, or
   * died between its commit and the epoch write) is ever served from a cache, and at most this long.
   */
  maxAgeMs?: number;
  /** Hit and miss counters (Prometheus). */
  onLookup?: (cache: CacheName, hit: boolean) => void;
}

interface Entry {
  value: unknown;
  until: number;
}

export const CACHE_MAX_AGE_MS = 60_000;

/** Verified tokens and the rows authentication reads on every request, kept exactly right. */
export function createLookupCaches(opts: LookupCacheOptions): LookupCaches {
  const maxEntries = opts.maxEntries ?? 10_000;
  const maxAgeMs = opts.maxAgeMs ?? CACHE_MAX_AGE_MS;
  const maps = new Map<CacheName, Map<string, Entry>>(CACHE_NAMES.map((n) => [n, new Map()]));
  let generation = 0;
  // Shared mode trusts the caches only between a successful epoch read and the next failure.
  let available = opts.mode === 'local';
  let epoch: string | null | undefined;
  const epochKey = `${opts.prefix ?? 'svc:'}cache:epoch`;

  const drop = () => {
    for (const map of maps.values()) map.clear();
    generation++;
  };
  const usable = () => available && opts.mode !== 'off';

  return {
    mode: opts.mode,
    epochKey,
    generation: () => generation,
    observe(seen) {
      if (opts.mode !== 'shared') return;
      if (available && seen === epoch) return;
      drop();
      epoch = seen;
      available = true;
    },
    unreachable() {
      if (opts.mode !== 'shared' || !available) return;
      drop();
      available = false;
    },
    peek(cache, key) {
      if (!usable()) return undefined;
      const entry = maps.get(cache)!.get(key);
      return entry && entry.until > opts.clock.now().getTime() ? (entry.value as never) : undefined;
    },
    async lookup(cache, key, load, until) {
      if (!usable()) return load();
      const map = maps.get(cache)!;
      const now = opts.clock.now().getTime();
      // Oldest first out (insertion order): an entry lives at most maxAgeMs anyway, so moving a hit
      // to the back on every read (a delete and a set per lookup, six lookups a status call) would
      // only change which entries a full cache drops first.
      const entry = map.get(key);
      if (entry) {
        if (entry.until > now) {
          opts.onLookup?.(cache, true);
          return entry.value as never;
        }
        map.delete(key);
      }
      opts.onLookup?.(cache, false);
      const started = generation;
      const value = await load();
      // A write committed while this load ran may have been read half-way: keep nothing then.
      if (value === undefined || started !== generation || !usable()) return value;
      map.set(key, {
        value,
        until: Math.min(now + maxAgeMs, until ? until(value) : Number.POSITIVE_INFINITY),
      });
      if (map.size > maxEntries) map.delete(map.keys().next().value!);
      return value;
    },
    async invalidate() {
      drop();
      if (opts.mode !== 'shared' || !opts.redis) return;
      const next = randomUUID();
      try {
        await opts.redis.set(epochKey, next);
        epoch = next;
      } catch {
        // Other instances may keep entries up to maxAgeMs; this one trusts nothing until Redis answers.
        available = false;
      }
    },
  };
}

/** The cache mode a deployment allows (see `CacheMode`). */
export function cacheModeOf(config: {
  DATABASE_URL?: string | undefined;
  REDIS_URL?: string | undefined;
}): CacheMode {
  if (!config.DATABASE_URL) return 'local';
  return config.REDIS_URL ? 'shared' : 'off';
}

/**
 * The one call every write path makes after its commit when it changed a license, key, activation,
 * token family, API key, account or signing key: every instance's caches drop their entries before
 * their next request is authenticated.
 */
export async function invalidateCaches(deps: { caches?: LookupCaches | undefined }): Promise<void> {
  await deps.caches?.invalidate();
}
