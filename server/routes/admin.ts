import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { listActivationsByLicense } from '../db/activations-repo.ts';
import { findLicenseById, type LicenseRow } from '../db/licenses-repo.ts';
import { createConnectCode } from '../domain/connect-codes.ts';
import { safeEqual } from '../domain/credential-formats.ts';
import { seedDemo } from '../domain/demo-seed.ts';
import {
  createAccount,
  createApiKey,
  createLicense,
  listApiKeys,
  revokeApiKey,
  revokeLicense,
} from '../domain/license-admin.ts';
import { licenseState } from '../domain/license-status.ts';
import { rotateSigningKeys } from '../domain/signing-key-ring.ts';
import { AppError } from '../errors.ts';
import type { AppEnv } from '../http/app-env.ts';
import { bearerOf } from '../http/auth.ts';
import { createRouter } from '../http/openapi-router.ts';
import type { Services } from '../services.ts';
import { errorResponses, jsonBody, jsonResponse } from './schemas.ts';

const tags = ['Admin'];
const security = [{ adminToken: [] }];
const Any = z.record(z.string(), z.unknown());
const ok = (description: string) => ({
  200: jsonResponse(description, Any),
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

export function licenseView(license: LicenseRow, now: Date) {
  const state = licenseState(license, now);
  return {
    id: license.id,
    accountId: license.accountId,
    keyLast4: license.keyLast4,
    plan: license.plan,
    seats: license.seats,
    allowedDomains: license.allowedDomains,
    status: state.status,
    expiresAt: state.expiresAt?.toISOString() ?? null,
    trialEndsAt: license.trialEndsAt?.toISOString() ?? null,
    paidThrough: license.paidThrough?.toISOString() ?? null,
    graceEndsAt: state.graceEndsAt?.toISOString() ?? null,
    revokedAt: license.revokedAt?.toISOString() ?? null,
  };
}

const routes = {
  health: createRoute({
    method: 'get',
    path: '/admin/v1/health',
    tags,
    security,
    responses: ok('Admin API reachable'),
  }),
  account: createRoute({
    method: 'post',
    path: '/admin/v1/accounts',
    tags,
    security,
    summary: 'Create a firm account',
    request: jsonBody(z.object({ name: z.string().min(1).max(200), email: z.email().optional() })),
    responses: ok('The account'),
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
          paidThrough: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
        })
        .refine(
          (v) => v.trialDays !== undefined || v.paidThrough !== undefined,
          'trialDays or paidThrough is required',
        ),
    ),
    responses: ok('The license and its key'),
  }),
  showLicense: createRoute({
    method: 'get',
    path: '/admin/v1/licenses/{id}',
    tags,
    security,
    request: { params: IdParam },
    responses: ok('The license, its status and activations'),
  }),
  revokeLicense: createRoute({
    method: 'post',
    path: '/admin/v1/licenses/{id}/revoke',
    tags,
    security,
    request: { params: IdParam },
    responses: ok('The revoked license'),
  }),
  apiKey: createRoute({
    method: 'post',
    path: '/admin/v1/api-keys',
    tags,
    security,
    summary: 'Create a personal API key; the key is in this response only',
    request: jsonBody(z.object({ accountId: z.string().min(1), name: z.string().min(1).max(100) })),
    responses: ok('The API key'),
  }),
  listApiKeys: createRoute({
    method: 'get',
    path: '/admin/v1/accounts/{id}/api-keys',
    tags,
    security,
    request: { params: IdParam },
    responses: ok('The account’s API keys (no secrets)'),
  }),
  revokeApiKey: createRoute({
    method: 'post',
    path: '/admin/v1/accounts/{id}/api-keys/{keyId}/revoke',
    tags,
    security,
    request: { params: IdParam.extend({ keyId: z.string().min(1).max(64) }) },
    responses: ok('Revoked'),
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
    responses: ok('The code (60 s)'),
  }),
  demoSeed: createRoute({
    method: 'post',
    path: '/admin/v1/demo/seed',
    tags,
    security,
    responses: ok('Demo credentials'),
  }),
  rotateKeys: createRoute({
    method: 'post',
    path: '/admin/v1/signing-keys/rotate',
    tags,
    security,
    summary: 'One rotation step: publish a next key, or promote it and retire the current one',
    responses: ok('What changed'),
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
  router.openapi(routes.health, (c) => c.json({ ok: true, database: services.database.kind }, 200));
  router.openapi(routes.account, async (c) =>
    c.json({ account: await createAccount(deps, c.req.valid('json')) }, 200),
  );
  router.openapi(routes.license, async (c) => {
    const { paidThrough, ...input } = c.req.valid('json');
    const created = await createLicense(deps, {
      ...input,
      ...(paidThrough ? { paidThrough: new Date(paidThrough) } : {}),
    });
    return c.json({ license: licenseView(created.license, now()), licenseKey: created.licenseKey }, 200);
  });
  router.openapi(routes.showLicense, async (c) => {
    const license = await findLicenseById(deps.db, c.req.valid('param').id);
    if (!license) throw new AppError('NOT_FOUND', 'No such license.');
    const activations = await listActivationsByLicense(deps.db, license.id);
    return c.json({ license: licenseView(license, now()), activations }, 200);
  });
  router.openapi(routes.revokeLicense, async (c) =>
    c.json({ license: licenseView(await revokeLicense(deps, c.req.valid('param').id), now()) }, 200),
  );
  router.openapi(routes.apiKey, async (c) => {
    const { apiKey, row } = await createApiKey(deps, c.req.valid('json'));
    return c.json(
      { apiKey, id: row.id, name: row.name, keyLast4: row.keyLast4, createdAt: row.createdAt },
      200,
    );
  });
  router.openapi(routes.listApiKeys, async (c) => {
    const keys = await listApiKeys(deps, c.req.valid('param').id);
    return c.json({ apiKeys: keys.map(({ keyHmac: _hidden, ...key }) => key) }, 200);
  });
  router.openapi(routes.revokeApiKey, async (c) => {
    const { id, keyId } = c.req.valid('param');
    await revokeApiKey(deps, id, keyId);
    return c.json({ revoked: true }, 200);
  });
  router.openapi(routes.connectCode, async (c) => {
    const { code, expiresAt } = await createConnectCode(deps, c.req.valid('json'));
    return c.json({ code, expiresAt: expiresAt.toISOString() }, 200);
  });
  router.openapi(routes.demoSeed, async (c) =>
    c.json({ demo: await seedDemo(deps, services.secretKey) }, 200),
  );
  router.openapi(routes.rotateKeys, async (c) => {
    const result = await rotateSigningKeys({
      db: deps.db,
      secretKey: services.secretKey,
      clock: services.clock,
    });
    services.keys.refresh();
    return c.json(result, 200);
  });
  return router;
}
