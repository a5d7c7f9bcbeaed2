import { createRoute } from '@hono/zod-openapi';
import { createRouter } from '../../http/openapi-router.ts';
import type { Services } from '../../main/services.ts';
import { createAccountAdminRoutes } from './accounts.ts';
import { createActivationAdminRoutes } from './activations.ts';
import { createApiKeyAdminRoutes } from './api-keys.ts';
import { createConnectCodeAdminRoutes } from './connect-codes.ts';
import { createDemoAdminRoutes } from './demo.ts';
import { createDestinationAdminRoutes } from './destinations.ts';
import { createLeadAdminRoutes } from './leads.ts';
import { createLicenseAdminRoutes } from './licenses.ts';
import { requireAdmin } from './require-admin.ts';
import { createRetentionAdminRoutes } from './retention.ts';
import { ADMIN_TAGS, AdminHealthSchema, adminOk, adminSecurity } from './schemas.ts';
import { createSigningKeyAdminRoutes } from './signing-keys.ts';
import { createWebhookAdminRoutes } from './webhooks.ts';

const health = createRoute({
  method: 'get',
  path: '/admin/v1/health',
  tags: ADMIN_TAGS,
  security: adminSecurity,
  responses: adminOk('Admin API reachable', AdminHealthSchema),
});

/**
 * The admin API under `/admin/v1`, one file per resource: what the CLI calls. Bearer = the
 * instance's admin token. Users (`users.ts`) and backups (`backup.ts`) are mounted beside it by
 * the server, each behind the same check.
 */
export function createAdminRoutes(services: Services, adminToken: string) {
  const router = createRouter();
  router.openAPIRegistry.registerComponent('securitySchemes', 'adminToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The instance admin token (ADMIN_TOKEN or DATA_DIR/admin-token).',
  });
  router.use('/admin/*', requireAdmin(adminToken));
  router.openapi(health, (c) => c.json({ ok: true, database: services.database.kind }, 200));
  router.route('/', createAccountAdminRoutes(services));
  router.route('/', createLicenseAdminRoutes(services));
  router.route('/', createActivationAdminRoutes(services));
  router.route('/', createApiKeyAdminRoutes(services));
  router.route('/', createLeadAdminRoutes(services));
  router.route('/', createConnectCodeAdminRoutes(services));
  router.route('/', createDemoAdminRoutes(services));
  router.route('/', createSigningKeyAdminRoutes(services));
  router.route('/', createWebhookAdminRoutes(services.delivery));
  router.route('/', createDestinationAdminRoutes(services.delivery));
  router.route('/', createRetentionAdminRoutes(services));
  return router;
}
