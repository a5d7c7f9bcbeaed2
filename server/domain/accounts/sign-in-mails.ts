import { newId } from '../../db/engine/ids.ts';
import { claimPortalMails, insertPortalMail, settlePortalMail } from '../../db/repos/portal-mails-repo.ts';
import { findUserByEmail, listMembershipsOfUser } from '../../db/repos/users-repo.ts';
import { mintLink, safeNextPath, sendLink } from './magic-links.ts';
import { normalizeEmail, type PortalDeps } from './portal-deps.ts';

const LEASE_MS = 60_000;
const MAX_ATTEMPTS = 5;

/**
 * `POST /v1/portal/auth/email`: queues the request and nothing else, so the answer takes as long
 * for an address with an account as for one without (issue 23: timing told who had an account).
 * The delivery worker (`sendSignInMails`) resolves the address and sends the link.
 */
export async function requestSignInLink(deps: PortalDeps, email: string, next?: string): Promise<void> {
  await insertPortalMail(deps.db, {
    id: newId('pm'),
    kind: 'sign_in',
    email: normalizeEmail(email),
    nextPath: safeNextPath(next),
    status: 'pending',
    createdAt: deps.clock.now(),
  });
}

/**
 * One pass over queued sign-in requests (run by the delivery worker on every instance; leases
 * share the work). A member of some firm gets a single-use link; any other address gets nothing.
 * Either way the row forgets the address; it keeps the outbox file and the link's expiry, for
 * retention. Returns how many rows it settled.
 */
export async function sendSignInMails(deps: PortalDeps, limit = 10): Promise<number> {
  const rows = await claimPortalMails(deps.db, deps.clock, { limit, leaseMs: LEASE_MS });
  for (const row of rows) {
    try {
      const user = row.email ? await findUserByEmail(deps.db, row.email) : undefined;
      if (!user || (await listMembershipsOfUser(deps.db, user.id)).length === 0) {
        await settlePortalMail(deps.db, row.id, { status: 'skipped' });
        continue;
      }
      const link = await mintLink(deps, user, { purpose: 'sign_in', next: row.nextPath });
      const { filePath } = await sendLink(
        deps,
        user.email,
        link.url,
        'Your sign-in link',
        'sign in to your firm’s svc portal',
      );
      await settlePortalMail(deps.db, row.id, { status: 'sent', filePath, linkExpiresAt: link.expiresAt });
    } catch (error) {
      deps.logger.warn({ err: error, mail: row.id }, 'sign-in mail failed');
      if (row.attempts >= MAX_ATTEMPTS) await settlePortalMail(deps.db, row.id, { status: 'failed' });
    }
  }
  return rows.length;
}
