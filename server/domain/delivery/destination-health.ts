import type { Db } from '../../db/engine/database.ts';
import { withTransaction } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import { findAccountById } from '../../db/repos/accounts-repo.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import { insertMail } from '../../db/repos/outbox-repo.ts';
import { listMembers } from '../../db/repos/users-repo.ts';
import {
  cancelWaitingOnDisabledDestinations,
  disableIfEnabled,
} from '../../db/repos/webhook-endpoints-repo.ts';
import type { DeliveryDeps } from './deps.ts';

/** Deliveries wait this long on a disabled destination, then are cancelled (and stay listed for replay). */
export const DESTINATION_WAIT_MS = 7 * 86_400_000;

/** Who is told a destination stopped: the firm's owners and admins, else its account address. */
async function ownersAndAdmins(db: Db, accountId: string): Promise<string[]> {
  const members = await listMembers(db, accountId);
  const to = members.filter((m) => m.role === 'owner' || m.role === 'admin').map((m) => m.email);
  if (to.length > 0) return [...new Set(to)];
  const account = await findAccountById(db, accountId);
  return account?.email ? [account.email] : [];
}

/**
 * The CRM refused the destination's credential (401/403): the destination is disabled at once,
 * instead of retrying for a day, and the firm is told — an audit entry (the portal's banner reads
 * disabled destinations) and a mail to its owners and admins, written in one transaction. Leads
 * keep queueing and wait up to 7 days for it to be enabled again. The conditional update makes one
 * instance win, so the firm is told once.
 */
export async function disableRefusedDestination(
  deps: DeliveryDeps,
  endpointId: string,
  vendorMessage: string,
): Promise<boolean> {
  const now = deps.clock.now();
  return withTransaction(deps.db, async (tx) => {
    const reason = `The CRM refused the credential: ${vendorMessage}`.slice(0, 300);
    const row = await disableIfEnabled(tx, { id: endpointId, reason, now });
    if (!row) return false;
    await recordAudit(tx, {
      accountId: row.accountId,
      actor: 'delivery-worker',
      action: 'destination.disabled',
      subject: row.id,
      data: { vendor: row.kind, reason },
      at: now,
    });
    const to = await ownersAndAdmins(tx, row.accountId);
    if (to.length > 0)
      await insertMail(tx, {
        id: newId('mail'),
        accountId: row.accountId,
        kind: 'destination_disabled',
        recipients: to,
        body: { endpointId: row.id, vendor: row.kind, name: row.description, reason },
        status: 'pending',
        nextAttemptAt: now,
        createdAt: now,
      });
    deps.logger.warn(
      { endpointId: row.id, accountId: row.accountId, vendor: row.kind },
      'CRM destination disabled',
    );
    return true;
  });
}

/** Retention: deliveries that waited 7 days on a disabled destination are cancelled; audited per firm. */
export async function cancelLongWaitingDeliveries(deps: Pick<DeliveryDeps, 'db' | 'clock'>): Promise<number> {
  const now = deps.clock.now();
  const cancelled = await cancelWaitingOnDisabledDestinations(
    deps.db,
    new Date(now.getTime() - DESTINATION_WAIT_MS),
    now,
  );
  const per = new Map<string, { accountId: string; count: number }>();
  for (const c of cancelled) {
    const seen = per.get(c.endpointId) ?? { accountId: c.accountId, count: 0 };
    seen.count += 1;
    per.set(c.endpointId, seen);
  }
  for (const [endpointId, { accountId, count }] of per)
    await recordAudit(deps.db, {
      accountId,
      actor: 'delivery-worker',
      action: 'destination.deliveries_cancelled',
      subject: endpointId,
      data: { count },
      at: now,
    });
  return cancelled.length;
}
