import { newId } from '../../db/engine/ids.ts';
import { findAccountByEmail } from '../../db/repos/accounts-repo.ts';
import { findMembership, putMembership, upsertUser } from '../../db/repos/users-repo.ts';
import { mintLink } from '../accounts/magic-links.ts';
import type { PortalDeps } from '../accounts/portal-deps.ts';

const DEMO_ADMIN_EMAIL = 'demo@svc.test';
const START_LINK_TTL_MS = 60 * 60_000;

/**
 * The demo firm's administrator (`demo@svc.test`, owner) and a fresh single-use sign-in link for
 * the start-up banner, valid for an hour. Undefined when there is no demo firm.
 */
export async function demoAdminSignInLink(
  deps: PortalDeps,
): Promise<{ url: string; accountId: string } | undefined> {
  const account = await findAccountByEmail(deps.db, DEMO_ADMIN_EMAIL);
  if (!account) return undefined;
  const now = deps.clock.now();
  const user = await upsertUser(deps.db, {
    id: newId('user'),
    email: DEMO_ADMIN_EMAIL,
    name: 'Demo administrator',
    createdAt: now,
  });
  if (!(await findMembership(deps.db, account.id, user.id)))
    await putMembership(deps.db, {
      accountId: account.id,
      userId: user.id,
      role: 'owner',
      invitedBy: null,
      at: now,
    });
  const link = await mintLink(deps, user, {
    purpose: 'sign_in',
    accountId: account.id,
    next: '/portal/',
    ttlMs: START_LINK_TTL_MS,
  });
  return { url: link.url, accountId: account.id };
}
