import { createRoute, z } from '@hono/zod-openapi';
import { releaseQuarantinedLead } from '../../domain/leads/intake.ts';
import { deleteLead } from '../../domain/leads/privacy.ts';
import { createRouter } from '../../http/openapi-router.ts';
import type { Services } from '../../main/services.ts';
import { LeadErasedSchema } from './delivery-schemas.ts';
import { ADMIN_TAGS, adminOk, adminSecurity, DELIVERY_TAGS, IdParam, ReleasedLeadSchema } from './schemas.ts';

const routes = {
  release: createRoute({
    method: 'post',
    path: '/admin/v1/accounts/{id}/leads/{leadId}/release',
    tags: ADMIN_TAGS,
    security: adminSecurity,
    summary: 'Release a quarantined lead (over its plan’s daily quota)',
    request: { params: IdParam.extend({ leadId: z.string().min(1).max(64) }) },
    responses: adminOk('The released lead', ReleasedLeadSchema),
  }),
  erase: createRoute({
    method: 'delete',
    path: '/admin/v1/leads/{id}',
    tags: DELIVERY_TAGS,
    security: adminSecurity,
    summary: 'Erase a lead and every copy (result, outbox, delivery logs, mails)',
    request: { params: IdParam },
    responses: adminOk('What was deleted', LeadErasedSchema, 409),
  }),
};

/** Leads for the operator: release one held over its plan's quota, erase one and every copy. */
export function createLeadAdminRoutes(services: Services) {
  const router = createRouter();
  router.openapi(routes.release, async (c) => {
    const { id, leadId } = c.req.valid('param');
    return c.json({ lead: await releaseQuarantinedLead(services.licensing, id, leadId, 'operator') }, 200);
  });
  router.openapi(routes.erase, async (c) =>
    c.json(await deleteLead(services.delivery, c.req.valid('param').id), 200),
  );
  return router;
}
