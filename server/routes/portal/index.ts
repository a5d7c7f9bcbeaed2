import type { PortalDeps } from '../../domain/accounts/portal-deps.ts';
import type { OAuthDeps } from '../../domain/oauth/mcp-resource.ts';
import type { TrustProxy } from '../../http/client-ip.ts';
import { createRouter } from '../../http/openapi-router.ts';
import { requirePortalSession } from '../../http/portal-session.ts';
import type { SignInLimiter } from '../../http/sign-in-limiter.ts';
import { registerPortalAccountRoutes } from './portal-account.ts';
import { createPortalAuthRoutes } from './portal-auth.ts';
import { registerPortalConnectRoutes } from './portal-connect.ts';
import { registerPortalFirmRoutes } from './portal-firm.ts';
import { registerPortalLeadRoutes } from './portal-leads.ts';
import { registerPortalLifecycleRoutes } from './portal-lifecycle.ts';
import { registerPortalMcpOAuthRoutes } from './portal-mcp-oauth.ts';
import { registerPortalRulesRoutes } from './portal-rules.ts';
import { registerPortalSettingsRoutes } from './portal-settings.ts';

/**
 * `/v1/portal/...`: the portal app's JSON API. Sign-in endpoints stand alone; everything else
 * needs the session cookie, and writes need the CSRF token (see `requirePortalSession`).
 */
export function createPortalRoutes(
  deps: PortalDeps,
  limiter: SignInLimiter,
  trustProxy: TrustProxy,
  oauth: OAuthDeps,
) {
  const auth = createPortalAuthRoutes(deps, limiter, trustProxy);
  const router = createRouter();
  router.openAPIRegistry.registerComponent('securitySchemes', 'portalSession', {
    type: 'apiKey',
    in: 'cookie',
    name: 'svc_session',
    description:
      'The portal session cookie (`__Host-svc_session` over HTTPS). Writes also need the `X-CSRF-Token` header from `GET /v1/portal/session`.',
  });
  const guard = requirePortalSession(deps);
  router.use('/portal/*', async (c, next) => {
    if (c.req.path.startsWith('/v1/portal/auth/')) return next();
    return guard(c, next);
  });
  registerPortalAccountRoutes(router, deps);
  registerPortalFirmRoutes(router, deps);
  registerPortalConnectRoutes(router, deps);
  registerPortalMcpOAuthRoutes(router, { ...deps, ...oauth });
  registerPortalLifecycleRoutes(router, deps);
  registerPortalSettingsRoutes(router, deps);
  registerPortalLeadRoutes(router, deps);
  registerPortalRulesRoutes(router);
  return [auth, router];
}
