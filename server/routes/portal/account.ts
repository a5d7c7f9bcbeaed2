import type { OpenAPIHono } from '@hono/zod-openapi';
import { createRoute, z } from '@hono/zod-openapi';
import {
  addPasskey,
  listPasskeys,
  passkeyRegistrationOptions,
  removePasskey,
} from '../../domain/accounts/passkeys.ts';
import { describeSession, endSession, listSessions, switchAccount } from '../../domain/accounts/sessions.ts';
import type { PortalAppDeps } from '../../domain/portal/deps.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { clearSessionCookie, portalOf } from '../../http/auth/portal-session.ts';
import { jsonBody } from '../schemas.ts';
import * as A from './answers.ts';
import { anyMember, IdParam, JsonObject, portalOk, portalSecurity } from './schemas.ts';

const tags = ['Portal'];
const security = portalSecurity;

const routes = {
  session: createRoute({
    method: 'get',
    path: '/portal/session',
    tags,
    security,
    middleware: anyMember,
    summary: 'Who is signed in, in which firm, with which role; the CSRF token for writes',
    responses: portalOk('The session', A.PortalSession),
  }),
  signOut: createRoute({
    method: 'post',
    path: '/portal/session/sign-out',
    tags,
    security,
    middleware: anyMember,
    summary: 'End this session',
    responses: portalOk('Signed out', A.SignedOut),
  }),
  switchFirm: createRoute({
    method: 'post',
    path: '/portal/session/account',
    tags,
    security,
    middleware: anyMember,
    summary: 'Work in another firm you belong to',
    request: jsonBody(z.object({ accountId: z.string().min(1).max(64) })),
    responses: portalOk('Switched', A.Switched, 404),
  }),
  sessions: createRoute({
    method: 'get',
    path: '/portal/sessions',
    tags,
    security,
    middleware: anyMember,
    summary: 'Your signed-in sessions',
    responses: portalOk('Sessions', A.SessionList),
  }),
  revokeSession: createRoute({
    method: 'post',
    path: '/portal/sessions/{id}/revoke',
    tags,
    security,
    middleware: anyMember,
    summary: 'Sign out a session (this device or another)',
    request: { params: IdParam },
    responses: portalOk('Revoked', A.Revoked, 404),
  }),
  passkeys: createRoute({
    method: 'get',
    path: '/portal/passkeys',
    tags,
    security,
    middleware: anyMember,
    summary: 'Your passkeys',
    responses: portalOk('Passkeys', A.PasskeyList),
  }),
  passkeyOptions: createRoute({
    method: 'post',
    path: '/portal/passkeys/options',
    tags,
    security,
    middleware: anyMember,
    summary: 'WebAuthn creation options for adding a passkey',
    responses: portalOk('Options and the challenge id', A.PasskeyRegistrationOptions),
  }),
  addPasskey: createRoute({
    method: 'post',
    path: '/portal/passkeys',
    tags,
    security,
    middleware: anyMember,
    summary: 'Verify and store a new passkey',
    request: jsonBody(
      z.object({
        challengeId: z.string().min(1).max(64),
        response: JsonObject,
        name: z.string().max(60).optional(),
      }),
    ),
    responses: portalOk('The passkey', A.AddedPasskey, 400),
  }),
  removePasskey: createRoute({
    method: 'delete',
    path: '/portal/passkeys/{id}',
    tags,
    security,
    middleware: anyMember,
    summary: 'Remove one of your passkeys',
    request: { params: IdParam },
    responses: portalOk('Removed', A.Removed, 404),
  }),
};

/** The signed-in person's own things: session, firms, sessions and passkeys. */
export function registerPortalAccountRoutes(router: OpenAPIHono<AppEnv>, deps: PortalAppDeps) {
  router.openapi(routes.session, async (c) => {
    const session = await describeSession(deps, portalOf(c));
    const urls = {
      api: `${deps.apiUrl}/v1`,
      mcp: `${deps.apiUrl}/v1/mcp`,
      embed: deps.embedUrl,
      portal: deps.portalUrl,
    };
    return c.json({ ...session, urls }, 200);
  });
  router.openapi(routes.signOut, async (c) => {
    const p = portalOf(c);
    await endSession(deps, p, p.sessionId);
    clearSessionCookie(c, deps.portalUrl);
    return c.json({ signedOut: true }, 200);
  });
  router.openapi(routes.switchFirm, async (c) => {
    await switchAccount(deps, portalOf(c), c.req.valid('json').accountId);
    return c.json({ switched: true }, 200);
  });
  router.openapi(routes.sessions, async (c) => c.json({ data: await listSessions(deps, portalOf(c)) }, 200));
  router.openapi(routes.revokeSession, async (c) => {
    const p = portalOf(c);
    const { id } = c.req.valid('param');
    await endSession(deps, p, id);
    if (id === p.sessionId) clearSessionCookie(c, deps.portalUrl);
    return c.json({ revoked: true }, 200);
  });
  router.openapi(routes.passkeys, async (c) => c.json({ data: await listPasskeys(deps, portalOf(c)) }, 200));
  router.openapi(routes.passkeyOptions, async (c) =>
    c.json(await passkeyRegistrationOptions(deps, portalOf(c)), 200),
  );
  router.openapi(routes.addPasskey, async (c) => {
    const body = c.req.valid('json');
    const passkey = await addPasskey(deps, portalOf(c), {
      challengeId: body.challengeId,
      response: body.response as never,
      ...(body.name ? { name: body.name } : {}),
    });
    return c.json({ passkey }, 200);
  });
  router.openapi(routes.removePasskey, async (c) => {
    await removePasskey(deps, portalOf(c), c.req.valid('param').id);
    return c.json({ removed: true }, 200);
  });
}
