import type { OAuthDeps } from '../../domain/oauth/mcp-resource.ts';
import type { PortalAppDeps } from '../../domain/portal/deps.ts';
import { requirePortalSession } from '../../http/auth/portal-session.ts';
import { createRouter } from '../../http/openapi-router.ts';
import type { SignInLimiter } from '../../http/rate-limit/sign-in-limiter.ts';
import type { TrustProxy } from '../../http/requests/client-ip.ts';
import { registerPortalMcpOAuthRoutes } from '../oauth/mcp-consent.ts';
import { registerPortalConnectRoutes } from '../oauth/site-consent.ts';
import { registerPortalAccountRoutes } from './account.ts';
import { registerPortalActivityRoutes } from './activity.ts';
import { registerPortalApiKeyRoutes } from './api-keys.ts';
import { registerPortalBillingRoutes } from './billing.ts';
import { registerPortalDestinationRoutes } from './destinations.ts';
import { registerPortalFirmSettingsRoutes } from './firm-settings.ts';
import { registerPortalLeadRoutes } from './leads.ts';
import { registerPortalLicenseRoutes } from './licenses.ts';
import { registerPortalMemberRoutes } from './members.ts';
import { registerPortalOverviewRoutes } from './overview.ts';
import { registerPortalRuleNoticeRoutes } from './rule-notices.ts';
import { registerPortalRulesRoutes } from './rules.ts';
import { createPortalAuthRoutes } from './sign-in.ts';
import { registerPortalWebhookRoutes } from './webhooks.ts';

/**
 * `/v1/portal/...`: the portal app's JSON API. Sign-in endpoints stand alone; everything else
 * needs the session cookie, and writes need the CSRF token (see `requirePortalSession`).
 */
export function createPortalRoutes(
  deps: PortalAppDeps,
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
  // One file per resource; the consent steps of both OAuth flows live with the OAuth routes.
  registerPortalAccountRoutes(router, deps);
  registerPortalOverviewRoutes(router, deps);
  registerPortalLicenseRoutes(router, deps);
  registerPortalApiKeyRoutes(router, deps);
  registerPortalLeadRoutes(router, deps);
  registerPortalActivityRoutes(router, deps);
  registerPortalMemberRoutes(router, deps);
  registerPortalConnectRoutes(router, deps);
  registerPortalMcpOAuthRoutes(router, { ...deps, ...oauth });
  registerPortalBillingRoutes(router, deps);
  registerPortalFirmSettingsRoutes(router, deps);
  registerPortalWebhookRoutes(router, deps);
  registerPortalDestinationRoutes(router, deps);
  registerPortalRulesRoutes(router);
  registerPortalRuleNoticeRoutes(router, deps);
  return [auth, router];
}
