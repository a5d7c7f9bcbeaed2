import { createRoute } from '@hono/zod-openapi';
import { rotateSigningKeys } from '../../domain/credentials/signing-key-ring.ts';
import { createRouter } from '../../http/openapi-router.ts';
import type { Services } from '../../main/services.ts';
import { ADMIN_TAGS, adminOk, adminSecurity, KeyRotationSchema } from './schemas.ts';

const rotate = createRoute({
  method: 'post',
  path: '/admin/v1/signing-keys/rotate',
  tags: ADMIN_TAGS,
  security: adminSecurity,
  summary: 'One rotation step: publish a next key, or promote it and retire the current one',
  responses: adminOk('What changed', KeyRotationSchema),
});

/** The token-signing keys for the operator: one rotation step, then this instance reloads its ring. */
export function createSigningKeyAdminRoutes(services: Services) {
  const router = createRouter();
  router.openapi(rotate, async (c) => {
    const result = await rotateSigningKeys({
      db: services.licensing.db,
      secretKey: services.secretKey,
      clock: services.clock,
    });
    services.keys.refresh();
    return c.json(result, 200);
  });
  return router;
}
