import { randomBytes } from 'node:crypto';
import { html } from 'hono/html';
import { newId } from '../../db/engine/ids.ts';
import { claimMagicLink, insertMagicLink } from '../../db/repos/portal-sessions-repo.ts';
import type { UserRow } from '../../db/repos/users-repo.ts';
import { AppError } from '../../lib/errors.ts';
import { htmlText } from '../../lib/html.ts';
import { hmacSecret, toBase62 } from '../credentials/formats.ts';
import { INVITE_LINK_TTL_MS, type PortalDeps, SIGN_IN_LINK_TTL_MS } from './portal-deps.ts';

const LINK_PREFIX = 'svc_ml_';

/** Only same-origin portal paths may follow a sign-in (no open redirect). */
export function safeNextPath(next: string | undefined | null): string | null {
  if (!next || next.length > 2000) return null;
  const consent = next.startsWith('/oauth/authorize?') || next.startsWith('/oauth/authorize/mcp?');
  if (!(next.startsWith('/portal') || consent)) return null;
  if (next.startsWith('//') || next.includes('\\')) return null;
  return next;
}

/** Mints a single-use link for `user`; its token exists only in the returned URL. */
export async function mintLink(
  deps: PortalDeps,
  user: UserRow,
  opts: { purpose: 'sign_in' | 'invite'; accountId?: string; next?: string | null; ttlMs?: number },
): Promise<{ url: string; expiresAt: Date }> {
  const token = LINK_PREFIX + toBase62(randomBytes(32));
  const now = deps.clock.now();
  const ttl = opts.ttlMs ?? (opts.purpose === 'invite' ? INVITE_LINK_TTL_MS : SIGN_IN_LINK_TTL_MS);
  const expiresAt = new Date(now.getTime() + ttl);
  await insertMagicLink(deps.db, {
    id: newId('ml'),
    userId: user.id,
    accountId: opts.accountId ?? null,
    tokenHmac: hmacSecret(deps.pepper, token),
    purpose: opts.purpose,
    nextPath: safeNextPath(opts.next),
    expiresAt,
    createdAt: now,
  });
  // The token travels in the fragment: it never reaches a server log, a proxy or a Referer.
  return { url: `${deps.portalUrl}/portal/sign-in/link#token=${token}`, expiresAt };
}

export async function sendLink(deps: PortalDeps, to: string, url: string, subject: string, purpose: string) {
  const minutes = Math.round(SIGN_IN_LINK_TTL_MS / 60_000);
  const text = `Use this link to ${purpose}:\n\n${url}\n\nIt works once${subject.includes('invit') ? '' : ` and for ${minutes} minutes`}. If you did not ask for it, ignore this message.\n`;
  const { filePath } = await deps.mailer.send({
    id: newId('mail'),
    from: deps.mailFrom,
    to: [to],
    subject,
    text,
    html: htmlText(
      html`<p>Use this link to ${purpose}:</p><p><a href="${url}">${url}</a></p><p>${text.split('\n\n')[2] ?? ''}</p>`,
    ),
  });
  // Offline demo: the link is in the outbox file; say where, never print the token itself here.
  if (filePath) deps.logger.info({ outbox: filePath }, 'mail written');
  return { filePath };
}

/**
 * Redeems a link once. Expired, unknown and used links get the same answer. Returns whom to sign
 * in, into which firm, and where to go next.
 */
export async function redeemLink(deps: PortalDeps, token: string) {
  const invalid = () =>
    new AppError('UNAUTHORIZED', 'This sign-in link is not valid any more. Ask for a new one.');
  if (!token.startsWith(LINK_PREFIX) || token.length > 100) throw invalid();
  const now = deps.clock.now();
  const link = await claimMagicLink(deps.db, hmacSecret(deps.pepper, token), now);
  if (!link || link.expiresAt.getTime() <= now.getTime()) throw invalid();
  return { userId: link.userId, accountId: link.accountId, next: link.nextPath };
}
