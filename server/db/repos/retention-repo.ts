import { and, eq, inArray, isNotNull, lt, notExists, or, sql } from 'drizzle-orm';
import { type Db, withTransaction } from '../engine/database.ts';
import {
  authCodes,
  calculationResults,
  idempotencyKeys,
  leads,
  mailMessages,
  outboxEvents,
  refreshTokens,
  webhookDeliveries,
} from '../engine/schema.ts';

// The deletes behind the retention rules (domain/delivery/retention.ts). Each is one statement
// with a date condition, safe to run on several instances at once; each returns how many went.

/** Calculation results created before `before` that no lead links to. */
export async function deleteOldResults(db: Db, before: Date): Promise<number> {
  const gone = await db
    .delete(calculationResults)
    .where(
      and(
        lt(calculationResults.createdAt, before),
        notExists(db.select({ one: sql`1` }).from(leads).where(eq(leads.resultId, calculationResults.id))),
      ),
    )
    .returning({ id: calculationResults.id });
  return gone.length;
}

export async function deleteExpiredIdempotencyKeys(db: Db, now: Date): Promise<number> {
  const gone = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.expiresAt, now))
    .returning({ key: idempotencyKeys.key });
  return gone.length;
}

/** Connect codes that expired before `before`. */
export async function deleteOldAuthCodes(db: Db, before: Date): Promise<number> {
  const gone = await db
    .delete(authCodes)
    .where(lt(authCodes.expiresAt, before))
    .returning({ id: authCodes.id });
  return gone.length;
}

/** Refresh-token families whose newest token expired before `now` (whole families, never one token). */
export async function deleteExpiredRefreshFamilies(db: Db, now: Date): Promise<number> {
  const expiredFamilies = db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .groupBy(refreshTokens.familyId)
    .having(sql`max(${refreshTokens.expiresAt}) < ${now.toISOString()}::timestamptz`);
  const gone = await db
    .delete(refreshTokens)
    .where(inArray(refreshTokens.familyId, expiredFamilies))
    .returning({ id: refreshTokens.id });
  return gone.length;
}

/**
 * In one transaction: events created before `cutoff` with no pending delivery or mail, with their
 * mails, and sent or failed mails created before `cutoff`. Deliveries and attempt logs go with
 * their events by cascade. Returns the events' ids and the deleted mails' files (to remove after
 * the commit).
 */
export function deleteDeliveryLogs(
  db: Db,
  cutoff: Date,
): Promise<{ ids: string[]; files: (string | null)[]; mails: number }> {
  return withTransaction(db, async (tx) => {
    const old = await tx
      .select({ id: outboxEvents.id })
      .from(outboxEvents)
      .where(
        and(
          lt(outboxEvents.createdAt, cutoff),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(webhookDeliveries)
              .where(
                and(eq(webhookDeliveries.eventId, outboxEvents.id), eq(webhookDeliveries.status, 'pending')),
              ),
          ),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(mailMessages)
              .where(and(eq(mailMessages.eventId, outboxEvents.id), eq(mailMessages.status, 'pending'))),
          ),
        ),
      );
    const ids = old.map((e) => e.id);
    const doomedMails = await tx
      .select({ id: mailMessages.id, filePath: mailMessages.filePath })
      .from(mailMessages)
      .where(
        or(
          ids.length ? inArray(mailMessages.eventId, ids) : sql`false`,
          and(lt(mailMessages.createdAt, cutoff), isNotNull(mailMessages.sentAt)),
          and(lt(mailMessages.createdAt, cutoff), eq(mailMessages.status, 'failed')),
        ),
      );
    if (doomedMails.length) {
      await tx.delete(mailMessages).where(
        inArray(
          mailMessages.id,
          doomedMails.map((m) => m.id),
        ),
      );
    }
    if (ids.length) await tx.delete(outboxEvents).where(inArray(outboxEvents.id, ids));
    return { ids, files: doomedMails.map((m) => m.filePath), mails: doomedMails.length };
  });
}
