import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { PortalDeps } from '../../domain/accounts/portal-deps.ts';
import { listConnectedApps, revokeConnectedApp } from '../../domain/oauth/grants.ts';
import { decideMcpConsent, describeMcpConsent } from '../../domain/oauth/mcp-consent.ts';
import type { OAuthDeps } from '../../domain/oauth/mcp-resource.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { portalOf } from '../../http/auth/portal-session.ts';
import * as A from '../portal/answers.ts';
import { adminOnly, anyMember, portalOk, portalSecurity } from '../portal/schemas.ts';
import { errorResponses, jsonBody } from '../schemas.ts';

const security = portalSecurity;

/** The query of an MCP `/oauth/authorize` request, passed on by the consent page as it came. */
const AuthorizeParams = z.object({
  response_type: z.string().max(20),
  client_id: z.string().max(2000),
  redirect_uri: z.string().max(2000),
  state: z.string().max(500).optional(),
  code_challenge: z.string().max(200),
  code_challenge_method: z.string().max(20),
  scope: z.string().max(500).optional(),
  resource: z.string().max(2000).optional(),
});

const routes = {
  describe: createRoute({
    method: 'get',
    path: '/portal/oauth/mcp-consent',
    tags: ['Portal Connect'],
    security,
    middleware: anyMember,
    summary: 'Check an MCP /oauth/authorize request and describe it for the consent page',
    description:
      'A 400 INVALID_REQUEST lists the problem in `details`; once the redirect URI is known to be the client’s, the detail carries `redirectTo` (error, state, iss) to send the browser back.',
    request: { query: AuthorizeParams },
    responses: portalOk('Which application, where it returns, which firm, what access', A.McpConsent, 400),
  }),
  decide: createRoute({
    method: 'post',
    path: '/portal/oauth/mcp-consent',
    tags: ['Portal Connect'],
    security,
    middleware: anyMember,
    summary: 'Approve (owners and admins) or deny an MCP authorization request',
    description:
      'On approval the grant holds `leads:read` plus each optional scope the application asked for (`scope`) that the approver ticked (`approvedScopes`); an optional scope not ticked is not granted.',
    request: jsonBody(
      AuthorizeParams.extend({
        decision: z.enum(['approve', 'deny']),
        approvedScopes: z.array(z.string().max(40)).max(10).optional(),
      }),
    ),
    responses: portalOk(
      'redirectTo = redirect_uri?code=…&state=…&iss=… (or error=access_denied)',
      A.RedirectTo,
      400,
    ),
  }),
  list: createRoute({
    method: 'get',
    path: '/portal/connected-apps',
    tags: ['Portal'],
    security,
    middleware: anyMember,
    summary: 'AI applications connected to the firm by OAuth (live grants)',
    responses: portalOk('The firm’s connected apps', A.ConnectedApps),
  }),
  revoke: createRoute({
    method: 'post',
    path: '/portal/connected-apps/{grantId}/revoke',
    tags: ['Portal'],
    security,
    middleware: adminOnly,
    summary: 'Disconnect an AI application: its tokens stop working on the next call',
    request: { params: z.object({ grantId: z.string().min(1).max(64) }) },
    responses: { 204: { description: 'Revoked' }, ...errorResponses(401, 403, 404) },
  }),
};

/** The portal's side of OAuth for MCP clients: the consent step and Settings → Connected apps. */
export function registerPortalMcpOAuthRoutes(router: OpenAPIHono<AppEnv>, deps: PortalDeps & OAuthDeps) {
  router.openapi(routes.describe, async (c) =>
    c.json(await describeMcpConsent(deps, portalOf(c), c.req.valid('query')), 200),
  );
  router.openapi(routes.decide, async (c) =>
    c.json(await decideMcpConsent(deps, portalOf(c), c.req.valid('json')), 200),
  );
  router.openapi(routes.list, async (c) => c.json(await listConnectedApps(deps, portalOf(c)), 200));
  router.openapi(routes.revoke, async (c) => {
    await revokeConnectedApp(deps, portalOf(c), c.req.valid('param').grantId);
    return c.body(null, 204);
  });
}
