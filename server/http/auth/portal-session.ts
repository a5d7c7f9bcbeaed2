import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { PortalDeps, PortalPrincipal } from '../../domain/accounts/portal-deps.ts';
import { SESSION_TTL_MS } from '../../domain/accounts/portal-deps.ts';
import { type PortalRole, requireRole } from '../../domain/accounts/roles.ts';
import { isValidCsrfToken, resolveSession } from '../../domain/accounts/sessions.ts';
import { AppError } from '../../lib/errors.ts';
import type { AppEnv } from '../app-env.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const CSRF_HEADER = 'X-CSRF-Token';

/**
 * The session cookie: HttpOnly, SameSite=Lax, Path=/; Secure with the `__Host-` prefix whenever
 * the portal is not plain-HTTP localhost (browsers drop Secure cookies on http://localhost in
 * some versions, and the prefix requires Secure).
 */
export function sessionCookie(portalUrl: string) {
  const url = new URL(portalUrl);
  const local =
    url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname.endsWith('.localhost'));
  const secure = !local;
  return {
    name: secure ? '__Host-svc_session' : 'svc_session',
    options: { httpOnly: true, secure, sameSite: 'Lax' as const, path: '/' },
  };
}

const BARE_NAME = 'svc_session';

export function setSessionCookie(c: Context, portalUrl: string, token: string) {
  const { options } = sessionCookie(portalUrl);
  // hono adds the `__Host-` prefix itself when told to, so it gets the bare name.
  setCookie(c, BARE_NAME, token, {
    ...options,
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
    ...(options.secure ? { prefix: 'host' as const } : {}),
  });
}

export function clearSessionCookie(c: Context, portalUrl: string) {
  const { options } = sessionCookie(portalUrl);
  deleteCookie(c, BARE_NAME, {
    path: '/',
    secure: options.secure,
    ...(options.secure ? { prefix: 'host' as const } : {}),
  });
}

export function sessionTokenOf(c: Context, portalUrl: string): string | undefined {
  return sessionCookie(portalUrl).options.secure ? getCookie(c, BARE_NAME, 'host') : getCookie(c, BARE_NAME);
}

/**
 * Cross-site request forgery, first line: a state-changing request must come from the portal's
 * own origin (`Origin`, or `Sec-Fetch-Site: same-origin` when a browser sends no Origin). Requests
 * with neither are not from a browser page and carry no ambient cookie worth protecting, but
 * signed-in ones still need the CSRF header below.
 */
export function assertSameOrigin(c: Context, portalUrl: string) {
  if (SAFE_METHODS.has(c.req.method)) return;
  const origin = c.req.header('origin');
  const fetchSite = c.req.header('sec-fetch-site');
  const expected = new URL(portalUrl).origin;
  if (origin !== undefined ? origin !== expected : fetchSite !== undefined && fetchSite !== 'same-origin')
    throw new AppError('FORBIDDEN', 'Cross-site requests are refused here.');
}

/**
 * Guards `/v1/portal/...`: a live session cookie (401 otherwise); for every state-changing method,
 * the same-origin check and the session's CSRF token in `X-CSRF-Token` (403 otherwise).
 */
export function requirePortalSession(deps: PortalDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    assertSameOrigin(c, deps.portalUrl);
    const token = sessionTokenOf(c, deps.portalUrl);
    const principal = token ? await resolveSession(deps, token) : undefined;
    if (!principal) throw new AppError('UNAUTHORIZED', 'Sign in to the portal first.');
    if (
      !SAFE_METHODS.has(c.req.method) &&
      !isValidCsrfToken(deps.pepper, principal.sessionId, c.req.header(CSRF_HEADER))
    )
      throw new AppError('FORBIDDEN', 'The CSRF token is missing or wrong; reload the page.');
    c.set('portal', principal);
    c.header('Cache-Control', 'no-store');
    await next();
  };
}

export const portalOf = (c: Context<AppEnv>): PortalPrincipal => {
  const principal = c.get('portal');
  if (!principal) throw new AppError('UNAUTHORIZED', 'Sign in to the portal first.');
  return principal;
};

/**
 * The role a portal route needs, as route middleware (`createRoute({ middleware: ... })`), so the
 * role is a property of the route and the handler calls the domain with the session's firm. It
 * runs before the request is validated: a viewer learns nothing about a write's body rules.
 * `viewer` is any member (the session guard already proved the membership); a missing role is
 * 403 FORBIDDEN naming what is needed.
 */
export function requirePortalRole(role: PortalRole, message?: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = portalOf(c);
    if (role !== 'viewer') requireRole(principal, role, message);
    await next();
  };
}
