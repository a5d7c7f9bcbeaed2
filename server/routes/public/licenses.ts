import { createRoute, z } from '@hono/zod-openapi';
import { LicenseStatusSchema, TokenSetSchema } from '../../contracts/license.ts';
import { activateLicense } from '../../domain/activation/activate.ts';
import { exchangeConnectCode } from '../../domain/activation/connect-codes.ts';
import { refreshTokenSet } from '../../domain/activation/refresh.ts';
import { revokeSiteToken } from '../../domain/activation/revoke.ts';
import type { LicensingDeps } from '../../domain/deps.ts';
import { licenseStatusOf } from '../../domain/licensing/status-view.ts';
import { requireCredential } from '../../http/auth/auth.ts';
import { createRouter } from '../../http/openapi-router.ts';
import { bearerSecurity, errorResponses, Iso, jsonBody, jsonResponse } from '../schemas.ts';

const tags = ['Licensing'];
const SiteDomain = z.string().min(1).max(253).openapi({ example: 'smithlaw.com' });

const activate = createRoute({
  method: 'post',
  path: '/api/licenses/activate',
  tags,
  summary: 'Activate the secret license key for a site domain',
  description:
    'Takes the **secret license key** (`SVC-…`), from a plugin or server, never from a page. The publishable key (`svc_pk_…`) is answered 400 `WRONG_KEY_KIND`, recognised by its format alone. Re-activating a domain replaces only that activation’s site family (never a Connect login’s admin family); activations with no refresh for 60 days are idle and free their seat.',
  request: jsonBody(
    z.object({
      licenseKey: z.string().min(1).max(200).openapi({ example: 'SVC-…' }),
      siteDomain: SiteDomain,
    }),
    { licenseKey: 'SVC-7K3Q-M2XD-9F4H-TR8B', siteDomain: 'smithlaw.com' },
  ),
  responses: {
    200: jsonResponse('A site-scope token set', TokenSetSchema),
    ...errorResponses(400, 401, 403, 409),
  },
});

const exchange = createRoute({
  method: 'post',
  path: '/api/licenses/exchange',
  tags,
  summary: 'Exchange a Connect code (PKCE S256) for an admin-scope token set',
  description:
    'The last step of Connect: a plugin that sent its firm admin to the portal gets back a one-minute `code` on its `redirectUri`, and trades it here with the PKCE `codeVerifier` whose S256 hash it sent. The answer is a token set for that site with the scope the firm approved: `site admin` (lead list, billing) unless the plugin asked `/oauth/authorize` for less (`scope=site leads:read`: status and reading leads only); a private-network development host gets `site` only. A code works once; a wrong verifier, domain or redirect URI is 400 `INVALID_GRANT`.',
  request: jsonBody(
    z.object({
      code: z.string().min(1).max(200),
      siteDomain: SiteDomain,
      codeVerifier: z.string().min(43).max(128),
      redirectUri: z.string().min(1).max(2000),
    }),
    {
      code: 'svc_ac_4f9a0c2e1b7d',
      siteDomain: 'smithlaw.com',
      codeVerifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
      redirectUri: 'https://smithlaw.com/wp-admin/admin.php?page=svc-connect',
    },
  ),
  responses: {
    200: jsonResponse('An admin-scope token set', TokenSetSchema),
    ...errorResponses(400, 401, 403, 409),
  },
});

const refresh = createRoute({
  method: 'post',
  path: '/api/licenses/refresh',
  tags,
  summary: 'Rotate a refresh token',
  description:
    'Trades a refresh token for a new token set; every use rotates it. Presenting an already rotated token revokes its whole family (a copied token is then useless to both holders), except a quick retry of the previous one after a lost answer, which gets the same new pair. Another site domain is refused.',
  request: jsonBody(z.object({ refreshToken: z.string().min(1).max(200), siteDomain: SiteDomain }), {
    refreshToken: 'svc_rt_Qm9vZ2xlLWtleS1leGFtcGxl',
    siteDomain: 'smithlaw.com',
  }),
  responses: { 200: jsonResponse('A new token set', TokenSetSchema), ...errorResponses(400, 401) },
});

const RevokeBody = z.object({
  token: z.string().min(1).max(4000),
  token_type_hint: z.string().max(40).optional(),
});

const revoke = createRoute({
  method: 'post',
  path: '/api/licenses/revoke',
  tags,
  summary: 'Revoke a refresh or access token and free its seat (RFC 7009)',
  description:
    'Also accepts `application/x-www-form-urlencoded` with the same fields, as RFC 7009 clients send.',
  request: jsonBody(RevokeBody, {
    token: 'svc_rt_Qm9vZ2xlLWtleS1leGFtcGxl',
    token_type_hint: 'refresh_token',
  }),
  responses: {
    200: jsonResponse('Always, known token or not', z.object({ revoked: z.literal(true) })),
    ...errorResponses(400),
  },
});

const status = createRoute({
  method: 'get',
  path: '/api/licenses/status',
  tags,
  summary: "The license's status, computed now",
  description:
    'With a site or admin access token: plan, seats and seats used, allowed domains, the dates that matter (trial end, grace end, renewal, cancellation) and `next`, one sentence on what happens next.',
  security: bearerSecurity,
  responses: { 200: jsonResponse('License status', LicenseStatusSchema), ...errorResponses(401) },
});

export function createLicenseRoutes(deps: LicensingDeps) {
  const router = createRouter();
  router.openapi(activate, async (c) => c.json(await activateLicense(deps, c.req.valid('json')), 200));
  router.openapi(exchange, async (c) => c.json(await exchangeConnectCode(deps, c.req.valid('json')), 200));
  router.openapi(refresh, async (c) => c.json(await refreshTokenSet(deps, c.req.valid('json')), 200));
  // RFC 7009 clients post a form; answered here, JSON goes on to the documented route.
  router.post(revoke.path, async (c, next) => {
    if (!c.req.header('content-type')?.startsWith('application/x-www-form-urlencoded')) return next();
    const parsed = RevokeBody.safeParse(Object.fromEntries(new URLSearchParams(await c.req.text())));
    if (!parsed.success) throw parsed.error;
    await revokeSiteToken(deps, parsed.data.token);
    return c.json({ revoked: true as const }, 200);
  });
  router.openapi(revoke, async (c) => {
    await revokeSiteToken(deps, c.req.valid('json').token);
    return c.json({ revoked: true as const }, 200);
  });
  router.use(status.path, requireCredential(deps, ['access']));
  router.openapi(status, async (c) => {
    const principal = c.get('principal');
    if (principal?.kind !== 'access') throw new Error('unreachable: guarded by requireCredential');
    return c.json(await licenseStatusOf(deps, principal), 200);
  });
  return router;
}
