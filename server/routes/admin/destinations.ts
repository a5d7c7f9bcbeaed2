import { createRoute, z } from '@hono/zod-openapi';
import { listDeliveries, sendTestEvent } from '../../domain/delivery/deliveries.ts';
import type { DeliveryDeps } from '../../domain/delivery/deps.ts';
import {
  createDestination,
  DestinationChangesSchema,
  deleteDestination,
  disableDestination,
  enableDestination,
  listDestinations,
  NewDestinationSchema,
  requireDestination,
  rollDestinationCredentials,
  showDestination,
  updateDestination,
  vendorCatalog,
} from '../../domain/delivery/destinations.ts';
import { createRouter } from '../../http/openapi-router.ts';
import { jsonBody } from '../schemas.ts';
import { DeliveryListSchema, DeliveryQueuedSchema, EndpointDeletedSchema } from './delivery-schemas.ts';
import {
  DestinationAnswerSchema,
  DestinationListSchema,
  DestinationShowSchema,
  VendorCatalogSchema,
} from './destination-schemas.ts';
import { adminOk, adminSecurity, DELIVERY_TAGS, IdParam } from './schemas.ts';

const tags = DELIVERY_TAGS;
const security = adminSecurity;
const ok = <T extends z.ZodType>(description: string, schema: T) => adminOk(description, schema, 409);
const path = (suffix = '') => `/admin/v1/destinations/{id}${suffix}`;
const byId = (method: 'get' | 'post' | 'delete', suffix: string, description: string, schema: z.ZodType) =>
  createRoute({
    method,
    path: path(suffix),
    tags,
    security,
    request: { params: IdParam },
    responses: ok(description, schema),
  });

const routes = {
  vendors: createRoute({
    method: 'get',
    path: '/admin/v1/destination-vendors',
    tags,
    security,
    summary: 'Each CRM a destination can deliver to: its credential, its settings, its documentation',
    responses: ok('The vendors', VendorCatalogSchema),
  }),
  create: createRoute({
    method: 'post',
    path: '/admin/v1/destinations',
    tags,
    security,
    summary:
      'Add a CRM destination (receives lead.created only). The credential is encrypted; only its last four characters are shown again',
    request: jsonBody(NewDestinationSchema),
    responses: ok('The destination', DestinationAnswerSchema),
  }),
  list: createRoute({
    method: 'get',
    path: '/admin/v1/accounts/{id}/destinations',
    tags,
    security,
    request: { params: IdParam },
    responses: ok('The account’s destinations, each with its latest delivery', DestinationListSchema),
  }),
  show: byId('get', '', 'The destination and its latest delivery', DestinationShowSchema),
  update: createRoute({
    method: 'patch',
    path: path(),
    tags,
    security,
    summary: 'Change the name, settings or test-lead choice, or turn it off/on',
    request: { params: IdParam, ...jsonBody(DestinationChangesSchema) },
    responses: ok('The destination', DestinationAnswerSchema),
  }),
  roll: createRoute({
    method: 'post',
    path: path('/roll-credentials'),
    tags,
    security,
    summary: 'Replace the credential (made anew in the CRM)',
    request: { params: IdParam, ...jsonBody(z.object({ credential: z.string().min(1).max(500) })) },
    responses: ok('The destination', DestinationAnswerSchema),
  }),
  enable: byId(
    'post',
    '/enable',
    'The destination; what waited goes out, oldest first',
    DestinationAnswerSchema,
  ),
  disable: byId('post', '/disable', 'The destination; new leads wait up to 7 days', DestinationAnswerSchema),
  test: byId('post', '/test', 'A test lead queued to the destination', DeliveryQueuedSchema),
  remove: byId('delete', '', 'Deleted with its deliveries', EndpointDeletedSchema),
  deliveries: createRoute({
    method: 'get',
    path: path('/deliveries'),
    tags,
    security,
    request: {
      params: IdParam,
      query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
    },
    responses: ok('Latest deliveries with every attempt (credentials redacted)', DeliveryListSchema),
  }),
};

/**
 * CRM destinations for the operator, with the webhook commands' verbs. Deliveries, replay
 * (`POST /admin/v1/webhook-deliveries/{id}/replay`) and the test share the webhooks' mechanism.
 */
export function createDestinationAdminRoutes(deps: DeliveryDeps) {
  const router = createRouter();
  const id = (c: { req: { valid(t: 'param'): { id: string } } }) => c.req.valid('param').id;
  router.openapi(routes.vendors, (c) => c.json({ vendors: vendorCatalog() }, 200));
  router.openapi(routes.create, async (c) => c.json(await createDestination(deps, c.req.valid('json')), 200));
  router.openapi(routes.list, async (c) =>
    c.json({ destinations: await listDestinations(deps, id(c)) }, 200),
  );
  router.openapi(routes.show, async (c) => c.json(await showDestination(deps, id(c)), 200));
  router.openapi(routes.update, async (c) =>
    c.json(await updateDestination(deps, id(c), c.req.valid('json')), 200),
  );
  router.openapi(routes.roll, async (c) =>
    c.json(await rollDestinationCredentials(deps, id(c), c.req.valid('json').credential), 200),
  );
  router.openapi(routes.enable, async (c) => c.json(await enableDestination(deps, id(c)), 200));
  router.openapi(routes.disable, async (c) => c.json(await disableDestination(deps, id(c)), 200));
  router.openapi(routes.test, async (c) => {
    await requireDestination(deps, id(c));
    return c.json(await sendTestEvent(deps, id(c)), 200);
  });
  router.openapi(routes.remove, async (c) => c.json(await deleteDestination(deps, id(c)), 200));
  router.openapi(routes.deliveries, async (c) => {
    await requireDestination(deps, id(c));
    return c.json({ deliveries: await listDeliveries(deps, id(c), c.req.valid('query').limit) }, 200);
  });
  return router;
}
