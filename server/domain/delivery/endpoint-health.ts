import { withTransaction } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import { findAccountById } from '../../db/repos/accounts-repo.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import { insertMail } from '../../db/repos/outbox-repo.ts';
import { disableEndpointFailingSince } from '../../db/repos/webhook-endpoints-repo.ts';
import type { DeliveryDeps } from './deps.ts';

/** An endpoint that has failed every attempt for this long is disabled (as Svix does). */
export const DISABLE_AFTER_MS = 5 * 86_400_000;

/**
 * Disables an endpoint that has been failing for `DISABLE_AFTER_MS` and tells the firm: an audit
 * entry and an alert mail (to the alert addresses, else the account's e-mail), written in the same
 * transaction. The conditional update makes one instance win, so the firm is told once.
 */
export async function disableFailingEndpoint(
  deps: DeliveryDeps,
  endpointId: string,
  /** Set when no retry can succeed (a private destination): the endpoint is disabled at once, for this reason. */
  refusal?: string | null,
): Promise<boolean> {
  const now = deps.clock.now();
  const cutoff = refusal ? now : new Date(now.getTime() - DISABLE_AFTER_MS);
  return withTransaction(deps.db, async (tx) => {
    const disabled = await disableEndpointFailingSince(tx, {
      id: endpointId,
      cutoff,
      reason: refusal ?? 'Every delivery failed for 5 days',
      now,
    });
    if (!disabled) return false;
    await recordAudit(tx, {
      accountId: disabled.accountId,
      actor: 'delivery-worker',
      action: 'webhook.disabled',
      subject: disabled.id,
      data: { failingSince: disabled.failingSince?.toISOString(), ...(refusal ? { reason: refusal } : {}) },
      at: now,
    });
    const account = await findAccountById(tx, disabled.accountId);
    const to = account?.alertEmails.length ? account.alertEmails : account?.email ? [account.email] : [];
    if (to.length > 0) {
      await insertMail(tx, {
        id: newId('mail'),
        accountId: disabled.accountId,
        kind: 'endpoint_disabled',
        recipients: to,
        body: {
          endpointId: disabled.id,
          url: disabled.url,
          failingSince: disabled.failingSince?.toISOString() ?? null,
          ...(refusal ? { reason: refusal } : {}),
        },
        status: 'pending',
        nextAttemptAt: now,
        createdAt: now,
      });
    }
    deps.logger.warn({ endpointId: disabled.id, accountId: disabled.accountId }, 'webhook endpoint disabled');
    return true;
  });
}
