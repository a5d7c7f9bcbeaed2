import type { Db } from '../../db/engine/database.ts';
import { addFunnelCounts, countedPages, type FunnelRow } from '../../db/repos/funnel-repo.ts';
import type { Clock } from '../../lib/clock.ts';
import { funnelPage, OTHER_PAGES, PAGES_PER_DAY } from './pages.ts';

/** What one request adds to the funnel: a widget became ready, a calculation, a lead (held or not). */
interface FunnelEvent {
  kind: 'view' | 'calculation' | 'lead' | 'held';
  accountId: string;
  licenseId: string;
  calculator: string;
  /** The page as stored (origin + path, already checked against the session's origin), or none. */
  page: string | null;
  /** The widget's language (`en` when not said). */
  language?: string;
  test: boolean;
}

export interface FunnelCounter {
  /** Counts one event in memory: no I/O, no await; the next flush writes it. */
  add(event: FunnelEvent): void;
  /** Writes what is pending as additive upserts; resolves when this instance's counts are stored. */
  flush(): Promise<void>;
  /** Flushes every `intervalMs` until `stop`. */
  start(intervalMs: number): void;
  /** Stops the timer and writes what is pending (shutdown). */
  stop(): Promise<void>;
}

/** Keys held in memory between flushes; past this, new keys are dropped (counted in `dropped`). */
const MAX_PENDING_KEYS = 100_000;

interface Pending {
  accountId: string;
  licenseId: string;
  calculator: string;
  page: string | null;
  language: string;
  day: string;
  test: boolean;
  views: number;
  calculations: number;
  leads: number;
  heldLeads: number;
}

const FIELD = { view: 'views', calculation: 'calculations', lead: 'leads', held: 'heldLeads' } as const;

/**
 * The funnel's counts, kept off the request path: `add` bumps a number in a Map keyed by license,
 * UTC day, calculator, page, language and traffic kind; every few seconds `flush` writes the Map as
 * one batch of additive upserts (`funnel_daily`). Each instance flushes its own counts, so several
 * instances (and a cluster's workers) add up without Redis. A crash loses at most the counts of the
 * last interval; a failed write keeps them for the next flush.
 */
export function createFunnelCounter(deps: {
  db: Db;
  clock: Clock;
  onError?: (e: unknown) => void;
  /** After each write that stored something: the events it added (a debug log line). */
  onFlush?: (events: number) => void;
}): FunnelCounter {
  let pending = new Map<string, Pending>();
  let running: Promise<void> | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  let dropped = 0;

  function add(event: FunnelEvent) {
    const day = deps.clock.now().toISOString().slice(0, 10);
    const language = event.language ?? 'en';
    const key = `${event.licenseId}\n${day}\n${event.calculator}\n${event.page ?? ''}\n${language}\n${event.test}`;
    let row = pending.get(key);
    if (!row) {
      if (pending.size >= MAX_PENDING_KEYS) {
        dropped++;
        return;
      }
      row = {
        accountId: event.accountId,
        licenseId: event.licenseId,
        calculator: event.calculator,
        page: event.page,
        language,
        day,
        test: event.test,
        views: 0,
        calculations: 0,
        leads: 0,
        heldLeads: 0,
      };
      pending.set(key, row);
    }
    row[FIELD[event.kind]]++;
  }

  /** Masks pages and applies the per-license, per-day cap; rows that end on the same key merge. */
  async function toRows(batch: Pending[]): Promise<FunnelRow[]> {
    const known = new Map<string, Set<string>>();
    const merged = new Map<string, FunnelRow>();
    for (const p of batch) {
      let page = funnelPage(p.page);
      if (page) {
        const dayKey = `${p.licenseId}\n${p.day}`;
        let pages = known.get(dayKey);
        if (!pages) {
          pages = new Set(await countedPages(deps.db, p.licenseId, p.day));
          pages.delete(OTHER_PAGES);
          pages.delete('');
          known.set(dayKey, pages);
        }
        if (!pages.has(page)) {
          if (pages.size < PAGES_PER_DAY) pages.add(page);
          else page = OTHER_PAGES;
        }
      }
      const key = `${p.licenseId}\n${p.day}\n${p.calculator}\n${page}\n${p.language}\n${p.test}`;
      const row = merged.get(key);
      if (row) {
        row.views += p.views;
        row.calculations += p.calculations;
        row.leads += p.leads;
        row.heldLeads += p.heldLeads;
      } else merged.set(key, { ...p, page });
    }
    return [...merged.values()];
  }

  async function writeOnce() {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    try {
      const rows = await toRows([...batch.values()]);
      await addFunnelCounts(deps.db, rows);
      deps.onFlush?.(rows.reduce((n, r) => n + r.views + r.calculations + r.leads + r.heldLeads, 0));
    } catch (e) {
      // Kept for the next flush: counts are added, so writing them later changes nothing.
      for (const [key, row] of batch) {
        const now = pending.get(key);
        if (!now) pending.set(key, row);
        else for (const f of Object.values(FIELD)) now[f] += row[f];
      }
      deps.onError?.(e);
      throw e;
    }
  }

  function flush(): Promise<void> {
    // One write at a time; a flush asked for during one waits for it, then writes what came since.
    const next = (running ?? Promise.resolve())
      .catch(() => {})
      .then(writeOnce)
      .finally(() => {
        if (running === next) running = undefined;
      });
    running = next;
    return next;
  }

  return {
    add,
    flush,
    start(intervalMs) {
      clearInterval(timer);
      timer = setInterval(() => void flush().catch(() => {}), intervalMs);
      timer.unref?.();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await flush();
      if (dropped > 0) deps.onError?.(new Error(`funnel counter dropped ${dropped} new keys (memory cap)`));
    },
  };
}
