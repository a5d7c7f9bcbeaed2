import { and, eq, inArray, isNotNull, lt, notExists, or, sql } from 'drizzle-orm';
import { withTransaction } from '../../db/database.ts';
import { deleteSpentPortalMails } from '../../db/portal-mails-repo.ts';
import {
  authCodes,
  calculationResults,
  idempotencyKeys,
  leads,
  mailMessages,
  outboxEvents,
  refreshTokens,
  webhookDeliveries,
} from '../../db/schema.ts';
import { purgeClosedAccounts } from '../accounts/closure.ts';
import type { DeliveryDeps } from './deps.ts';
import { removeMailFiles } from './mail-files.ts';

const DAY_MS = 86_400_000;
/** Delivery logs (events, deliveries, attempts, sent alert mails) are kept this long. */
export const DELIVERY_LOG_DAYS = 30;
/** A connect code lives 60 s; a used or expired one is kept a day for reuse detection, then purged. */
export const AUTH_CODE_KEEP_MS = DAY_MS;

type Deps = Pick<DeliveryDeps, 'db' | 'clock' | 'resultRetentionDays' | 'accountCloseGraceDays'>;

export interface RetentionReport {
  results: number;
  idempotencyKeys: number;
  connectCodes: number;
  refreshTokens: number;
  deliveryLogs: number;
  mails: number;
  /** Sign-in and invitation mails whose links have expired (rows and outbox files). */
  portalMails: number;
  accountsDeleted: number;
}

/**
 * One pass of the retention rules (README, "What is kept and for how long"). Safe to run on
 * several instances at once: every rule is a DELETE with a date condition.
 */
export async function runRetention(deps: Deps): Promise<RetentionReport> {
  const now = deps.clock.now();
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const db = deps.db;
  const results = await db
    .delete(calculationResults)
    .where(
      and(
        lt(calculationResults.createdAt, ago(deps.resultRetentionDays * DAY_MS)),
        notExists(db.select({ one: sql`1` }).from(leads).where(eq(leads.resultId, calculationResults.id))),
      ),
    )
    .returning({ id: calculationResults.id });
  const keys = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.expiresAt, now))
    .returning({ key: idempotencyKeys.key });
  const codes = await db
    .delete(authCodes)
    .where(lt(authCodes.expiresAt, ago(AUTH_CODE_KEEP_MS)))
    .returning({ id: authCodes.id });
  // A family goes only when its newest token has expired: until then reuse detection needs it.
  const expiredFamilies = db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .groupBy(refreshTokens.familyId)
    .having(sql`max(${refreshTokens.expiresAt}) < ${now.toISOString()}::timestamptz`);
  const tokens = await db
    .delete(refreshTokens)
    .where(inArray(refreshTokens.familyId, expiredFamilies))
    .returning({ id: refreshTokens.id });
  const { logs, mails } = await purgeDeliveryLogs(deps, ago(DELIVERY_LOG_DAYS * DAY_MS));
  // Their links are dead: the files in DATA_DIR/outbox would only hold a person's address.
  const portalMailFiles = await deleteSpentPortalMails(db, now);
  removeMailFiles(portalMailFiles);
  const accountsDeleted = await purgeClosedAccounts(deps);
  return {
    results: results.length,
    idempotencyKeys: keys.length,
    connectCodes: codes.length,
    refreshTokens: tokens.length,
    deliveryLogs: logs,
    mails,
    portalMails: portalMailFiles.length,
    accountsDeleted,
  };
}

/**
 * Events older than the cutoff with nothing left to send go, and with them (by cascade) their
 * deliveries, attempt logs and alert mails; mail files are removed after the commit.
 */
async function purgeDeliveryLogs(deps: Deps, cutoff: Date): Promise<{ logs: number; mails: number }> {
  const { ids, files, mails } = await withTransaction(deps.db, async (tx) => {
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
  removeMailFiles(files);
  return { logs: ids.length, mails };
}
