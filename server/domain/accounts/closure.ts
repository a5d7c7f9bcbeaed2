import { and, eq, inArray, isNull, lte } from 'drizzle-orm';
import { findAccountById } from '../../db/accounts-repo.ts';
import { recordAudit } from '../../db/audit-repo.ts';
import { type Db, withTransaction } from '../../db/database.ts';
import {
  accountClosures,
  accounts,
  activations,
  apiKeys,
  auditEvents,
  authCodes,
  calculationResults,
  consentVersions,
  idempotencyKeys,
  invitations,
  leadDailyCounts,
  leadDigests,
  leads,
  licenseKeys,
  licenses,
  magicLinks,
  mailMessages,
  memberships,
  outboxEvents,
  portalSessions,
  refreshTokens,
  spentChallenges,
  stripeEvents,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { invalidateCaches } from '../caches/lookup-caches.ts';
import type { DeliveryDeps } from '../delivery/deps.ts';
import { removeMailFiles } from '../delivery/mail-files.ts';

type Deps = Pick<DeliveryDeps, 'db' | 'clock' | 'accountCloseGraceDays' | 'caches'>;

/**
 * `account close`: everything stops now — licenses and API keys are revoked (widgets and tokens
 * fail on their next request), webhook endpoints are disabled and pending deliveries and mails
 * cancelled — and all of the firm's data is deleted once the grace period has passed (the
 * retention job does it), so an account closed by mistake can still be recovered by the operator.
 * Closing twice returns the first closure.
 */
export async function closeAccount(deps: Deps, accountId: string, actor = 'admin') {
  const now = deps.clock.now();
  const closed = await withTransaction(deps.db, async (tx) => {
    if (!(await findAccountById(tx, accountId))) throw new AppError('NOT_FOUND', `No account ${accountId}.`);
    const deleteAfter = new Date(now.getTime() + deps.accountCloseGraceDays * 86_400_000);
    const [inserted] = await tx
      .insert(accountClosures)
      .values({ accountId, requestedAt: now, deleteAfter, actor })
      .onConflictDoNothing()
      .returning();
    const [closure] = inserted
      ? [inserted]
      : await tx.select().from(accountClosures).where(eq(accountClosures.accountId, accountId));
    if (inserted) {
      await tx
        .update(licenses)
        .set({ revokedAt: now, updatedAt: now })
        .where(and(eq(licenses.accountId, accountId), isNull(licenses.revokedAt)));
      await tx
        .update(apiKeys)
        .set({ revokedAt: now })
        .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)));
      await tx
        .update(webhookEndpoints)
        .set({ disabledAt: now, disabledReason: 'Account closed', updatedAt: now })
        .where(and(eq(webhookEndpoints.accountId, accountId), isNull(webhookEndpoints.disabledAt)));
      await tx
        .update(webhookDeliveries)
        .set({ status: 'cancelled', completedAt: now, lockedUntil: null })
        .where(and(eq(webhookDeliveries.accountId, accountId), eq(webhookDeliveries.status, 'pending')));
      await tx
        .update(mailMessages)
        .set({ status: 'failed', lastError: 'account closed', lockedUntil: null })
        .where(and(eq(mailMessages.accountId, accountId), eq(mailMessages.status, 'pending')));
      await recordAudit(tx, {
        accountId,
        actor,
        action: 'account.closed',
        subject: accountId,
        data: { deleteAfter: deleteAfter.toISOString() },
        at: now,
      });
    }
    return {
      accountId,
      closedAt: closure!.requestedAt.toISOString(),
      deleteAfter: closure!.deleteAfter.toISOString(),
      graceDays: deps.accountCloseGraceDays,
    };
  });
  await invalidateCaches(deps);
  return closed;
}

/** The tables `deleteAccountRows` empties for an account (checked against the schema by a test). */
export const ACCOUNT_DATA_TABLES = [
  'webhook_deliveries',
  'delivery_attempts',
  'mail_messages',
  'outbox_events',
  'webhook_endpoints',
  'leads',
  'lead_digests',
  'lead_daily_counts',
  'calculation_results',
  'idempotency_keys',
  'consent_versions',
  'refresh_tokens',
  'auth_codes',
  'license_keys',
  'spent_challenges',
  'stripe_events',
  'activations',
  'api_keys',
  'licenses',
  'audit_events',
  'memberships',
  'invitations',
  'portal_sessions',
  'magic_links',
  'accounts',
  'account_closures',
] as const;

/**
 * Every table holding a firm's data, children first (delivery_attempts go with their deliveries). A table added later that carries an
 * `account_id` or `license_id` must be listed here (account-closure.test.ts checks the schema).
 */
async function deleteAccountRows(tx: Db, accountId: string): Promise<void> {
  const licenseIds = (
    await tx.select({ id: licenses.id }).from(licenses).where(eq(licenses.accountId, accountId))
  ).map((l) => l.id);
  await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.accountId, accountId));
  await tx.delete(mailMessages).where(eq(mailMessages.accountId, accountId));
  await tx.delete(outboxEvents).where(eq(outboxEvents.accountId, accountId));
  await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.accountId, accountId));
  await tx.delete(leads).where(eq(leads.accountId, accountId));
  await tx.delete(leadDigests).where(eq(leadDigests.accountId, accountId));
  await tx.delete(leadDailyCounts).where(eq(leadDailyCounts.accountId, accountId));
  await tx.delete(calculationResults).where(eq(calculationResults.accountId, accountId));
  await tx.delete(idempotencyKeys).where(eq(idempotencyKeys.accountId, accountId));
  await tx.delete(consentVersions).where(eq(consentVersions.accountId, accountId));
  if (licenseIds.length) {
    await tx.delete(refreshTokens).where(inArray(refreshTokens.licenseId, licenseIds));
    await tx.delete(authCodes).where(inArray(authCodes.licenseId, licenseIds));
    await tx.delete(activations).where(inArray(activations.licenseId, licenseIds));
    await tx.delete(licenseKeys).where(inArray(licenseKeys.licenseId, licenseIds));
    await tx.delete(stripeEvents).where(inArray(stripeEvents.licenseId, licenseIds));
    await tx.delete(spentChallenges).where(inArray(spentChallenges.licenseId, licenseIds));
  }
  await tx.delete(apiKeys).where(eq(apiKeys.accountId, accountId));
  await tx.delete(licenses).where(eq(licenses.accountId, accountId));
  await tx.delete(auditEvents).where(eq(auditEvents.accountId, accountId));
  // Portal access to the firm ends with it; the people (users, passkeys) stay, as they may belong
  // to other firms too.
  await tx.delete(portalSessions).where(eq(portalSessions.accountId, accountId));
  await tx.delete(magicLinks).where(eq(magicLinks.accountId, accountId));
  await tx.delete(memberships).where(eq(memberships.accountId, accountId));
  await tx.delete(invitations).where(eq(invitations.accountId, accountId));
  await tx.delete(accounts).where(eq(accounts.id, accountId));
  await tx.delete(accountClosures).where(eq(accountClosures.accountId, accountId));
}

/** Deletes the accounts whose grace period is over; one audit line each, with the id only. */
export async function purgeClosedAccounts(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.db.select().from(accountClosures).where(lte(accountClosures.deleteAfter, now));
  for (const closure of due) {
    const files = await withTransaction(deps.db, async (tx) => {
      const paths = await tx
        .select({ filePath: mailMessages.filePath })
        .from(mailMessages)
        .where(eq(mailMessages.accountId, closure.accountId));
      await deleteAccountRows(tx, closure.accountId);
      await recordAudit(tx, {
        actor: 'retention',
        action: 'account.deleted',
        subject: closure.accountId,
        at: now,
      });
      return paths.map((p) => p.filePath);
    });
    removeMailFiles(files);
  }
  if (due.length) await invalidateCaches(deps);
  return due.length;
}
