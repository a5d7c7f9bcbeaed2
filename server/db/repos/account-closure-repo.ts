import { and, eq, inArray, isNull, lte } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import {
  accountClosures,
  accounts,
  activations,
  apiKeys,
  auditEvents,
  authCodes,
  calculationResults,
  consentVersions,
  funnelDaily,
  idempotencyKeys,
  invitations,
  leadDailyCounts,
  leadDigests,
  leadNotes,
  leads,
  licenseKeys,
  licenses,
  magicLinks,
  mailMessages,
  mcpExports,
  memberships,
  outboxEvents,
  portalSessions,
  refreshTokens,
  ruleNotices,
  spentChallenges,
  stripeEvents,
  webhookDeliveries,
  webhookEndpoints,
} from '../engine/schema.ts';
import { deleteMcpRowsOfAccount, revokeGrants } from './mcp-oauth-repo.ts';

export type AccountClosureRow = typeof accountClosures.$inferSelect;

/**
 * The account's closure: the one inserted now (`created`), or the one a first close wrote before.
 * Call it in the closing transaction.
 */
export async function openClosure(
  tx: Db,
  values: typeof accountClosures.$inferInsert,
): Promise<{ closure: AccountClosureRow; created: boolean }> {
  const [inserted] = await tx.insert(accountClosures).values(values).onConflictDoNothing().returning();
  if (inserted) return { closure: inserted, created: true };
  const [existing] = await tx
    .select()
    .from(accountClosures)
    .where(eq(accountClosures.accountId, values.accountId));
  return { closure: existing!, created: false };
}

/**
 * Everything of the firm stops at `now`: live licenses, API keys and MCP grants revoked, live webhook endpoints
 * disabled, pending deliveries cancelled and pending mails failed.
 */
export async function stopAccountActivity(tx: Db, accountId: string, now: Date): Promise<void> {
  await tx
    .update(licenses)
    .set({ revokedAt: now, updatedAt: now })
    .where(and(eq(licenses.accountId, accountId), isNull(licenses.revokedAt)));
  await tx
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)));
  await revokeGrants(tx, { accountId }, now, 'firm_closed');
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
}

/** Closures whose grace period ended by `now`. */
export function closuresDue(db: Db, now: Date): Promise<AccountClosureRow[]> {
  return db.select().from(accountClosures).where(lte(accountClosures.deleteAfter, now));
}

/** The outbox files of the account's mails (null for mails sent over SMTP). */
export async function mailFilesOfAccount(tx: Db, accountId: string): Promise<(string | null)[]> {
  const paths = await tx
    .select({ filePath: mailMessages.filePath })
    .from(mailMessages)
    .where(eq(mailMessages.accountId, accountId));
  return paths.map((p) => p.filePath);
}

/** The tables `deleteAccountRows` empties for an account (checked against the schema by a test). */
export const ACCOUNT_DATA_TABLES = [
  'webhook_deliveries',
  'delivery_attempts',
  'mail_messages',
  'outbox_events',
  'webhook_endpoints',
  'lead_notes',
  'leads',
  'lead_digests',
  'lead_daily_counts',
  'funnel_daily',
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
  'mcp_exports',
  'mcp_refresh_tokens',
  'mcp_auth_codes',
  'mcp_grants',
  'licenses',
  'audit_events',
  'memberships',
  'invitations',
  'portal_sessions',
  'magic_links',
  'rule_notices',
  'accounts',
  'account_closures',
] as const;

/**
 * Every table holding a firm's data, children first (delivery_attempts go with their deliveries). A table added later that carries an
 * `account_id` or `license_id` must be listed here (account-closure.test.ts checks the schema).
 */
export async function deleteAccountRows(tx: Db, accountId: string): Promise<void> {
  const licenseIds = (
    await tx.select({ id: licenses.id }).from(licenses).where(eq(licenses.accountId, accountId))
  ).map((l) => l.id);
  await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.accountId, accountId));
  await tx.delete(mailMessages).where(eq(mailMessages.accountId, accountId));
  await tx.delete(outboxEvents).where(eq(outboxEvents.accountId, accountId));
  await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.accountId, accountId));
  await tx.delete(leadNotes).where(eq(leadNotes.accountId, accountId));
  await tx.delete(leads).where(eq(leads.accountId, accountId));
  await tx.delete(leadDigests).where(eq(leadDigests.accountId, accountId));
  await tx.delete(leadDailyCounts).where(eq(leadDailyCounts.accountId, accountId));
  await tx.delete(funnelDaily).where(eq(funnelDaily.accountId, accountId));
  await tx.delete(calculationResults).where(eq(calculationResults.accountId, accountId));
  await tx.delete(idempotencyKeys).where(eq(idempotencyKeys.accountId, accountId));
  await tx.delete(consentVersions).where(eq(consentVersions.accountId, accountId));
  await tx.delete(mcpExports).where(eq(mcpExports.accountId, accountId));
  if (licenseIds.length) {
    await tx.delete(refreshTokens).where(inArray(refreshTokens.licenseId, licenseIds));
    await tx.delete(authCodes).where(inArray(authCodes.licenseId, licenseIds));
    await tx.delete(activations).where(inArray(activations.licenseId, licenseIds));
    await tx.delete(licenseKeys).where(inArray(licenseKeys.licenseId, licenseIds));
    await tx.delete(stripeEvents).where(inArray(stripeEvents.licenseId, licenseIds));
    await tx.delete(spentChallenges).where(inArray(spentChallenges.licenseId, licenseIds));
  }
  await tx.delete(apiKeys).where(eq(apiKeys.accountId, accountId));
  await deleteMcpRowsOfAccount(tx, accountId);
  await tx.delete(licenses).where(eq(licenses.accountId, accountId));
  await tx.delete(auditEvents).where(eq(auditEvents.accountId, accountId));
  // Portal access to the firm ends with it; the people (users, passkeys) stay, as they may belong
  // to other firms too.
  await tx.delete(portalSessions).where(eq(portalSessions.accountId, accountId));
  await tx.delete(magicLinks).where(eq(magicLinks.accountId, accountId));
  await tx.delete(memberships).where(eq(memberships.accountId, accountId));
  await tx.delete(invitations).where(eq(invitations.accountId, accountId));
  await tx.delete(ruleNotices).where(eq(ruleNotices.accountId, accountId));
  await tx.delete(accounts).where(eq(accounts.id, accountId));
  await tx.delete(accountClosures).where(eq(accountClosures.accountId, accountId));
}
