import { createRoute, z } from '@hono/zod-openapi';
import { closeAccount } from '../../domain/accounts/closure.ts';
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
import { WEBHOOK_EVENT_TYPES } from '../../domain/delivery/event-types.ts';
import { runRetention } from '../../domain/delivery/retention.ts';
import { deleteLead, exportSubject } from '../../domain/leads/privacy.ts';
import { createRouter } from '../../http/openapi-router.ts';
import { errorResponses, jsonBody, jsonResponse, overlapSeconds } from '../schemas.ts';
import {
  ClosureSchema,
  DeliveryListSchema,
  DeliveryQueuedSchema,
  EndpointAnswerSchema,
  EndpointDeletedSchema,
  EndpointListSchema,
  EndpointWithSecretSchema,
  LeadErasedSchema,
  RetentionReportSchema,
  SubjectExportSchema,
} from './delivery-schemas.ts';

const tags = ['Admin: delivery and privacy'];
const security = [{ adminToken: [] }];
const ok = <T extends z.ZodType>(description: string, schema: T) => ({
  200: jsonResponse(description, schema),
  ...errorResponses(400, 401, 404, 409),
});
const Id = z.string().min(1).max(64);
const IdParam = z.object({ id: Id });

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
  deleteLead: createRoute({
    method: 'delete',
    path: '/admin/v1/leads/{id}',
    tags,
    security,
    summary: 'Erase a lead and every copy (result, outbox, delivery logs, mails)',
    request: { params: IdParam },
    responses: ok('What was deleted', LeadErasedSchema),
  }),
  exportSubject: createRoute({
    method: 'get',
    path: '/admin/v1/accounts/{id}/export',
    tags,
    security,
    summary: 'Everything stored about one e-mail address (data-subject request)',
    request: { params: IdParam, query: z.object({ email: z.string().min(3).max(254) }) },
    responses: ok('The export', SubjectExportSchema),
  }),
  close: createRoute({
    method: 'post',
    path: '/admin/v1/accounts/{id}/close',
    tags,
    security,
    summary: 'Close an account: access stops now, data is deleted after the grace period',
    request: { params: IdParam },
    responses: ok('The closure and its deletion date', ClosureSchema),
  }),
  retention: createRoute({
    method: 'post',
    path: '/admin/v1/retention/run',
    tags,
    security,
    summary: 'Run the retention rules now (the worker runs them hourly)',
    responses: ok('How many rows each rule deleted', RetentionReportSchema),
  }),
};

/** Mounted inside the admin router (which checks the admin token). */
export function createDeliveryAdminRoutes(deps: DeliveryDeps) {
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
  router.openapi(routes.deleteLead, async (c) =>
    c.json(await deleteLead(deps, c.req.valid('param').id), 200),
  );
  router.openapi(routes.exportSubject, async (c) =>
    c.json(await exportSubject(deps, c.req.valid('param').id, c.req.valid('query').email), 200),
  );
  router.openapi(routes.close, async (c) => c.json(await closeAccount(deps, c.req.valid('param').id), 200));
  router.openapi(routes.retention, async (c) => c.json({ ...(await runRetention(deps)) }, 200));
  return router;
}
