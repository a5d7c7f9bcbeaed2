import { and, asc, eq, inArray, isNull, lte, notInArray, or, type SQL, sql } from 'drizzle-orm';
import { type Db, withTransaction } from '../engine/database.ts';
import { mailMessages } from '../engine/schema.ts';

export type MailRow = typeof mailMessages.$inferSelect;
/** Columns a send may change; times may be SQL on the database's clock (`dbNowPlus`). */
export type MailChanges = {
  [K in Exclude<keyof MailRow, 'id' | 'accountId' | 'kind' | 'createdAt'>]?: MailRow[K] | SQL;
};

/** Pending, due at `now`, and not leased (or the lease ran out). `now` is the database's clock. */
const dueMail = (now: SQL) =>
  and(
    eq(mailMessages.status, 'pending'),
    lte(mailMessages.nextAttemptAt, now),
    or(isNull(mailMessages.lockedUntil), lte(mailMessages.lockedUntil, now)),
  );

/**
 * Claims up to `limit` due mails, oldest due first, `FOR UPDATE SKIP LOCKED` in one transaction:
 * each gets the lease `lockedUntil` and its attempt counted up front.
 */
export function claimDueMails(
  db: Db,
  opts: { now: SQL; lockedUntil: SQL; accountId?: string | undefined; limit: number },
): Promise<MailRow[]> {
  return withTransaction(db, async (tx) => {
    const ids = await tx
      .select({ id: mailMessages.id })
      .from(mailMessages)
      .where(and(dueMail(opts.now), opts.accountId ? eq(mailMessages.accountId, opts.accountId) : undefined))
      .orderBy(asc(mailMessages.nextAttemptAt))
      .limit(opts.limit)
      .for('update', { skipLocked: true });
    if (ids.length === 0) return [];
    return tx
      .update(mailMessages)
      .set({ lockedUntil: opts.lockedUntil, attempts: sql`${mailMessages.attempts} + 1` })
      .where(
        inArray(
          mailMessages.id,
          ids.map((r) => r.id),
        ),
      )
      .returning();
  });
}

/**
 * Firms with due mails in round-robin order: ids after `after` first, then from the start;
 * `exclude` are left out.
 */
export async function dueMailFirmIds(
  db: Db,
  opts: { now: SQL; after: string | null; exclude: readonly string[]; limit: number },
): Promise<string[]> {
  const rows = await db
    .select({ accountId: mailMessages.accountId })
    .from(mailMessages)
    .where(
      and(
        dueMail(opts.now),
        opts.exclude.length ? notInArray(mailMessages.accountId, [...opts.exclude]) : undefined,
      ),
    )
    .groupBy(mailMessages.accountId)
    .orderBy(
      opts.after === null ? sql`1` : sql`${mailMessages.accountId} <= ${opts.after}`,
      asc(mailMessages.accountId),
    )
    .limit(Math.max(1, opts.limit));
  return rows.map((r) => r.accountId);
}

/** Moves a pending mail's lease to `lockedUntil` (a sent or failed mail is left alone). */
export async function renewMailLease(db: Db, id: string, lockedUntil: SQL): Promise<void> {
  await db
    .update(mailMessages)
    .set({ lockedUntil })
    .where(and(eq(mailMessages.id, id), eq(mailMessages.status, 'pending')));
}

/** Records a send's outcome (sent, failed, or the next attempt's time). */
export async function updateMail(db: Db, id: string, changes: MailChanges): Promise<void> {
  await db.update(mailMessages).set(changes).where(eq(mailMessages.id, id));
}
