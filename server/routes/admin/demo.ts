import { createRoute, z } from '@hono/zod-openapi';
import { demoAdminSignInLink } from '../../domain/demo/admin.ts';
import { seedDemoLeads } from '../../domain/demo/leads.ts';
import { seedDemo } from '../../domain/demo/seed.ts';
import { createRouter } from '../../http/openapi-router.ts';
import { AppError } from '../../lib/errors.ts';
import type { Services } from '../../main/services.ts';
import { ADMIN_TAGS, adminOk, adminSecurity, DemoCredentialsSchema, DemoSeedSchema } from './schemas.ts';

const routes = {
  seed: createRoute({
    method: 'post',
    path: '/admin/v1/demo/seed',
    tags: ADMIN_TAGS,
    security: adminSecurity,
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
    responses: adminOk('Demo credentials, or what was generated', DemoSeedSchema),
  }),
  credentials: createRoute({
    method: 'post',
    path: '/admin/v1/demo/credentials',
    tags: ADMIN_TAGS,
    security: adminSecurity,
    summary:
      'The demo firm’s credentials again, with a fresh one-hour owner sign-in link (404 without a demo firm)',
    responses: adminOk('Demo credentials and a sign-in link', DemoCredentialsSchema),
  }),
};

/** The demo firm for the operator: create it, add generated leads, print its credentials again. */
export function createDemoAdminRoutes(services: Services) {
  const deps = services.licensing;
  const router = createRouter();
  router.openapi(routes.seed, async (c) => {
    const body = c.req.header('content-length') === '0' ? {} : ((await c.req.json().catch(() => ({}))) ?? {});
    const parsed = routes.seed.request.body.content['application/json'].schema.parse(body);
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
  router.openapi(routes.credentials, async (c) => {
    const demo = await seedDemo(deps, services.secretKey, { create: false });
    const link = demo.accountId ? await demoAdminSignInLink(services.portal) : undefined;
    if (!demo.accountId || !link) throw new AppError('NOT_FOUND', 'There is no demo firm on this instance.');
    return c.json({ demo: { ...demo, signInLink: link.url } }, 200);
  });
  return router;
}
