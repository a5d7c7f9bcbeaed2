import { createRoute, z } from '@hono/zod-openapi';
import { createApiKey, listApiKeys, revokeApiKey } from '../../domain/accounts/api-keys.ts';
import { API_KEY_SCOPES, parseScopes } from '../../domain/credentials/scopes.ts';
import { createRouter } from '../../http/openapi-router.ts';
import type { Services } from '../../main/services.ts';
import { jsonBody } from '../schemas.ts';
import {
  ADMIN_TAGS,
  ApiKeyCreatedSchema,
  ApiKeyListSchema,
  adminOk,
  adminSecurity,
  IdParam,
  RevokedSchema,
} from './schemas.ts';

const tags = ADMIN_TAGS;
const security = adminSecurity;

const routes = {
  create: createRoute({
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
          .max(API_KEY_SCOPES.length)
          .optional()
          .openapi({ description: 'Default ["leads:read"]; "admin" includes every other scope' }),
      }),
    ),
    responses: adminOk('The API key', ApiKeyCreatedSchema),
  }),
  list: createRoute({
    method: 'get',
    path: '/admin/v1/accounts/{id}/api-keys',
    tags,
    security,
    request: { params: IdParam },
    responses: adminOk('The account’s API keys (no secrets)', ApiKeyListSchema),
  }),
  revoke: createRoute({
    method: 'post',
    path: '/admin/v1/accounts/{id}/api-keys/{keyId}/revoke',
    tags,
    security,
    request: { params: IdParam.extend({ keyId: z.string().min(1).max(64) }) },
    responses: adminOk('Revoked', RevokedSchema),
  }),
};

/** Personal API keys (REST and MCP) for the operator: create, list without secrets, revoke. */
export function createApiKeyAdminRoutes(services: Services) {
  const deps = services.licensing;
  const router = createRouter();
  router.openapi(routes.create, async (c) => {
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
  router.openapi(routes.list, async (c) => {
    const keys = await listApiKeys(deps, c.req.valid('param').id);
    return c.json(
      { apiKeys: keys.map(({ keyHmac: _hidden, ...key }) => ({ ...key, scopes: parseScopes(key.scopes) })) },
      200,
    );
  });
  router.openapi(routes.revoke, async (c) => {
    const { id, keyId } = c.req.valid('param');
    await revokeApiKey(deps, id, keyId);
    return c.json({ revoked: true }, 200);
  });
  return router;
}
