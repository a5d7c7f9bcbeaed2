import { createRoute, z } from '@hono/zod-openapi';
import {
  acceptInvitation,
  declineInvitation,
  describeInvitation,
} from '../../domain/accounts/invitations.ts';
import { redeemLink, safeNextPath } from '../../domain/accounts/magic-links.ts';
import { passkeySignInOptions, verifyPasskeySignIn } from '../../domain/accounts/passkeys.ts';
import { normalizeEmail } from '../../domain/accounts/portal-deps.ts';
import { startSession } from '../../domain/accounts/sessions.ts';
import { requestSignInLink } from '../../domain/accounts/sign-in-mails.ts';
import type { PortalAppDeps } from '../../domain/portal/deps.ts';
import { knownBrowserOf, rememberBrowser } from '../../http/auth/known-browser.ts';
import { assertSameOrigin, sessionTokenOf, setSessionCookie } from '../../http/auth/portal-session.ts';
import { createRouter } from '../../http/openapi-router.ts';
import type { SignInLimiter } from '../../http/rate-limit/sign-in-limiter.ts';
import { clientIp, ipRateKey, type TrustProxy } from '../../http/requests/client-ip.ts';
import { errorResponses, jsonBody, jsonResponse } from '../schemas.ts';
import * as A from './answers.ts';
import { JsonObject } from './schemas.ts';

const tags = ['Portal sign-in'];
const Token = z.object({ token: z.string().min(1).max(200) });

const routes = {
  email: createRoute({
    method: 'post',
    path: '/portal/auth/email',
    tags,
    summary: 'E-mail a single-use sign-in link (same answer whether or not the address is known)',
    request: jsonBody(z.object({ email: z.email().max(254), next: z.string().max(2000).optional() })),
    responses: {
      202: jsonResponse('Accepted', A.LinkSent),
      ...errorResponses(400, 403),
    },
  }),
  link: createRoute({
    method: 'post',
    path: '/portal/auth/link',
    tags,
    summary: 'Redeem a sign-in link (once); sets the session cookie',
    request: jsonBody(z.object({ token: z.string().min(1).max(200) })),
    responses: { 200: jsonResponse('Signed in', A.SignedIn), ...errorResponses(400, 401, 403) },
  }),
  invitationLookup: createRoute({
    method: 'post',
    path: '/portal/invitations/lookup',
    tags,
    summary: 'What an invitation offers (firm, role, address) before the invitee decides',
    request: jsonBody(Token),
    responses: {
      200: jsonResponse('The invitation', A.InvitationOffer),
      ...errorResponses(400, 401, 403),
    },
  }),
  invitationAccept: createRoute({
    method: 'post',
    path: '/portal/invitations/accept',
    tags,
    summary: 'Accept an invitation (once): become a member and sign in as yourself; sets the session cookie',
    request: jsonBody(Token),
    responses: { 200: jsonResponse('Joined and signed in', A.SignedIn), ...errorResponses(400, 401, 403) },
  }),
  invitationDecline: createRoute({
    method: 'post',
    path: '/portal/invitations/decline',
    tags,
    summary: 'Decline an invitation: nobody becomes a member',
    request: jsonBody(Token),
    responses: {
      200: jsonResponse('Declined', A.Declined),
      ...errorResponses(400, 401, 403),
    },
  }),
  passkeyOptions: createRoute({
    method: 'post',
    path: '/portal/auth/passkey/options',
    tags,
    summary: 'WebAuthn request options for signing in with a passkey',
    responses: {
      200: jsonResponse('Options and the challenge id', A.PasskeySignInOptions),
      ...errorResponses(403),
    },
  }),
  passkeyVerify: createRoute({
    method: 'post',
    path: '/portal/auth/passkey/verify',
    tags,
    summary: 'Verify a passkey assertion; sets the session cookie',
    request: jsonBody(
      z.object({
        challengeId: z.string().min(1).max(64),
        response: JsonObject,
        next: z.string().max(2000).optional(),
      }),
    ),
    responses: { 200: jsonResponse('Signed in', A.SignedIn), ...errorResponses(400, 401, 403) },
  }),
};

/**
 * Sign-in endpoints (no session yet). Each checks that it is called from the portal's own origin
 * and counts against the sign-in limits per IP (and per e-mail address and IP for links).
 */
export function createPortalAuthRoutes(deps: PortalAppDeps, limiter: SignInLimiter, trustProxy: TrustProxy) {
  const router = createRouter();
  const guard = async (c: Parameters<typeof clientIp>[0], email?: string) => {
    assertSameOrigin(c, deps.portalUrl);
    // Keyed by network as every other limit is (an IPv6 client rotates through its /64 at will).
    await limiter.consume({ ip: ipRateKey(clientIp(c, trustProxy)), ...(email ? { email } : {}) });
  };
  router.openapi(routes.email, async (c) => {
    const { email, next } = c.req.valid('json');
    const address = normalizeEmail(email);
    await guard(c, address);
    // Over the address's silent mail cap the answer is the same 202 and nothing is sent; a browser
    // that signed in as this address before has its own allowance, which strangers cannot use up.
    if (await limiter.mayMail(address, knownBrowserOf(c, deps, address)))
      await requestSignInLink(deps, address, next);
    return c.json({ sent: true as const }, 202);
  });
  router.openapi(routes.link, async (c) => {
    await guard(c);
    const link = await redeemLink(deps, c.req.valid('json').token);
    const { token, principal } = await startSession(deps, {
      userId: link.userId,
      method: 'magic_link',
      accountId: link.accountId,
      userAgent: c.req.header('user-agent') ?? '',
      previousToken: sessionTokenOf(c, deps.portalUrl),
    });
    setSessionCookie(c, deps.portalUrl, token);
    rememberBrowser(c, deps, principal.email);
    return c.json({ next: link.next }, 200);
  });
  router.openapi(routes.invitationLookup, async (c) => {
    await guard(c);
    return c.json(await describeInvitation(deps, c.req.valid('json').token), 200);
  });
  router.openapi(routes.invitationAccept, async (c) => {
    await guard(c);
    const joined = await acceptInvitation(deps, c.req.valid('json').token);
    const { token, principal } = await startSession(deps, {
      ...joined,
      method: 'magic_link',
      userAgent: c.req.header('user-agent') ?? '',
      previousToken: sessionTokenOf(c, deps.portalUrl),
    });
    setSessionCookie(c, deps.portalUrl, token);
    rememberBrowser(c, deps, principal.email);
    return c.json({ next: '/portal/' }, 200);
  });
  router.openapi(routes.invitationDecline, async (c) => {
    await guard(c);
    await declineInvitation(deps, c.req.valid('json').token);
    return c.json({ declined: true as const }, 200);
  });
  router.openapi(routes.passkeyOptions, async (c) => {
    await guard(c);
    return c.json(await passkeySignInOptions(deps), 200);
  });
  router.openapi(routes.passkeyVerify, async (c) => {
    await guard(c);
    const body = c.req.valid('json');
    const { userId } = await verifyPasskeySignIn(deps, {
      challengeId: body.challengeId,
      response: body.response as never,
    });
    const { token, principal } = await startSession(deps, {
      userId,
      method: 'passkey',
      userAgent: c.req.header('user-agent') ?? '',
      previousToken: sessionTokenOf(c, deps.portalUrl),
    });
    setSessionCookie(c, deps.portalUrl, token);
    rememberBrowser(c, deps, principal.email);
    return c.json({ next: safeNextPath(body.next) }, 200);
  });
  return router;
}
