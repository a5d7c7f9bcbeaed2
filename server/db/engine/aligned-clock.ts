import { sql } from 'drizzle-orm';
import type { Clock } from '../../lib/clock.ts';
import type { Database } from './database.ts';

/** A measurement whose round trip took longer than this is too uncertain to replace the last one. */
const MAX_ROUND_TRIP_MS = 1_000;
const SAMPLES = 3;

export interface AlignedClock extends Clock {
  /** The database's clock minus this machine's, as last measured (ms). */
  offsetMs(): number;
  stop(): void;
}

/**
 * The running server's clock when several instances share PostgreSQL: this machine's time moved
 * by its measured offset from the database server's clock (read as `clock_timestamp()`, the
 * round trip halved). Everything an instance stamps that another one checks — a token's
 * `iat`/`nbf`/`exp`, a code's or a session's expiry — is then on one clock, the database's, even
 * when the machines' clocks disagree by minutes; no request waits for the database to learn the
 * time. The offset is measured at start (best of three) and again every `refreshMs`; a failed
 * measurement keeps the last offset (a database outage does not move the clock).
 */
export async function createAlignedClock(
  readDatabaseTime: () => Promise<Date>,
  options: { refreshMs?: number; onOffset?: (offsetMs: number) => void } = {},
): Promise<AlignedClock> {
  let offset = 0;
  const measure = async (): Promise<{ offset: number; roundTrip: number }> => {
    const before = Date.now();
    const databaseTime = (await readDatabaseTime()).getTime();
    const after = Date.now();
    return { offset: databaseTime - (before + after) / 2, roundTrip: after - before };
  };
  let best: { offset: number; roundTrip: number } | undefined;
  for (let i = 0; i < SAMPLES; i++) {
    const sample = await measure();
    if (!best || sample.roundTrip < best.roundTrip) best = sample;
  }
  offset = Math.round(best!.offset);
  options.onOffset?.(offset);
  const timer = setInterval(() => {
    measure().then(
      (sample) => {
        if (sample.roundTrip > MAX_ROUND_TRIP_MS) return;
        offset = Math.round(sample.offset);
        options.onOffset?.(offset);
      },
      () => {},
    );
  }, options.refreshMs ?? 60_000);
  timer.unref();
  return {
    now: () => new Date(Date.now() + offset),
    real: true,
    offsetMs: () => offset,
    stop: () => clearInterval(timer),
  };
}

/** The database server's current time (not the transaction's start). */
export async function readDatabaseTime(database: Database): Promise<Date> {
  const result = (await database.db.execute(sql`select clock_timestamp() as now`)) as unknown as {
    rows: { now: Date | string }[];
  };
  return new Date(result.rows[0]!.now);
}
