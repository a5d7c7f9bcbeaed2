import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Clock } from '../../lib/clock.ts';
import { EMBED_TOKEN_TTL_MS } from '../activation/embed-sessions.ts';

/**
 * Which widgets of an embed session have already been counted as a view, so a widget's second
 * signal (a retry, a reload of the iframe, a script replaying it) is answered without counting.
 */
export interface ViewLedger {
  /** True the first time this session, calculator and page are seen within `ttlMs`; false after. */
  first(sid: string, calculator: string, page: string): Promise<boolean>;
}

/** Entries an instance remembers; past it the oldest is forgotten (its widget could count again). */
const MAX_ENTRIES = 200_000;

/**
 * The view ledger: one key per embed session (`sid`, which a renewal keeps), calculator and page
 * (masked as the funnel counts it), hashed so no session id (a PDF capability) is kept in clear.
 * Two widgets of the same calculator on one page are one view: a view means a visitor saw that
 * calculator on that page, and a per-widget id would come from the page, so anyone could vary it.
 *
 * Each instance remembers what it has seen for the embed token's lifetime (10 minutes) in memory.
 * With Redis, a key this instance has not seen costs one `SET key 1 PX ttl NX` round trip, which
 * instances share: the first to set it counts. Redis unreachable: the instance's memory decides
 * (as the rate limits fall back to it), so a view can then count once per instance.
 */
export function createViewLedger(opts: {
  clock: Clock;
  redis?: Redis | undefined;
  prefix?: string | undefined;
  ttlMs?: number;
  maxEntries?: number;
}): ViewLedger {
  const ttlMs = opts.ttlMs ?? EMBED_TOKEN_TTL_MS;
  const maxEntries = opts.maxEntries ?? MAX_ENTRIES;
  const prefix = `${opts.prefix ?? 'svc:'}view:`;
  // Key → when it is forgotten. Every entry lives ttlMs, so insertion order is expiry order.
  const seen = new Map<string, number>();

  function remember(key: string, now: number) {
    for (const [oldest, until] of seen) {
      if (until > now && seen.size < maxEntries) break;
      seen.delete(oldest);
    }
    seen.set(key, now + ttlMs);
  }

  return {
    async first(sid, calculator, page) {
      const key = createHash('sha256').update(`${sid}\n${calculator}\n${page}`).digest('base64url');
      const now = opts.clock.now().getTime();
      const until = seen.get(key);
      if (until !== undefined && until > now) return false;
      remember(key, now);
      if (!opts.redis) return true;
      try {
        return (await opts.redis.set(`${prefix}${key}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
      } catch {
        return true;
      }
    },
  };
}
