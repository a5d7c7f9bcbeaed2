import { createRoute, z } from '@hono/zod-openapi';
import { createConnectCode } from '../../domain/activation/connect-codes.ts';
import { createRouter } from '../../http/openapi-router.ts';
import type { Services } from '../../main/services.ts';
import { jsonBody } from '../schemas.ts';
import { ADMIN_TAGS, adminOk, adminSecurity, ConnectCodeSchema } from './schemas.ts';

const mint = createRoute({
  method: 'post',
  path: '/admin/v1/connect-codes',
  tags: ADMIN_TAGS,
  security: adminSecurity,
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
  responses: adminOk('The code (60 s)', ConnectCodeSchema),
});

/** Connect codes for the operator: what a firm admin's consent would mint, for support and tests. */
export function createConnectCodeAdminRoutes(services: Services) {
  const router = createRouter();
  router.openapi(mint, async (c) => {
    const { code, expiresAt } = await createConnectCode(services.licensing, c.req.valid('json'));
    return c.json({ code, expiresAt: expiresAt.toISOString() }, 200);
  });
  return router;
}
