import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { actingAs, type PortalDeps } from '../../domain/accounts/portal-deps.ts';
import { listDeliveries, sendTestEvent } from '../../domain/delivery/deliveries.ts';
import {
  createDestination,
  DestinationChangesSchema,
  deleteDestination,
  listDestinations,
  NewDestinationSchema,
  requireDestination,
  rollDestinationCredentials,
  updateDestination,
  vendorCatalog,
} from '../../domain/delivery/destinations.ts';
import type { PortalAppDeps } from '../../domain/portal/deps.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { portalOf } from '../../http/auth/portal-session.ts';
import { jsonBody } from '../schemas.ts';
import * as A from './answers.ts';
import { adminOnly, anyMember, IdParam, portalOk, portalSecurity } from './schemas.ts';

const tags = ['Portal'];
const security = portalSecurity;

const routes = {
  list: createRoute({
    method: 'get',
    path: '/portal/destinations',
    tags,
    security,
    middleware: anyMember,
    summary:
      'CRM destinations: owners and admins get settings, the credential’s last four characters and each CRM’s setup; viewers get name, status and last delivery',
    responses: portalOk('The destinations', A.PortalDestinationList),
  }),
  create: createRoute({
    method: 'post',
    path: '/portal/destinations',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Add a CRM destination (admin or owner); it receives each new lead from now on',
    request: jsonBody(NewDestinationSchema.omit({ accountId: true })),
    responses: portalOk('The destination', A.PortalOneDestination, 400, 409),
  }),
  update: createRoute({
    method: 'patch',
    path: '/portal/destinations/{id}',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Change the name, settings or test-lead choice, or turn it off/on',
    request: { params: IdParam, ...jsonBody(DestinationChangesSchema) },
    responses: portalOk('The destination', A.PortalOneDestination, 400, 404),
  }),
  roll: createRoute({
    method: 'post',
    path: '/portal/destinations/{id}/roll-credentials',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Replace the credential with one made anew in the CRM',
    request: { params: IdParam, ...jsonBody(z.object({ credential: z.string().min(1).max(500) }).strict()) },
    responses: portalOk('The destination', A.PortalOneDestination, 400, 404),
  }),
  test: createRoute({
    method: 'post',
    path: '/portal/destinations/{id}/test',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Send a made-up test lead (marked [TEST]) to the CRM',
    request: { params: IdParam },
    responses: portalOk('The test delivery', A.QueuedDelivery, 404),
  }),
  remove: createRoute({
    method: 'delete',
    path: '/portal/destinations/{id}',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Remove a destination with its delivery log',
    request: { params: IdParam },
    responses: portalOk('Deleted', A.DeletedEndpoint, 404),
  }),
  deliveries: createRoute({
    method: 'get',
    path: '/portal/destinations/{id}/deliveries',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Recent deliveries with what was sent and what the CRM answered (credentials redacted)',
    request: {
      params: IdParam,
      query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
    },
    responses: portalOk('The deliveries, newest first', A.DeliveryList, 400, 404),
  }),
};

/**
 * Settings → Destinations, scoped to the session's firm (another firm's destination is NOT_FOUND)
 * and audited as the user. Owners and admins manage; viewers see name, status and last delivery.
 * Replaying a delivery is the webhooks' route (`POST /v1/portal/webhook-deliveries/{id}/replay`).
 */
export function registerPortalDestinationRoutes(router: OpenAPIHono<AppEnv>, deps: PortalAppDeps) {
  router.openapi(routes.list, async (c) => {
    const p = portalOf(c);
    const manage = p.role !== 'viewer';
    const rows = await listDestinations(deps.delivery, p.accountId, { accountId: p.accountId });
    const data = manage
      ? rows
      : rows.map(({ id, vendor, label, name, status, disabledReason, lastDelivery }) => ({
          id,
          vendor,
          label,
          name,
          status,
          disabledReason,
          lastDelivery,
        }));
    return c.json({ data, vendors: manage ? vendorCatalog() : [], canManage: manage }, 200);
  });
  router.openapi(routes.create, async (c) => {
    c.header('Cache-Control', 'no-store');
    const p = portalOf(c);
    return c.json(
      await createDestination(deps.delivery, { ...c.req.valid('json'), accountId: p.accountId }, actingAs(p)),
      200,
    );
  });
  router.openapi(routes.update, async (c) =>
    c.json(
      await updateDestination(
        deps.delivery,
        c.req.valid('param').id,
        c.req.valid('json'),
        actingAs(portalOf(c)),
      ),
      200,
    ),
  );
  router.openapi(routes.roll, async (c) =>
    c.json(
      await rollDestinationCredentials(
        deps.delivery,
        c.req.valid('param').id,
        c.req.valid('json').credential,
        actingAs(portalOf(c)),
      ),
      200,
    ),
  );
  router.openapi(routes.test, async (c) => {
    const as = actingAs(portalOf(c));
    await requireDestination(deps.delivery, c.req.valid('param').id, as.accountId);
    return c.json(await sendTestEvent(deps.delivery, c.req.valid('param').id, as), 200);
  });
  router.openapi(routes.remove, async (c) =>
    c.json(await deleteDestination(deps.delivery, c.req.valid('param').id, actingAs(portalOf(c))), 200),
  );
  router.openapi(routes.deliveries, async (c) => {
    const { accountId } = portalOf(c);
    const { id } = c.req.valid('param');
    await requireDestination(deps.delivery, id, accountId);
    return c.json(
      { data: await listDeliveries(deps.delivery, id, c.req.valid('query').limit, { accountId }) },
      200,
    );
  });
}
