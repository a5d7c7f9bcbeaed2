import { createRoute, z } from '@hono/zod-openapi';
import { listDeliveries, replayDelivery, sendTestEvent } from '../../domain/delivery/deliveries.ts';
import type { DeliveryDeps } from '../../domain/delivery/deps.ts';
import {
  createEndpoint,
  DEFAULT_ROLL_OVERLAP_SECONDS,
  deleteEndpoint,
  EndpointChangesSchema,
  enableEndpoint,
  listEndpoints,
  rollEndpointSecret,
  updateEndpoint,
} from '../../domain/delivery/endpoints.ts';
import { WEBHOOK_EVENT_TYPES } from '../../domain/outbox/event-types.ts';
import { createRouter } from '../../http/openapi-router.ts';
import { jsonBody, overlapSeconds } from '../schemas.ts';
import {
  DeliveryListSchema,
  DeliveryQueuedSchema,
  EndpointAnswerSchema,
  EndpointDeletedSchema,
  EndpointListSchema,
  EndpointWithSecretSchema,
} from './delivery-schemas.ts';
import { adminOk, adminSecurity, DELIVERY_TAGS, IdParam } from './schemas.ts';

const tags = DELIVERY_TAGS;
const security = adminSecurity;
const ok = <T extends z.ZodType>(description: string, schema: T) => adminOk(description, schema, 409);
const Id = z.string().min(1).max(64);

const routes = {
  create: createRoute({
    method: 'post',
    path: '/admin/v1/webhooks',
    tags,
    security,
    summary:
      'Register a webhook endpoint; its whsec_ secret is in this response only. Past the plan’s endpoint limit (default 10): 409 `ENDPOINT_LIMIT_REACHED`',
    request: jsonBody(
      z.object({
        accountId: Id,
        url: z.string().min(1).max(2000),
        events: z.array(z.string().max(40)).min(1).max(WEBHOOK_EVENT_TYPES.length),
        description: z.string().max(200).optional(),
        includeTest: z.boolean().optional(),
      }),
    ),
    responses: ok('The endpoint and its secret', EndpointWithSecretSchema),
  }),
  list: createRoute({
    method: 'get',
    path: '/admin/v1/accounts/{id}/webhooks',
    tags,
    security,
    request: { params: IdParam },
    responses: ok('The account’s endpoints (no secrets)', EndpointListSchema),
  }),
  deliveries: createRoute({
    method: 'get',
    path: '/admin/v1/webhooks/{id}/deliveries',
    tags,
    security,
    request: {
      params: IdParam,
      query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
    },
    responses: ok('Latest deliveries with every attempt', DeliveryListSchema),
  }),
  replay: createRoute({
    method: 'post',
    path: '/admin/v1/webhook-deliveries/{id}/replay',
    tags,
    security,
    request: { params: IdParam },
    responses: ok('The new delivery', DeliveryQueuedSchema),
  }),
  test: createRoute({
    method: 'post',
    path: '/admin/v1/webhooks/{id}/test',
    tags,
    security,
    request: { params: IdParam },
    responses: ok('The test delivery', DeliveryQueuedSchema),
  }),
  update: createRoute({
    method: 'patch',
    path: '/admin/v1/webhooks/{id}',
    tags,
    security,
    summary: 'Change events, description, test data, or turn the endpoint off/on',
    request: {
      params: IdParam,
      ...jsonBody(EndpointChangesSchema),
    },
    responses: ok('The endpoint', EndpointAnswerSchema),
  }),
  remove: createRoute({
    method: 'delete',
    path: '/admin/v1/webhooks/{id}',
    tags,
    security,
    request: { params: IdParam },
    responses: ok('Deleted', EndpointDeletedSchema),
  }),
  roll: createRoute({
    method: 'post',
    path: '/admin/v1/webhooks/{id}/roll-secret',
    tags,
    security,
    summary: 'New signing secret (shown once); the old one signs beside it during the overlap',
    request: {
      params: IdParam,
      body: {
        required: false,
        content: {
          'application/json': {
            schema: z.object({
              overlapSeconds: overlapSeconds(
                'How long the old secret also signs (default 24 h; 0 = ends now)',
              ),
            }),
          },
        },
      },
    },
    responses: ok('The endpoint and its new secret', EndpointWithSecretSchema),
  }),
  enable: createRoute({
    method: 'post',
    path: '/admin/v1/webhooks/{id}/enable',
    tags,
    security,
    request: { params: IdParam },
    responses: ok('The endpoint', EndpointAnswerSchema),
  }),
};

/** Webhook endpoints and their deliveries for the operator: register, change, test, replay, roll, enable. */
export function createWebhookAdminRoutes(deps: DeliveryDeps) {
  const router = createRouter();
  router.openapi(routes.create, async (c) => c.json(await createEndpoint(deps, c.req.valid('json')), 200));
  router.openapi(routes.list, async (c) =>
    c.json({ endpoints: await listEndpoints(deps, c.req.valid('param').id) }, 200),
  );
  router.openapi(routes.deliveries, async (c) =>
    c.json(
      { deliveries: await listDeliveries(deps, c.req.valid('param').id, c.req.valid('query').limit) },
      200,
    ),
  );
  router.openapi(routes.replay, async (c) =>
    c.json(await replayDelivery(deps, c.req.valid('param').id), 200),
  );
  router.openapi(routes.test, async (c) => c.json(await sendTestEvent(deps, c.req.valid('param').id), 200));
  router.openapi(routes.update, async (c) =>
    c.json(await updateEndpoint(deps, c.req.valid('param').id, c.req.valid('json')), 200),
  );
  router.openapi(routes.remove, async (c) =>
    c.json(await deleteEndpoint(deps, c.req.valid('param').id), 200),
  );
  router.openapi(routes.roll, async (c) => {
    const body = (c.req.valid('json') ?? {}) as { overlapSeconds?: number };
    return c.json(
      await rollEndpointSecret(
        deps,
        c.req.valid('param').id,
        body.overlapSeconds ?? DEFAULT_ROLL_OVERLAP_SECONDS,
      ),
      200,
    );
  });
  router.openapi(routes.enable, async (c) =>
    c.json(await enableEndpoint(deps, c.req.valid('param').id), 200),
  );
  return router;
}
