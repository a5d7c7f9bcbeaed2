import { createRoute } from '@hono/zod-openapi';
import { runRetention } from '../../domain/delivery/retention.ts';
import { createRouter } from '../../http/openapi-router.ts';
import type { Services } from '../../main/services.ts';
import { RetentionReportSchema } from './delivery-schemas.ts';
import { adminOk, adminSecurity, DELIVERY_TAGS } from './schemas.ts';

const run = createRoute({
  method: 'post',
  path: '/admin/v1/retention/run',
  tags: DELIVERY_TAGS,
  security: adminSecurity,
  summary: 'Run the retention rules now (the worker runs them hourly)',
  responses: adminOk('How many rows each rule deleted', RetentionReportSchema, 409),
});

/** The retention rules for the operator: run them now instead of at the worker's next hour. */
export function createRetentionAdminRoutes(services: Services) {
  const router = createRouter();
  router.openapi(run, async (c) => c.json({ ...(await runRetention(services.delivery)) }, 200));
  return router;
}
