import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { actingAs } from '../../domain/accounts/portal-deps.ts';
import { listDeliveries, replayDelivery, sendTestEvent } from '../../domain/delivery/deliveries.ts';
import {
  createEndpoint,
  DEFAULT_ROLL_OVERLAP_SECONDS,
  deleteEndpoint,
  EndpointChangesSchema,
  listEndpoints,
  rollEndpointSecret,
  updateEndpoint,
} from '../../domain/delivery/endpoints.ts';
import { WEBHOOK_EVENT_TYPES } from '../../domain/outbox/event-types.ts';
import type { PortalAppDeps } from '../../domain/portal/deps.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { portalOf } from '../../http/auth/portal-session.ts';
import { jsonBody, overlapSeconds } from '../schemas.ts';
import * as A from './answers.ts';
import { adminOnly, anyMember, IdParam, portalOk, portalSecurity } from './schemas.ts';

const tags = ['Portal'];
const security = portalSecurity;
const Events = z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length);

const routes = {
  endpoints: createRoute({
    method: 'get',
    path: '/portal/webhooks',
    tags,
    security,
    middleware: anyMember,
    summary: 'Webhook endpoints (no secrets) and the event types they can subscribe to',
    responses: portalOk('The endpoints', A.EndpointList),
  }),
  createEndpoint: createRoute({
    method: 'post',
    path: '/portal/webhooks',
    tags,
    security,
    middleware: adminOnly,
    summary:
      'Register an endpoint (admin or owner); its whsec_ secret is in this response only. Past the plan’s endpoint limit (default 10): 409 `ENDPOINT_LIMIT_REACHED`',
    request: jsonBody(
      z
        .object({
          url: z.string().min(1).max(2000),
          events: Events,
          description: z.string().trim().max(200).optional(),
          includeTest: z.boolean().optional(),
        })
        .strict(),
    ),
    responses: portalOk('The endpoint and its secret', A.EndpointWithSecret, 400, 409),
  }),
  updateEndpoint: createRoute({
    method: 'patch',
    path: '/portal/webhooks/{id}',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Change events, description, test data, or turn the endpoint off/on',
    request: {
      params: IdParam,
      ...jsonBody(EndpointChangesSchema),
    },
    responses: portalOk('The endpoint', A.OneEndpoint, 400, 404),
  }),
  deleteEndpoint: createRoute({
    method: 'delete',
    path: '/portal/webhooks/{id}',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Delete an endpoint with its delivery log',
    request: { params: IdParam },
    responses: portalOk('Deleted', A.DeletedEndpoint, 404),
  }),
  rollSecret: createRoute({
    method: 'post',
    path: '/portal/webhooks/{id}/roll-secret',
    tags,
    security,
    middleware: adminOnly,
    summary: 'A new signing secret (in this response only); the old one signs beside it for the overlap',
    request: {
      params: IdParam,
      ...jsonBody(
        z
          .object({
            overlapSeconds: overlapSeconds('How long the old secret also signs (default 24 h; 0 = ends now)'),
          })
          .strict(),
      ),
    },
    responses: portalOk('The endpoint and its new secret', A.EndpointWithSecret, 400, 404),
  }),
  test: createRoute({
    method: 'post',
    path: '/portal/webhooks/{id}/test',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Send a signed test event (made-up data, `test: true`)',
    request: { params: IdParam },
    responses: portalOk('The test delivery', A.QueuedDelivery, 404),
  }),
  deliveries: createRoute({
    method: 'get',
    path: '/portal/webhooks/{id}/deliveries',
    tags,
    security,
    middleware: anyMember,
    summary: 'Recent deliveries with status, attempts and response codes',
    request: {
      params: IdParam,
      query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
    },
    responses: portalOk('The deliveries, newest first', A.DeliveryList, 400, 404),
  }),
  replay: createRoute({
    method: 'post',
    path: '/portal/webhook-deliveries/{id}/replay',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Send a delivery again as a new delivery (same webhook-id)',
    request: { params: IdParam },
    responses: portalOk('The new delivery', A.QueuedDelivery, 404, 409),
  }),
};

/**
 * Settings → Webhooks: the lead-delivery functions the operator's admin routes call, scoped to the
 * session's firm (another firm's endpoint or delivery is NOT_FOUND) and audited as the user.
 * Viewers read; admins and owners change.
 */
export function registerPortalWebhookRoutes(router: OpenAPIHono<AppEnv>, deps: PortalAppDeps) {
  router.openapi(routes.endpoints, async (c) => {
    const { accountId } = portalOf(c);
    const data = await listEndpoints(deps.delivery, accountId, { accountId });
    return c.json({ data, eventTypes: [...WEBHOOK_EVENT_TYPES] }, 200);
  });
  router.openapi(routes.createEndpoint, async (c) => {
    c.header('Cache-Control', 'no-store');
    const p = portalOf(c);
    const input = { ...c.req.valid('json'), accountId: p.accountId };
    return c.json(await createEndpoint(deps.delivery, input, actingAs(p)), 200);
  });
  router.openapi(routes.updateEndpoint, async (c) => {
    const as = actingAs(portalOf(c));
    return c.json(await updateEndpoint(deps.delivery, c.req.valid('param').id, c.req.valid('json'), as), 200);
  });
  router.openapi(routes.deleteEndpoint, async (c) =>
    c.json(await deleteEndpoint(deps.delivery, c.req.valid('param').id, actingAs(portalOf(c))), 200),
  );
  router.openapi(routes.rollSecret, async (c) => {
    c.header('Cache-Control', 'no-store');
    const overlap = c.req.valid('json').overlapSeconds ?? DEFAULT_ROLL_OVERLAP_SECONDS;
    const as = actingAs(portalOf(c));
    return c.json(await rollEndpointSecret(deps.delivery, c.req.valid('param').id, overlap, as), 200);
  });
  router.openapi(routes.test, async (c) =>
    c.json(await sendTestEvent(deps.delivery, c.req.valid('param').id, actingAs(portalOf(c))), 200),
  );
  router.openapi(routes.deliveries, async (c) => {
    const { accountId } = portalOf(c);
    const { id } = c.req.valid('param');
    const data = await listDeliveries(deps.delivery, id, c.req.valid('query').limit, {
      accountId,
      webhooksOnly: true,
    });
    return c.json({ data }, 200);
  });
  router.openapi(routes.replay, async (c) =>
    c.json(await replayDelivery(deps.delivery, c.req.valid('param').id, actingAs(portalOf(c))), 200),
  );
}
