import { createHmac, randomBytes } from 'node:crypto';
import { newId } from '../../db/engine/ids.ts';
import { findAccountById } from '../../db/repos/accounts-repo.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import {
  findLiveSession,
  insertPortalSession,
  listLiveSessionsOfUser,
  revokeSession,
  revokeSessionByToken,
  setSessionAccount,
  touchSession,
} from '../../db/repos/portal-sessions-repo.ts';
import {
  findMembership,
  findUserById,
  listMembershipsOfUser,
  touchUserSignIn,
} from '../../db/repos/users-repo.ts';
import { safeEqual } from '../../lib/constant-time.ts';
import { AppError } from '../../lib/errors.ts';
import { hmacSecret, toBase62 } from '../credentials/formats.ts';
import { type PortalDeps, type PortalPrincipal, SESSION_TTL_MS } from './portal-deps.ts';

const SESSION_PREFIX = 'svc_ps_';

/**
 * Starts a portal session after a successful sign-in (magic link or passkey). A new token every
 * time, so a session id planted before sign-in is worthless after it (rotation). The token goes
 * to the browser once, in the cookie; the database keeps its HMAC. The firm is the one asked for,
 * if the user belongs to it, else the user's first firm. A user without any firm cannot sign in.
 */
export async function startSession(
  deps: PortalDeps,
  input: {
    userId: string;
    method: 'magic_link' | 'passkey';
    accountId?: string | null;
    userAgent?: string;
    /** The session cookie the browser already had, if any: it ends here (rotation). */
    previousToken?: string;
  },
): Promise<{ token: string; principal: PortalPrincipal }> {
  const memberships = await listMembershipsOfUser(deps.db, input.userId);
  const chosen = memberships.find((m) => m.accountId === input.accountId) ?? memberships[0];
  const user = await findUserById(deps.db, input.userId);
  if (!chosen || !user) throw new AppError('FORBIDDEN', 'This person is not a member of any firm.');
  const token = SESSION_PREFIX + toBase62(randomBytes(32));
  const now = deps.clock.now();
  if (input.previousToken)
    await revokeSessionByToken(deps.db, hmacSecret(deps.pepper, input.previousToken), now);
  const row = await insertPortalSession(deps.db, {
    id: newId('ps'),
    userId: user.id,
    accountId: chosen.accountId,
    tokenHmac: hmacSecret(deps.pepper, token),
    method: input.method,
    userAgent: input.userAgent?.slice(0, 300) ?? null,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
  });
  await touchUserSignIn(deps.db, user.id, now);
  await recordAudit(deps.db, {
    accountId: chosen.accountId,
    actor: `user:${user.email}`,
    action: 'portal.signed_in',
    subject: user.id,
    data: { method: input.method },
    at: now,
  });
  return {
    token,
    principal: {
      sessionId: row.id,
      userId: user.id,
      email: user.email,
      accountId: chosen.accountId,
      role: chosen.role,
    },
  };
}

/**
 * The principal of a session cookie, or undefined. The membership is read on every request, so
 * removing a member or changing a role takes effect on the next one.
 */
export async function resolveSession(deps: PortalDeps, token: string): Promise<PortalPrincipal | undefined> {
  if (!token.startsWith(SESSION_PREFIX) || token.length > 100) return undefined;
  const now = deps.clock.now();
  const session = await findLiveSession(deps.db, hmacSecret(deps.pepper, token), now);
  if (!session) return undefined;
  const [membership, user] = await Promise.all([
    findMembership(deps.db, session.accountId, session.userId),
    findUserById(deps.db, session.userId),
  ]);
  if (!membership || !user) return undefined;
  if (now.getTime() - session.lastSeenAt.getTime() > 60_000) await touchSession(deps.db, session.id, now);
  return {
    sessionId: session.id,
    userId: user.id,
    email: user.email,
    accountId: session.accountId,
    role: membership.role,
  };
}

/** The CSRF token of a session: derived, so nothing more is stored; useless without the session. */
function csrfTokenOf(pepper: Buffer, sessionId: string): string {
  return createHmac('sha256', pepper).update(`csrf:${sessionId}`).digest('base64url');
}

export const isValidCsrfToken = (pepper: Buffer, sessionId: string, token: string | undefined) =>
  token !== undefined && safeEqual(token, csrfTokenOf(pepper, sessionId));

/**
 * What the portal shows of a session: who is signed in, the firm they work in with their role
 * there, every firm they may switch to, and the CSRF token their writes must carry.
 */
export async function describeSession(deps: PortalDeps, principal: PortalPrincipal) {
  const [firms, account] = await Promise.all([
    listMembershipsOfUser(deps.db, principal.userId),
    findAccountById(deps.db, principal.accountId),
  ]);
  return {
    user: { id: principal.userId, email: principal.email },
    firm: { id: principal.accountId, name: account?.name ?? '', role: principal.role },
    firms: firms.map((f) => ({ id: f.accountId, name: f.accountName, role: f.role })),
    csrfToken: csrfTokenOf(deps.pepper, principal.sessionId),
  };
}

/** Signs out one session of the caller (their current one or another device's); audited. */
export async function endSession(deps: PortalDeps, principal: PortalPrincipal, sessionId: string) {
  const now = deps.clock.now();
  const ended = await revokeSession(deps.db, principal.userId, sessionId, now);
  if (!ended) throw new AppError('NOT_FOUND', 'No such session.');
  await recordAudit(deps.db, {
    accountId: principal.accountId,
    actor: `user:${principal.email}`,
    action: 'portal.signed_out',
    subject: principal.userId,
    data: { device: sessionId === principal.sessionId ? 'this' : 'other' },
    at: now,
  });
}

export async function listSessions(deps: PortalDeps, principal: PortalPrincipal) {
  const rows = await listLiveSessionsOfUser(deps.db, principal.userId, deps.clock.now());
  return rows.map((s) => ({
    id: s.id,
    method: s.method,
    userAgent: s.userAgent,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
    current: s.id === principal.sessionId,
  }));
}

/** Moves the session to another firm the user belongs to. */
export async function switchAccount(deps: PortalDeps, principal: PortalPrincipal, accountId: string) {
  const membership = await findMembership(deps.db, accountId, principal.userId);
  if (!membership) throw new AppError('NOT_FOUND', 'No such firm.');
  await setSessionAccount(deps.db, principal.sessionId, accountId);
}
