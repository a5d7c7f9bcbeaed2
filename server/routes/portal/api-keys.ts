import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { createApiKey, revokeApiKey } from '../../domain/accounts/api-keys.ts';
import { actorOf } from '../../domain/accounts/portal-deps.ts';
import { API_KEY_SCOPES } from '../../domain/credentials/scopes.ts';
import type { PortalAppDeps } from '../../domain/portal/deps.ts';
import { listFirmApiKeys } from '../../domain/portal/firm-views.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { portalOf } from '../../http/auth/portal-session.ts';
import { jsonBody } from '../schemas.ts';
import * as A from './answers.ts';
import { adminOnly, anyMember, IdParam, portalOk, portalSecurity } from './schemas.ts';

const tags = ['Portal'];
const security = portalSecurity;

const routes = {
  apiKeys: createRoute({
    method: 'get',
    path: '/portal/api-keys',
    tags,
    security,
    middleware: anyMember,
    responses: portalOk('API keys', A.ApiKeyList),
  }),
  createApiKey: createRoute({
    method: 'post',
    path: '/portal/api-keys',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Create an API key (admin or owner); the key is in this response only',
    request: jsonBody(
      z.object({
        name: z.string().trim().min(1).max(100),
        scopes: z.array(z.enum(API_KEY_SCOPES)).min(1).max(API_KEY_SCOPES.length),
      }),
    ),
    responses: portalOk('The new key', A.CreatedApiKey, 400),
  }),
  revokeApiKey: createRoute({
    method: 'post',
    path: '/portal/api-keys/{id}/revoke',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Revoke an API key; the next call with it is refused',
    request: { params: IdParam },
    responses: portalOk('Revoked', A.Revoked, 404),
  }),
};

/** Settings → API keys: viewers read the list; admins and owners create and revoke. */
export function registerPortalApiKeyRoutes(router: OpenAPIHono<AppEnv>, deps: PortalAppDeps) {
  router.openapi(routes.apiKeys, async (c) =>
    c.json({ data: await listFirmApiKeys(deps, portalOf(c)) }, 200),
  );
  // The key is in this answer only (stored as an HMAC); the trail names who made it, with which scopes.
  router.openapi(routes.createApiKey, async (c) => {
    const p = portalOf(c);
    const { name, scopes } = c.req.valid('json');
    const { apiKey, row } = await createApiKey(
      deps,
      { accountId: p.accountId, name, scopes, createdBy: p.userId },
      actorOf(p),
    );
    return c.json({ apiKey, id: row.id, name: row.name, last4: row.keyLast4, scopes }, 200);
  });
  // Immediate: the next request with the key (REST or MCP) is refused. A foreign id is NOT_FOUND.
  router.openapi(routes.revokeApiKey, async (c) => {
    const p = portalOf(c);
    await revokeApiKey(deps, p.accountId, c.req.valid('param').id, actorOf(p));
    return c.json({ revoked: true }, 200);
  });
}
