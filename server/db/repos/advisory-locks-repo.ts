import { sql } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';

/**
 * Waits for, then holds until the transaction ends, PostgreSQL's advisory lock named by `key`
 * (hashed to the lock's 64-bit id). Taken inside a transaction (`tx`): the commit or rollback
 * releases it, so it cannot leak onto a pooled connection. Every instance and worker sharing the
 * database queues on the same name: a count taken after it sees what the previous holder wrote.
 */
export async function lockUntilCommit(tx: Db, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

/** The same lock without waiting: false when another transaction holds it (its work is under way). */
export async function tryLockUntilCommit(tx: Db, key: string): Promise<boolean> {
  const result = (await tx.execute(
    sql`select pg_try_advisory_xact_lock(hashtextextended(${key}, 0)) as locked`,
  )) as unknown as { rows: { locked: boolean }[] };
  return result.rows[0]?.locked === true;
}
