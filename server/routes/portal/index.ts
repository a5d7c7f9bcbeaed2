import type { PortalDeps } from '../../domain/accounts/portal-deps.ts';
import type { OAuthDeps } from '../../domain/oauth/mcp-resource.ts';
import { requirePortalSession } from '../../http/auth/portal-session.ts';
import { createRouter } from '../../http/openapi-router.ts';
import type { SignInLimiter } from '../../http/rate-limit/sign-in-limiter.ts';
import type { TrustProxy } from '../../http/requests/client-ip.ts';
import { registerPortalMcpOAuthRoutes } from '../oauth/mcp-consent.ts';
import { registerPortalConnectRoutes } from '../oauth/site-consent.ts';
import { registerPortalAccountRoutes } from './account.ts';
import { registerPortalFirmRoutes } from './firm.ts';
import { registerPortalLeadRoutes } from './leads.ts';
import { registerPortalLifecycleRoutes } from './lifecycle.ts';
import { registerPortalRulesRoutes } from './rules.ts';
import { registerPortalSettingsRoutes } from './settings.ts';
import { createPortalAuthRoutes } from './sign-in.ts';

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
