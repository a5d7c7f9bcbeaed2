import { randomBytes } from 'node:crypto';
import { html } from 'hono/html';
import { withTransaction } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import type { MembershipRole } from '../../db/engine/schema.ts';
import { findAccountById } from '../../db/repos/accounts-repo.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import {
  closeInvitation,
  closeOpenInvitations,
  countRecentInvitations,
  findOpenInvitation,
  insertInvitation,
  listOpenInvitations,
  lockInvitationCounters,
} from '../../db/repos/invitations-repo.ts';
import { insertPortalMail } from '../../db/repos/portal-mails-repo.ts';
import { findMembership, putMembership, upsertUser } from '../../db/repos/users-repo.ts';
import { AppError } from '../../lib/errors.ts';
import { htmlText } from '../../lib/html.ts';
import { oneLine } from '../../mail/one-line.ts';
import { hmacSecret, toBase62 } from '../credentials/formats.ts';
import { INVITE_LINK_TTL_MS, type PortalDeps, type PortalPrincipal } from './portal-deps.ts';

const TOKEN_PREFIX = 'svc_inv_';
const DAY_MS = 86_400_000;
/** Invitations one address may receive in a day, from all firms together. */
const INVITATIONS_PER_ADDRESS_PER_DAY = 3;
/** Invitations one firm may send in a day. */
const INVITATIONS_PER_FIRM_PER_DAY = 20;

/**
 * A firm invites `email` (issue 23): an offer, not a membership. The invitation row holds the
 * token's HMAC and lives 72 hours; the link goes by mail to the address only. The counters are
 * checked and the row inserted under advisory locks, so invitations sent at once cannot slip past
 * the daily limits (3 per address across firms, 20 per firm): over either, 429 RATE_LIMITED.
 */
export async function createInvitation(
  deps: PortalDeps,
  actor: PortalPrincipal,
  input: { email: string; role: MembershipRole },
): Promise<{ invitationId: string; expiresAt: Date }> {
  const account = await findAccountById(deps.db, actor.accountId);
  if (!account) throw new AppError('NOT_FOUND', 'No such firm.');
  const token = TOKEN_PREFIX + toBase62(randomBytes(32));
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + INVITE_LINK_TTL_MS);
  const id = newId('inv');
  await withTransaction(deps.db, async (tx) => {
    await lockInvitationCounters(tx, actor.accountId, input.email);
    const recent = await countRecentInvitations(tx, {
      accountId: actor.accountId,
      email: input.email,
      since: new Date(now.getTime() - DAY_MS),
    });
    if (recent.toAddress >= INVITATIONS_PER_ADDRESS_PER_DAY)
      throw tooMany(
        `This address has had ${INVITATIONS_PER_ADDRESS_PER_DAY} invitations today. Try again tomorrow.`,
      );
    if (recent.fromFirm >= INVITATIONS_PER_FIRM_PER_DAY)
      throw tooMany(
        `Your firm has sent ${INVITATIONS_PER_FIRM_PER_DAY} invitations today. Try again tomorrow.`,
      );
    await insertInvitation(tx, {
      id,
      accountId: actor.accountId,
      email: input.email,
      role: input.role,
      tokenHmac: hmacSecret(deps.pepper, token),
      invitedBy: actor.userId,
      createdAt: now,
      expiresAt,
    });
  });
  const url = `${deps.portalUrl}/portal/invitation#token=${token}`;
  await mailInvitation(deps, { to: input.email, firmName: account.name, role: input.role, url, expiresAt });
  await recordAudit(deps.db, {
    accountId: actor.accountId,
    actor: `user:${actor.email}`,
    action: 'member.invited',
    subject: id,
    data: { email: input.email, role: input.role },
    at: now,
  });
  return { invitationId: id, expiresAt };
}

const tooMany = (message: string) =>
  new AppError('RATE_LIMITED', message, { headers: { 'Retry-After': String(DAY_MS / 1000) } });

/**
 * The invitation mail. The firm's name is whatever the firm typed: on one line, in quotes, after
 * our own words, so it cannot pass for a line of ours. The file (without SMTP) is named in
 * `portal_mails` with the invitation's expiry, so retention removes it once the link is dead.
 */
async function mailInvitation(
  deps: PortalDeps,
  mail: { to: string; firmName: string; role: MembershipRole; url: string; expiresAt: Date },
) {
  const firm = `“${oneLine(mail.firmName).slice(0, 100)}”`;
  const text = [
    `Someone at the firm named ${firm} invited you to its svc portal as ${mail.role}.`,
    '',
    'To accept or decline, open this link (it works once, for 72 hours):',
    '',
    mail.url,
    '',
    'You will see the firm and the role before you decide. If you do not know this firm, ignore this message: nothing happens without your answer.',
    '',
  ].join('\n');
  const id = newId('mail');
  const { filePath } = await deps.mailer.send({
    id,
    from: deps.mailFrom,
    to: [mail.to],
    subject: 'An invitation to a firm’s svc portal',
    text,
    html: htmlText(
      html`${text.split('\n\n').map((p) => html`<p>${p === mail.url ? html`<a href="${p}">${p}</a>` : p}</p>`)}`,
    ),
  });
  await insertPortalMail(deps.db, {
    id,
    kind: 'invitation',
    status: 'sent',
    filePath,
    linkExpiresAt: mail.expiresAt,
    createdAt: deps.clock.now(),
  });
}

const notValid = () =>
  new AppError('UNAUTHORIZED', 'This invitation is not valid any more. Ask the firm for a new one.');

async function openInvitation(deps: PortalDeps, token: string, db = deps.db, forUpdate = false) {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) throw notValid();
  const row = await findOpenInvitation(db, hmacSecret(deps.pepper, token), forUpdate);
  if (!row || row.expiresAt.getTime() <= deps.clock.now().getTime()) throw notValid();
  return row;
}

/** What the invitee sees before deciding: the firm, the role, the address it was sent to. */
export async function describeInvitation(deps: PortalDeps, token: string) {
  const row = await openInvitation(deps, token);
  const account = await findAccountById(deps.db, row.accountId);
  return {
    firmName: account?.name ?? '',
    role: row.role,
    email: row.email,
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * The invitee accepts: the link proves they hold the address, so the person (created if new)
 * becomes a member with the invited role and is signed in as themselves. Someone who is already
 * a member keeps their role: an invitation never demotes. The token works once.
 */
export async function acceptInvitation(
  deps: PortalDeps,
  token: string,
): Promise<{ userId: string; accountId: string }> {
  const now = deps.clock.now();
  const accepted = await withTransaction(deps.db, async (tx) => {
    const row = await openInvitation(deps, token, tx, true);
    // The offer stands only while its sender could still make it: a member of the firm, an owner
    // for an owner's invitation (an admin removed or demoted since cannot come back through it).
    const inviter = row.invitedBy ? await findMembership(tx, row.accountId, row.invitedBy) : undefined;
    if (
      row.invitedBy &&
      (!inviter || (row.role === 'owner' ? inviter.role !== 'owner' : inviter.role === 'viewer'))
    )
      throw notValid();
    const user = await upsertUser(tx, { id: newId('user'), email: row.email, createdAt: now });
    if (!(await findMembership(tx, row.accountId, user.id)))
      await putMembership(tx, {
        accountId: row.accountId,
        userId: user.id,
        role: row.role,
        invitedBy: row.invitedBy,
        at: now,
      });
    await closeInvitation(tx, row.id, { acceptedAt: now });
    // Any other offer to this address is spent: a member removed later cannot rejoin with one.
    await closeOpenInvitations(tx, row.accountId, { email: row.email }, now);
    return { row, userId: user.id };
  });
  await recordAudit(deps.db, {
    accountId: accepted.row.accountId,
    actor: `user:${accepted.row.email}`,
    action: 'member.joined',
    subject: accepted.userId,
    data: { role: accepted.row.role },
    at: now,
  });
  return { userId: accepted.userId, accountId: accepted.row.accountId };
}

/** The invitee declines: the invitation closes and nobody becomes a member. */
export async function declineInvitation(deps: PortalDeps, token: string): Promise<void> {
  const now = deps.clock.now();
  const row = await withTransaction(deps.db, async (tx) => {
    const open = await openInvitation(deps, token, tx, true);
    await closeInvitation(tx, open.id, { declinedAt: now });
    return open;
  });
  await recordAudit(deps.db, {
    accountId: row.accountId,
    actor: `user:${row.email}`,
    action: 'member.invitation_declined',
    subject: row.id,
    at: now,
  });
}

/** A firm's invitations still waiting for an answer: what the firm itself sent, nothing more. */
export async function listInvitations(deps: PortalDeps, actor: PortalPrincipal) {
  const rows = await listOpenInvitations(deps.db, actor.accountId, deps.clock.now());
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    role: r.role,
    sentAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
  }));
}
