import { type SQL, sql } from 'drizzle-orm';
import type { Clock } from '../../lib/clock.ts';

/**
 * "Now" for a query that compares times other instances wrote (leases, due times): the database's
 * clock, one for every instance whatever their own clocks say. A test's frozen clock is used as a
 * literal instead, so expiry tests still move time by hand.
 */
export function dbNow(clock: Clock): SQL {
  return clock.real ? sql`now()` : sql`${clock.now().toISOString()}::timestamptz`;
}

/** `dbNow(clock)` plus `ms` milliseconds: a lease's end or a retry's due time. */
export function dbNowPlus(clock: Clock, ms: number): SQL {
  return sql`(${dbNow(clock)} + ${Math.round(ms)}::float8 * interval '1 millisecond')`;
}
