import { withTransaction } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import type { MembershipRole } from '../../db/engine/schema.ts';
import { findAccountById } from '../../db/repos/accounts-repo.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import { closeOpenInvitations } from '../../db/repos/invitations-repo.ts';
import { insertPortalMail } from '../../db/repos/portal-mails-repo.ts';
import { revokeSessionsInAccount } from '../../db/repos/portal-sessions-repo.ts';
import {
  deleteMembership,
  findMembership,
  findUserByEmail,
  findUserById,
  listMembers as listMemberRows,
  lockMembershipsOf,
  type MembershipRow,
  putMembership,
  setMembershipRole,
  upsertUser,
} from '../../db/repos/users-repo.ts';
import { AppError } from '../../lib/errors.ts';
import { oneLine } from '../../mail/one-line.ts';
import { createInvitation } from './invitations.ts';
import { mintLink, sendLink } from './magic-links.ts';
import { actorOf, normalizeEmail, type PortalDeps, type PortalPrincipal } from './portal-deps.ts';
import { requireRole } from './roles.ts';

/**
 * A firm's admin or owner (the portal route's role) invites `email` (issue 23). Someone who is not yet a member gets an
 * invitation to accept (`createInvitation`): no membership exists before their answer. A member
 * of this firm already gets the new role at once, under the rules of `changeMemberRole` (so an
 * admin cannot demote an owner this way).
 */
export async function inviteToFirm(
  deps: PortalDeps,
  actor: PortalPrincipal,
  input: { email: string; role: MembershipRole },
): Promise<
  { status: 'invited'; invitationId: string; expiresAt: Date } | { status: 'role_changed'; userId: string }
> {
  if (input.role === 'owner') requireRole(actor, 'owner', 'Only an owner can invite another owner.');
  const email = normalizeEmail(input.email);
  const existing = await findUserByEmail(deps.db, email);
  const membership = existing ? await findMembership(deps.db, actor.accountId, existing.id) : undefined;
  if (existing && membership) {
    await changeMemberRole(deps, actor, existing.id, input.role);
    return { status: 'role_changed', userId: existing.id };
  }
  const invited = await createInvitation(deps, actor, { email, role: input.role });
  return { status: 'invited', ...invited };
}

/**
 * The operator's `svc user invite` (admin token): gives `email` a role in a firm at once and
 * returns a single-use sign-in link (also e-mailed). The person is created if new; an existing
 * member gets the new role, bound only by the last-owner rule. Firms invite through
 * `inviteToFirm`, which needs the invitee's acceptance; the operator runs the instance and may
 * give any account its first owner.
 */
export async function inviteMember(
  deps: PortalDeps,
  input: { accountId: string; email: string; role: MembershipRole; invitedBy: null },
): Promise<{ userId: string; link: string; expiresAt: Date }> {
  const account = await findAccountById(deps.db, input.accountId);
  if (!account) throw new AppError('NOT_FOUND', `No account ${input.accountId}.`);
  const now = deps.clock.now();
  const user = await upsertUser(deps.db, {
    id: newId('user'),
    email: normalizeEmail(input.email),
    createdAt: now,
  });
  await withTransaction(deps.db, async (tx) => {
    const rows = await lockMembershipsOf(tx, input.accountId);
    const existing = rows.find((m) => m.userId === user.id);
    if (existing) assertMayChange(null, rows, existing, input.role);
    await putMembership(tx, {
      accountId: input.accountId,
      userId: user.id,
      role: input.role,
      invitedBy: null,
      at: now,
    });
  });
  const link = await mintLink(deps, user, { purpose: 'invite', accountId: input.accountId, next: '/portal' });
  const { filePath } = await sendLink(
    deps,
    user.email,
    link.url,
    `You are invited to ${oneLine(account.name)} on svc`,
    `join ${oneLine(account.name)}`,
  );
  // Named for retention: the file goes once the link is dead.
  await insertPortalMail(deps.db, {
    id: newId('pm'),
    kind: 'invitation',
    status: 'sent',
    filePath,
    linkExpiresAt: link.expiresAt,
    createdAt: now,
  });
  await recordAudit(deps.db, {
    accountId: input.accountId,
    actor: 'operator',
    action: 'member.invited',
    subject: user.id,
    data: { email: user.email, role: input.role },
    at: now,
  });
  return { userId: user.id, link: link.url, expiresAt: link.expiresAt };
}

/**
 * The rules for changing or removing `target` (to `role`, or `null` for removal), checked against
 * the firm's membership rows as locked by `lockMembershipsOf`: only an owner changes or removes an
 * owner or makes someone owner, and the firm keeps at least one owner. The operator (actor null)
 * is bound only by the last-owner rule.
 */
function assertMayChange(
  actor: PortalPrincipal | null,
  rows: readonly MembershipRow[],
  target: MembershipRow,
  role: MembershipRole | null,
) {
  if (target.role === role) return;
  if (actor && (target.role === 'owner' || role === 'owner')) {
    const verb = role === null ? 'remove' : 'change the role of';
    requireRole(actor, 'owner', `Only an owner can ${verb} an owner or make someone owner.`);
  }
  const owners = rows.filter((m) => m.role === 'owner').length;
  if (target.role === 'owner' && owners <= 1)
    throw new AppError('INVALID_REQUEST', 'A firm keeps at least one owner; make someone else owner first.');
}

/**
 * Changes a member's role (the portal route needs an admin; owners are this function's rule). The check and the change run in one transaction with the firm's
 * membership rows locked, so two owners demoting each other at once cannot both succeed.
 */
export async function changeMemberRole(
  deps: PortalDeps,
  actor: PortalPrincipal,
  userId: string,
  role: MembershipRole,
) {
  const now = deps.clock.now();
  const from = await withTransaction(deps.db, async (tx) => {
    const rows = await lockMembershipsOf(tx, actor.accountId);
    const target = rows.find((m) => m.userId === userId);
    if (!target) throw new AppError('NOT_FOUND', 'No such member.');
    assertMayChange(actor, rows, target, role);
    await setMembershipRole(tx, actor.accountId, userId, role);
    return target.role;
  });
  if (from === role) return;
  // A grant lives only while its approver may approve (issue 27): a demotion to viewer ends theirs.
  if (role === 'viewer')
    await deps.endApproverGrants(
      { accountId: actor.accountId, approverUserId: userId },
      'approver_demoted',
      actorOf(actor),
    );
  await recordAudit(deps.db, {
    accountId: actor.accountId,
    actor: `user:${actor.email}`,
    action: 'member.role_changed',
    subject: userId,
    data: { from, to: role },
    at: now,
  });
}

/**
 * Removes a member (the portal route needs an admin): their sessions in this firm end at once. Owners are removed only by owners,
 * and never the last one; check and delete run with the membership rows locked.
 */
export async function removeMember(deps: PortalDeps, actor: PortalPrincipal, userId: string) {
  const now = deps.clock.now();
  const membership = await withTransaction(deps.db, async (tx) => {
    const rows = await lockMembershipsOf(tx, actor.accountId);
    const target = rows.find((m) => m.userId === userId);
    if (!target) throw new AppError('NOT_FOUND', 'No such member.');
    assertMayChange(actor, rows, target, null);
    await deleteMembership(tx, actor.accountId, userId);
    await revokeSessionsInAccount(tx, userId, actor.accountId, now);
    // Open offers to them, and the ones they sent, end with their membership.
    const user = await findUserById(tx, userId);
    await closeOpenInvitations(tx, actor.accountId, { email: user?.email, invitedBy: userId }, now);
    return target;
  });
  await deps.endApproverGrants(
    { accountId: actor.accountId, approverUserId: userId },
    'approver_removed',
    actorOf(actor),
  );
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
