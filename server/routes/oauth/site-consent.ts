import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { PortalDeps } from '../../domain/accounts/portal-deps.ts';
import {
  approveConnectRequest,
  denyConnectRequest,
  describeConnectRequest,
} from '../../domain/portal/connect-consent.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { portalOf, requirePortalRole } from '../../http/auth/portal-session.ts';
import * as A from '../portal/answers.ts';
import { anyMember, portalOk, portalSecurity } from '../portal/schemas.ts';
import { jsonBody } from '../schemas.ts';

const tags = ['Portal Connect'];
const security = portalSecurity;

const Params = z.object({
  response_type: z.string().max(20),
  client_id: z.string().max(200),
  redirect_uri: z.string().max(2000),
  state: z.string().max(500).optional(),
  code_challenge: z.string().max(200),
  code_challenge_method: z.string().max(20),
  site_domain: z.string().max(253),
  scope: z.string().max(100).optional().openapi({
    description: 'Space-separated `site`, `leads:read`, `admin`; absent = what the host may have',
    example: 'site leads:read',
  }),
});

const approveRole = requirePortalRole('admin', 'Only an owner or admin can connect a site.');

const routes = {
  describe: createRoute({
    method: 'get',
    path: '/portal/connect',
    tags,
    security,
    middleware: anyMember,
    summary: 'Check an /oauth/authorize request and describe it for the consent page',
    request: { query: Params },
    responses: portalOk(
      'Who asks, for which site, which access; the licenses that fit',
      A.ConnectRequest,
      400,
    ),
  }),
  approve: createRoute({
    method: 'post',
    path: '/portal/connect/approve',
    tags,
    security,
    middleware: approveRole,
    summary: 'Approve: mint a single-use code; answers where to send the browser',
    request: jsonBody(Params.extend({ license_id: z.string().min(1).max(64) })),
    responses: portalOk('redirectTo = redirect_uri?code=…&state=…', A.RedirectTo, 400, 404),
  }),
  deny: createRoute({
    method: 'post',
    path: '/portal/connect/deny',
    tags,
    security,
    middleware: anyMember,
    summary: 'Deny: answers redirect_uri?error=access_denied&state=…',
    request: jsonBody(Params),
    responses: portalOk('redirectTo', A.RedirectTo, 400),
  }),
};

/** The consent step of Connect (the page itself is `GET /oauth/authorize`, served by the portal app). */
export function registerPortalConnectRoutes(router: OpenAPIHono<AppEnv>, deps: PortalDeps) {
  router.openapi(routes.describe, async (c) =>
    c.json(await describeConnectRequest(deps, portalOf(c), c.req.valid('query')), 200),
  );
  router.openapi(routes.approve, async (c) =>
    c.json(await approveConnectRequest(deps, portalOf(c), c.req.valid('json')), 200),
  );
  router.openapi(routes.deny, (c) => c.json(denyConnectRequest(c.req.valid('json')), 200));
}
