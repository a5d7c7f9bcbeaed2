import { createRoute } from '@hono/zod-openapi';
import { releaseSeat } from '../../domain/licensing/lifecycle.ts';
import { createRouter } from '../../http/openapi-router.ts';
import type { Services } from '../../main/services.ts';
import { OPERATOR } from './require-admin.ts';
import { ActivationReleasedSchema, ADMIN_TAGS, adminOk, adminSecurity, IdParam } from './schemas.ts';

const release = createRoute({
  method: 'post',
  path: '/admin/v1/activations/{id}/release',
  tags: ADMIN_TAGS,
  security: adminSecurity,
  summary: "Release a site's seat; its tokens stop on their next request",
  request: { params: IdParam },
  responses: adminOk('The released activation and its license', ActivationReleasedSchema),
});

/** A site's activation for the operator: releasing its seat. */
export function createActivationAdminRoutes(services: Services) {
  const deps = { ...services.licensing, plans: services.config.plans };
  const router = createRouter();
  router.openapi(release, async (c) =>
    c.json(await releaseSeat(deps, c.req.valid('param').id, OPERATOR), 200),
  );
  return router;
}
