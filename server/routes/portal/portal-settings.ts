import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { PortalDeps } from '../../domain/accounts/portal-deps.ts';
import { AccountUpdateSchema } from '../../domain/accounts/settings.ts';
import { DEFAULT_ROLL_OVERLAP_SECONDS, EndpointChangesSchema } from '../../domain/delivery/endpoints.ts';
import { WEBHOOK_EVENT_TYPES } from '../../domain/delivery/event-types.ts';
import { firmSettings, updateFirmSettings } from '../../domain/portal/firm-settings.ts';
import {
  createFirmEndpoint,
  deleteFirmEndpoint,
  listFirmDeliveries,
  listFirmEndpoints,
  replayFirmDelivery,
  rollFirmEndpointSecret,
  sendFirmTestEvent,
  updateFirmEndpoint,
} from '../../domain/portal/firm-webhooks.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { portalOf } from '../../http/portal-session.ts';
import { jsonBody, overlapSeconds } from '../schemas.ts';
import { IdParam, portalOk, portalSecurity } from './portal-schemas.ts';

const tags = ['Portal'];
const security = portalSecurity;
const Events = z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length);

const routes = {
  firm: createRoute({
    method: 'get',
    path: '/portal/settings/firm',
    tags,
    security,
    summary: 'Firm settings with every consent version',
    responses: portalOk('The settings'),
  }),
  updateFirm: createRoute({
    method: 'patch',
    path: '/portal/settings/firm',
    tags,
    security,
    summary: 'Display name, consent text (a new version), alert e-mails, accent colour (admin or owner)',
    request: jsonBody(AccountUpdateSchema),
    responses: portalOk('The settings after the change', 400),
  }),
  endpoints: createRoute({
    method: 'get',
    path: '/portal/webhooks',
    tags,
    security,
    summary: 'Webhook endpoints (no secrets) and the event types they can subscribe to',
    responses: portalOk('The endpoints'),
  }),
  createEndpoint: createRoute({
    method: 'post',
    path: '/portal/webhooks',
    tags,
    security,
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
    responses: portalOk('The endpoint and its secret', 400, 409),
  }),
  updateEndpoint: createRoute({
    method: 'patch',
    path: '/portal/webhooks/{id}',
    tags,
    security,
    summary: 'Change events, description, test data, or turn the endpoint off/on',
    request: {
      params: IdParam,
      ...jsonBody(EndpointChangesSchema),
    },
    responses: portalOk('The endpoint', 400, 404),
  }),
  deleteEndpoint: createRoute({
    method: 'delete',
    path: '/portal/webhooks/{id}',
    tags,
    security,
    summary: 'Delete an endpoint with its delivery log',
    request: { params: IdParam },
    responses: portalOk('Deleted', 404),
  }),
  rollSecret: createRoute({
    method: 'post',
    path: '/portal/webhooks/{id}/roll-secret',
    tags,
    security,
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
    responses: portalOk('The endpoint and its new secret', 400, 404),
  }),
  test: createRoute({
    method: 'post',
    path: '/portal/webhooks/{id}/test',
    tags,
    security,
    summary: 'Send a signed test event (made-up data, `test: true`)',
    request: { params: IdParam },
    responses: portalOk('The test delivery', 404),
  }),
  deliveries: createRoute({
    method: 'get',
    path: '/portal/webhooks/{id}/deliveries',
    tags,
    security,
    summary: 'Recent deliveries with status, attempts and response codes',
    request: {
      params: IdParam,
      query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
    },
    responses: portalOk('The deliveries, newest first', 400, 404),
  }),
  replay: createRoute({
    method: 'post',
    path: '/portal/webhook-deliveries/{id}/replay',
    tags,
    security,
    summary: 'Send a delivery again as a new delivery (same webhook-id)',
    request: { params: IdParam },
    responses: portalOk('The new delivery', 404, 409),
  }),
};

/** Settings → Firm and Settings → Webhooks, through the account-settings and delivery domain functions. */
export function registerPortalSettingsRoutes(router: OpenAPIHono<AppEnv>, deps: PortalDeps) {
  router.openapi(routes.firm, async (c) => c.json(await firmSettings(deps, portalOf(c)), 200));
  router.openapi(routes.updateFirm, async (c) =>
    c.json(await updateFirmSettings(deps, portalOf(c), c.req.valid('json')), 200),
  );
  router.openapi(routes.endpoints, async (c) =>
    c.json({ data: await listFirmEndpoints(deps, portalOf(c)), eventTypes: [...WEBHOOK_EVENT_TYPES] }, 200),
  );
  router.openapi(routes.createEndpoint, async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await createFirmEndpoint(deps, portalOf(c), c.req.valid('json')), 200);
  });
  router.openapi(routes.updateEndpoint, async (c) =>
    c.json(await updateFirmEndpoint(deps, portalOf(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );
  router.openapi(routes.deleteEndpoint, async (c) =>
    c.json(await deleteFirmEndpoint(deps, portalOf(c), c.req.valid('param').id), 200),
  );
  router.openapi(routes.rollSecret, async (c) => {
    c.header('Cache-Control', 'no-store');
    const overlap = c.req.valid('json').overlapSeconds ?? DEFAULT_ROLL_OVERLAP_SECONDS;
    return c.json(await rollFirmEndpointSecret(deps, portalOf(c), c.req.valid('param').id, overlap), 200);
  });
  router.openapi(routes.test, async (c) =>
    c.json(await sendFirmTestEvent(deps, portalOf(c), c.req.valid('param').id), 200),
  );
  router.openapi(routes.deliveries, async (c) => {
    const data = await listFirmDeliveries(
      deps,
      portalOf(c),
      c.req.valid('param').id,
      c.req.valid('query').limit,
    );
    return c.json({ data }, 200);
  });
  router.openapi(routes.replay, async (c) =>
    c.json(await replayFirmDelivery(deps, portalOf(c), c.req.valid('param').id), 200),
  );
}
