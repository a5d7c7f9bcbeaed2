import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { createAccount } from '../../domain/accounts/accounts.ts';
import { createApiKey, listApiKeys, revokeApiKey } from '../../domain/accounts/api-keys.ts';
import { createConnectCode } from '../../domain/activation/connect-codes.ts';
import { API_KEY_SCOPES, parseScopes } from '../../domain/credentials/scopes.ts';
import { rotateSigningKeys } from '../../domain/credentials/signing-key-ring.ts';
import { demoAdminSignInLink } from '../../domain/demo/admin.ts';
import { seedDemoLeads } from '../../domain/demo/leads.ts';
import { seedDemo } from '../../domain/demo/seed.ts';
import { releaseQuarantinedLead } from '../../domain/leads/intake.ts';
import { DateText } from '../../domain/licensing/input.ts';
import { DEFAULT_KEY_OVERLAP_MS, rollLicenseKey } from '../../domain/licensing/keys.ts';
import { toLicenseView } from '../../domain/licensing/license-view.ts';
import { createLicense, revokeLicense } from '../../domain/licensing/licenses.ts';
import { showLicense } from '../../domain/licensing/lifecycle.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { bearerOf } from '../../http/auth/auth.ts';
import { createRouter } from '../../http/openapi-router.ts';
import { safeEqual } from '../../lib/constant-time.ts';
import { AppError } from '../../lib/errors.ts';
import type { Services } from '../../main/services.ts';
import { errorResponses, jsonBody, jsonResponse, overlapSeconds } from '../schemas.ts';
import { createDeliveryAdminRoutes } from './delivery.ts';
import { createLifecycleAdminRoutes } from './lifecycle.ts';
import {
  AccountCreatedSchema,
  AdminHealthSchema,
  ApiKeyCreatedSchema,
  ApiKeyListSchema,
  ConnectCodeSchema,
  DemoCredentialsSchema,
  DemoSeedSchema,
  KeyRolledSchema,
  KeyRotationSchema,
  LicenseCreatedSchema,
  LicenseDetailSchema,
  ReleasedLeadSchema,
  RevokedSchema,
} from './schemas.ts';

const tags = ['Admin'];
const security = [{ adminToken: [] }];
const ok = <T extends z.ZodType>(description: string, schema: T) => ({
  200: jsonResponse(description, schema),
  ...errorResponses(400, 401, 404),
});
const IdParam = z.object({ id: z.string().min(1).max(64) });

export function requireAdmin(token: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const bearer = bearerOf(c);
    if (!bearer || !safeEqual(bearer, token)) {
      throw new AppError('UNAUTHORIZED', 'The admin token is missing or wrong.', {
        headers: { 'WWW-Authenticate': 'Bearer realm="svc-admin"' },
      });
    }
    await next();
  };
}

const routes = {
  health: createRoute({
    method: 'get',
    path: '/admin/v1/health',
    tags,
    security,
    responses: ok('Admin API reachable', AdminHealthSchema),
  }),
  account: createRoute({
    method: 'post',
    path: '/admin/v1/accounts',
    tags,
    security,
    summary: 'Create a firm account',
    request: jsonBody(z.object({ name: z.string().min(1).max(200), email: z.email().optional() })),
    responses: ok('The account', AccountCreatedSchema),
  }),
  license: createRoute({
    method: 'post',
    path: '/admin/v1/licenses',
    tags,
    security,
    summary: 'Create a license; the key is in this response only',
    request: jsonBody(
      z
        .object({
          accountId: z.string().min(1),
          plan: z.string().min(1).max(40),
          seats: z.number().int().min(0).max(10_000),
          domains: z.array(z.string().min(1).max(253)).max(100),
          trialDays: z.number().int().min(1).max(365).optional(),
          paidThrough: DateText.optional(),
        })
        .refine(
          (v) => v.trialDays !== undefined || v.paidThrough !== undefined,
          'trialDays or paidThrough is required',
        ),
    ),
    responses: ok('The license and its key', LicenseCreatedSchema),
  }),
  rollKey: createRoute({
    method: 'post',
    path: '/admin/v1/licenses/{id}/roll-key',
    tags,
    security,
    summary: 'Issue a new publishable or secret key; the old one stays valid for the overlap',
    request: {
      params: IdParam,
      ...jsonBody(
        z.object({
          kind: z.enum(['publishable', 'secret']),
          overlapSeconds: overlapSeconds('How long the old key keeps working (default 24 h; 0 = ends now)'),
        }),
      ),
    },
    responses: ok('The new key (shown once) and when the old one ends', KeyRolledSchema),
  }),
  revokeLicense: createRoute({
    method: 'post',
    path: '/admin/v1/licenses/{id}/revoke',
    tags,
    security,
    request: { params: IdParam },
    responses: ok('The revoked license', LicenseDetailSchema),
  }),
  apiKey: createRoute({
    method: 'post',
    path: '/admin/v1/api-keys',
    tags,
    security,
    summary: 'Create a personal API key; the key is in this response only',
    request: jsonBody(
      z.object({
        accountId: z.string().min(1),
        name: z.string().min(1).max(100),
        scopes: z
          .array(z.enum(API_KEY_SCOPES))
          .min(1)
          .max(4)
          .optional()
          .openapi({ description: 'Default ["leads:read"]; "admin" includes every other scope' }),
      }),
    ),
    responses: ok('The API key', ApiKeyCreatedSchema),
  }),
  listApiKeys: createRoute({
    method: 'get',
    path: '/admin/v1/accounts/{id}/api-keys',
    tags,
    security,
    request: { params: IdParam },
    responses: ok('The account’s API keys (no secrets)', ApiKeyListSchema),
  }),
  revokeApiKey: createRoute({
    method: 'post',
    path: '/admin/v1/accounts/{id}/api-keys/{keyId}/revoke',
    tags,
    security,
    request: { params: IdParam.extend({ keyId: z.string().min(1).max(64) }) },
    responses: ok('Revoked', RevokedSchema),
  }),
  releaseLead: createRoute({
    method: 'post',
    path: '/admin/v1/accounts/{id}/leads/{leadId}/release',
    tags,
    security,
    summary: 'Release a quarantined lead (over its plan’s daily quota)',
    request: { params: IdParam.extend({ leadId: z.string().min(1).max(64) }) },
    responses: ok('The released lead', ReleasedLeadSchema),
  }),
  connectCode: createRoute({
    method: 'post',
    path: '/admin/v1/connect-codes',
    tags,
    security,
    summary: 'Mint a Connect code (what the portal does after a firm admin consents)',
    request: jsonBody(
      z.object({
        licenseId: z.string().min(1),
        redirectUri: z.string().min(1).max(2000),
        codeChallenge: z.string().min(43).max(43),
        siteDomain: z.string().min(1).max(253),
        clientId: z.string().max(100).optional(),
      }),
    ),
    responses: ok('The code (60 s)', ConnectCodeSchema),
  }),
  demoSeed: createRoute({
    method: 'post',
    path: '/admin/v1/demo/seed',
    tags,
    security,
    summary: 'Create the demo firm if missing; with accountId, add generated leads to that account',
    request: {
      body: {
        required: false,
        content: {
          'application/json': {
            schema: z.object({
              accountId: z.string().min(1).max(64).optional(),
              leads: z.number().int().min(1).max(1_000_000).optional(),
              days: z.number().int().min(1).max(3650).optional(),
            }),
          },
        },
      },
    },
    responses: ok('Demo credentials, or what was generated', DemoSeedSchema),
  }),
  demoCredentials: createRoute({
    method: 'post',
    path: '/admin/v1/demo/credentials',
    tags,
    security,
    summary:
      'The demo firm’s credentials again, with a fresh one-hour owner sign-in link (404 without a demo firm)',
    responses: ok('Demo credentials and a sign-in link', DemoCredentialsSchema),
  }),
  rotateKeys: createRoute({
    method: 'post',
    path: '/admin/v1/signing-keys/rotate',
    tags,
    security,
    summary: 'One rotation step: publish a next key, or promote it and retire the current one',
    responses: ok('What changed', KeyRotationSchema),
  }),
};

/** The admin API: what the CLI (and later the portal) calls. Bearer = the instance's admin token. */
export function createAdminRoutes(services: Services, adminToken: string) {
  const deps = services.licensing;
  const now = () => services.clock.now();
  const router = createRouter();
  router.openAPIRegistry.registerComponent('securitySchemes', 'adminToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The instance admin token (ADMIN_TOKEN or DATA_DIR/admin-token).',
  });
  router.use('/admin/*', requireAdmin(adminToken));
  router.route('/', createLifecycleAdminRoutes(services));
  router.openapi(routes.health, (c) => c.json({ ok: true, database: services.database.kind }, 200));
  router.openapi(routes.account, async (c) =>
    c.json({ account: await createAccount(deps, c.req.valid('json')) }, 200),
  );
  router.openapi(routes.license, async (c) => {
    const { paidThrough, ...input } = c.req.valid('json');
    const created = await createLicense(
      deps,
      { ...input, ...(paidThrough ? { paidThrough } : {}) },
      services.config.plans,
    );
    return c.json(
      {
        license: toLicenseView(created.license, 0, now()),
        licenseKey: created.licenseKey,
        publishableKey: created.publishableKey,
      },
      200,
    );
  });
  router.openapi(routes.revokeLicense, async (c) => {
    const { id } = c.req.valid('param');
    await revokeLicense(deps, id);
    return c.json(await showLicense(deps, id), 200);
  });
  router.openapi(routes.rollKey, async (c) => {
    const { kind, overlapSeconds } = c.req.valid('json');
    const rolled = await rollLicenseKey(deps, {
      licenseId: c.req.valid('param').id,
      kind,
      overlapMs: overlapSeconds === undefined ? DEFAULT_KEY_OVERLAP_MS : overlapSeconds * 1000,
    });
    return c.json(
      {
        kind,
        ...(kind === 'secret' ? { licenseKey: rolled.key } : { publishableKey: rolled.key }),
        previousKeysEndAt: rolled.previousKeysEndAt,
      },
      200,
    );
  });
  router.openapi(routes.apiKey, async (c) => {
    const { apiKey, row } = await createApiKey(deps, c.req.valid('json'));
    return c.json(
      {
        apiKey,
        id: row.id,
        name: row.name,
        scopes: parseScopes(row.scopes),
        keyLast4: row.keyLast4,
        createdAt: row.createdAt,
      },
      200,
    );
  });
  router.openapi(routes.listApiKeys, async (c) => {
    const keys = await listApiKeys(deps, c.req.valid('param').id);
    return c.json(
      { apiKeys: keys.map(({ keyHmac: _hidden, ...key }) => ({ ...key, scopes: parseScopes(key.scopes) })) },
      200,
    );
  });
  router.openapi(routes.revokeApiKey, async (c) => {
    const { id, keyId } = c.req.valid('param');
    await revokeApiKey(deps, id, keyId);
    return c.json({ revoked: true }, 200);
  });
  router.openapi(routes.releaseLead, async (c) => {
    const { id, leadId } = c.req.valid('param');
    return c.json({ lead: await releaseQuarantinedLead(deps, id, leadId, 'operator') }, 200);
  });
  router.openapi(routes.connectCode, async (c) => {
    const { code, expiresAt } = await createConnectCode(deps, c.req.valid('json'));
    return c.json({ code, expiresAt: expiresAt.toISOString() }, 200);
  });
  router.openapi(routes.demoSeed, async (c) => {
    const body = c.req.header('content-length') === '0' ? {} : ((await c.req.json().catch(() => ({}))) ?? {});
    const parsed = routes.demoSeed.request.body.content['application/json'].schema.parse(body);
    if (parsed.accountId) {
      const seeded = await seedDemoLeads(deps, {
        accountId: parsed.accountId,
        leads: parsed.leads ?? 1_000,
        days: parsed.days ?? 365,
      });
      return c.json({ seeded }, 200);
    }
    return c.json({ demo: await seedDemo(deps, services.secretKey) }, 200);
  });
  router.openapi(routes.demoCredentials, async (c) => {
    const demo = await seedDemo(deps, services.secretKey, { create: false });
    const link = demo.accountId ? await demoAdminSignInLink(services.portal) : undefined;
    if (!demo.accountId || !link) throw new AppError('NOT_FOUND', 'There is no demo firm on this instance.');
    return c.json({ demo: { ...demo, signInLink: link.url } }, 200);
  });
  router.openapi(routes.rotateKeys, async (c) => {
    const result = await rotateSigningKeys({
      db: deps.db,
      secretKey: services.secretKey,
      clock: services.clock,
    });
    services.keys.refresh();
    return c.json(result, 200);
  });
  router.route('/', createDeliveryAdminRoutes(services.delivery));
  return router;
}
