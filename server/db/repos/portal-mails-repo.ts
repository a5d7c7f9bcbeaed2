import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Clock } from '../../lib/clock.ts';
import { type Db, withTransaction } from '../engine/database.ts';
import { dbNow, dbNowPlus } from '../engine/db-now.ts';
import { portalMails } from '../engine/schema.ts';

export type PortalMailRow = typeof portalMails.$inferSelect;

export async function insertPortalMail(db: Db, values: typeof portalMails.$inferInsert): Promise<void> {
  await db.insert(portalMails).values(values);
}

/** Claims due sign-in requests `FOR UPDATE SKIP LOCKED` with a lease on the database's clock. */
export async function claimPortalMails(
  db: Db,
  clock: Clock,
  opts: { limit: number; leaseMs: number },
): Promise<PortalMailRow[]> {
  const now = dbNow(clock);
  return withTransaction(db, async (tx) => {
    const due = await tx
      .select({ id: portalMails.id })
      .from(portalMails)
      .where(
        and(
          eq(portalMails.status, 'pending'),
          or(isNull(portalMails.lockedUntil), lte(portalMails.lockedUntil, now)),
        ),
      )
      .orderBy(asc(portalMails.createdAt))
      .limit(opts.limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(portalMails)
      .set({ lockedUntil: dbNowPlus(clock, opts.leaseMs), attempts: sql`${portalMails.attempts} + 1` })
      .where(
        inArray(
          portalMails.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
  });
}

/** The outcome of one row; the requested address is forgotten once the row is settled. */
export async function settlePortalMail(
  db: Db,
  id: string,
  values: Pick<typeof portalMails.$inferInsert, 'status' | 'filePath' | 'linkExpiresAt'>,
): Promise<void> {
  await db
    .update(portalMails)
    .set({ ...values, email: values.status === 'pending' ? undefined : null, lockedUntil: null })
    .where(eq(portalMails.id, id));
}

/**
 * Rows retention removes: links expired, requests that led to no mail (kept an hour), and requests
 * never sent after a day. Returns the outbox files they name, for removal after the delete.
 */
export async function deleteSpentPortalMails(db: Db, now: Date): Promise<(string | null)[]> {
  const hourAgo = new Date(now.getTime() - 3_600_000);
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const gone = await db
    .delete(portalMails)
    .where(
      or(
        lt(portalMails.linkExpiresAt, now),
        and(inArray(portalMails.status, ['skipped', 'failed']), lt(portalMails.createdAt, hourAgo)),
        and(isNull(portalMails.linkExpiresAt), lt(portalMails.createdAt, dayAgo)),
      ),
    )
    .returning({ filePath: portalMails.filePath });
  return gone.map((g) => g.filePath);
}
