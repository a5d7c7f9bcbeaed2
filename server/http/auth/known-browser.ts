import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { sessionCookie } from './portal-session.ts';

const BARE_NAME = 'svc_known';
/** Renewed by every sign-in; browsers cap a cookie's life at 400 days anyway. */
const TTL_S = 180 * 86_400;

interface Keys {
  pepper: Buffer;
  portalUrl: string;
  clock: { now(): Date };
}

const macOf = (keys: Keys, email: string, issued: number) =>
  createHmac('sha256', keys.pepper).update(`known-browser|${email}|${issued}`).digest('base64url');

/**
 * After a completed sign-in: this browser is remembered as one that signed in as `email` (a
 * normalised address), so its own requests for a sign-in mail get an allowance that strangers'
 * requests cannot use up (`knownBrowserOf`). The cookie holds a time and an HMAC of the address
 * and that time, never the address; HttpOnly, SameSite=Strict, Secure and `__Host-` as the session
 * cookie is. One address per browser: the last one signed in.
 */
export function rememberBrowser(c: Context, keys: Keys, email: string): void {
  const { options } = sessionCookie(keys.portalUrl);
  const issued = Math.floor(keys.clock.now().getTime() / 1000);
  setCookie(c, BARE_NAME, `${issued}.${macOf(keys, email, issued)}`, {
    ...options,
    sameSite: 'Strict',
    maxAge: TTL_S,
    ...(options.secure ? { prefix: 'host' as const } : {}),
  });
}

/**
 * An id of this browser for `email` when it carries an unexpired cookie from a sign-in as that
 * address; undefined for no cookie, a forged or expired one, or one for another address.
 */
export function knownBrowserOf(c: Context, keys: Keys, email: string): string | undefined {
  const secure = sessionCookie(keys.portalUrl).options.secure;
  const value = (secure ? getCookie(c, BARE_NAME, 'host') : getCookie(c, BARE_NAME)) ?? '';
  const parts = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!parts) return undefined;
  const issued = Number(parts[1]);
  if ((issued + TTL_S) * 1000 <= keys.clock.now().getTime()) return undefined;
  const expected = macOf(keys, email, issued);
  if (!timingSafeEqual(Buffer.from(parts[2]!), Buffer.from(expected))) return undefined;
  return expected.slice(0, 22);
}
