import { findAccountById } from '../../db/accounts-repo.ts';
import { recordAudit } from '../../db/audit-repo.ts';
import { newId } from '../../db/ids.ts';
import { revokeSessionsInAccount } from '../../db/portal-sessions-repo.ts';
import type { MembershipRole } from '../../db/schema.ts';
import {
  countOwners,
  deleteMembership,
  findMembership,
  listMembers as listMemberRows,
  putMembership,
  upsertUser,
} from '../../db/users-repo.ts';
import { AppError } from '../../errors.ts';
import { mintLink, sendLink } from './magic-links.ts';
import { normalizeEmail, type PortalDeps, type PortalPrincipal } from './portal-deps.ts';
import { requireRole } from './roles.ts';

/**
 * Gives `email` a role in a firm and returns a single-use invite link (also e-mailed). The person
 * is created if new; an existing member gets the new role. `invitedBy` is null for the operator's
 * CLI, which may give any existing account its first owner.
 */
export async function inviteMember(
  deps: PortalDeps,
  input: { accountId: string; email: string; role: MembershipRole; invitedBy: PortalPrincipal | null },
): Promise<{ userId: string; link: string; expiresAt: Date }> {
  const account = await findAccountById(deps.db, input.accountId);
  if (!account) throw new AppError('NOT_FOUND', `No account ${input.accountId}.`);
  const actor = input.invitedBy;
  if (actor) {
    requireRole(actor, 'admin');
    if (input.role === 'owner') requireRole(actor, 'owner', 'Only an owner can invite another owner.');
  }
  const now = deps.clock.now();
  const user = await upsertUser(deps.db, {
    id: newId('user'),
    email: normalizeEmail(input.email),
    createdAt: now,
  });
  const existing = await findMembership(deps.db, input.accountId, user.id);
  if (existing?.role === 'owner' && input.role !== 'owner') await assertNotLastOwner(deps, input.accountId);
  await putMembership(deps.db, {
    accountId: input.accountId,
    userId: user.id,
    role: input.role,
    invitedBy: actor?.userId ?? null,
    at: now,
  });
  const link = await mintLink(deps, user, { purpose: 'invite', accountId: input.accountId, next: '/portal' });
  await sendLink(
    deps,
    user.email,
    link.url,
    `You are invited to ${account.name} on svc`,
    `join ${account.name}`,
  );
  await recordAudit(deps.db, {
    accountId: input.accountId,
    actor: actor ? `user:${actor.email}` : 'operator',
    action: 'member.invited',
    subject: user.id,
    data: { email: user.email, role: input.role },
    at: now,
  });
  return { userId: user.id, link: link.url, expiresAt: link.expiresAt };
}

async function assertNotLastOwner(deps: PortalDeps, accountId: string) {
  if ((await countOwners(deps.db, accountId)) <= 1)
    throw new AppError('INVALID_REQUEST', 'A firm keeps at least one owner; make someone else owner first.');
}

/**
 * Removes a member: their sessions in this firm end at once. Owners are removed only by owners,
 * and never the last one.
 */
export async function removeMember(deps: PortalDeps, actor: PortalPrincipal, userId: string) {
  requireRole(actor, 'admin');
  const membership = await findMembership(deps.db, actor.accountId, userId);
  if (!membership) throw new AppError('NOT_FOUND', 'No such member.');
  if (membership.role === 'owner') {
    requireRole(actor, 'owner', 'Only an owner can remove an owner.');
    await assertNotLastOwner(deps, actor.accountId);
  }
  const now = deps.clock.now();
  await deleteMembership(deps.db, actor.accountId, userId);
  await revokeSessionsInAccount(deps.db, userId, actor.accountId, now);
  await recordAudit(deps.db, {
    accountId: actor.accountId,
    actor: `user:${actor.email}`,
    action: 'member.removed',
    subject: userId,
    data: { role: membership.role },
    at: now,
  });
}

export async function listMembers(deps: PortalDeps, actor: PortalPrincipal) {
  const rows = await listMemberRows(deps.db, actor.accountId);
  return rows.map((m) => ({
    userId: m.userId,
    email: m.email,
    name: m.name,
    role: m.role,
    since: m.createdAt.toISOString(),
    lastSignInAt: m.lastSignInAt?.toISOString() ?? null,
    you: m.userId === actor.userId,
  }));
}
