import { createRoute, z } from '@hono/zod-openapi';
import { DateText, LicenseUpdateSchema } from '../../domain/licensing/input.ts';
import { DEFAULT_KEY_OVERLAP_MS, rollLicenseKey } from '../../domain/licensing/keys.ts';
import { toLicenseView } from '../../domain/licensing/license-view.ts';
import { createLicense, revokeLicense } from '../../domain/licensing/licenses.ts';
import { listLicenses, showLicense, updateLicense } from '../../domain/licensing/lifecycle.ts';
import { createRouter } from '../../http/openapi-router.ts';
import type { Services } from '../../main/services.ts';
import { jsonBody, overlapSeconds } from '../schemas.ts';
import { OPERATOR } from './require-admin.ts';
import {
  ADMIN_TAGS,
  adminOk,
  adminSecurity,
  IdParam,
  KeyRolledSchema,
  LicenseCreatedSchema,
  LicenseDetailSchema,
  LicenseListSchema,
} from './schemas.ts';

const tags = ADMIN_TAGS;
const security = adminSecurity;

const routes = {
  list: createRoute({
    method: 'get',
    path: '/admin/v1/accounts/{id}/licenses',
    tags,
    security,
    summary: "An account's licenses with status and seats used",
    request: { params: IdParam },
    responses: adminOk('The licenses', LicenseListSchema),
  }),
  show: createRoute({
    method: 'get',
    path: '/admin/v1/licenses/{id}',
    tags,
    security,
    summary: 'A license: status, what happens next, dates, seats used, activations with their ids',
    request: { params: IdParam },
    responses: adminOk('The license and its activations', LicenseDetailSchema),
  }),
  update: createRoute({
    method: 'patch',
    path: '/admin/v1/licenses/{id}',
    tags,
    security,
    summary: 'Change domains, seats, plan, paid-through or trial end (audited)',
    description:
      'Removing a domain ends the activations and embed tokens of that site on their next request. Seats below the sites in use answer 409 `SEATS_IN_USE` naming the activations to release. Dates are `YYYY-MM-DD` (midnight UTC) or an ISO 8601 date-time.',
    request: { params: IdParam, ...jsonBody(LicenseUpdateSchema) },
    responses: adminOk('The license after the change', LicenseDetailSchema, 409),
  }),
  create: createRoute({
    method: 'post',
    path: '/admin/v1/licenses',
    tags,
    security,
    summary: 'Create a license; the key is in this response only',
    request: jsonBody(
      z
        .object({
          accountId: z.string().min(1),
          plan: z.string().min(1).max(40),
          seats: z.number().int().min(0).max(10_000),
          domains: z.array(z.string().min(1).max(253)).max(100),
          trialDays: z.number().int().min(1).max(365).optional(),
          paidThrough: DateText.optional(),
        })
        .refine(
          (v) => v.trialDays !== undefined || v.paidThrough !== undefined,
          'trialDays or paidThrough is required',
        ),
    ),
    responses: adminOk('The license and its key', LicenseCreatedSchema),
  }),
  rollKey: createRoute({
    method: 'post',
    path: '/admin/v1/licenses/{id}/roll-key',
    tags,
    security,
    summary: 'Issue a new publishable or secret key; the old one stays valid for the overlap',
    request: {
      params: IdParam,
      ...jsonBody(
        z.object({
          kind: z.enum(['publishable', 'secret']),
          overlapSeconds: overlapSeconds('How long the old key keeps working (default 24 h; 0 = ends now)'),
        }),
      ),
    },
    responses: adminOk('The new key (shown once) and when the old one ends', KeyRolledSchema),
  }),
  revoke: createRoute({
    method: 'post',
    path: '/admin/v1/licenses/{id}/revoke',
    tags,
    security,
    request: { params: IdParam },
    responses: adminOk('The revoked license', LicenseDetailSchema),
  }),
};

/** Licenses for the operator: an account's list, one license, changes, creation, keys, revocation. */
export function createLicenseAdminRoutes(services: Services) {
  const deps = { ...services.licensing, plans: services.config.plans };
  const now = () => services.clock.now();
  const router = createRouter();
  router.openapi(routes.list, async (c) =>
    c.json({ licenses: await listLicenses(deps, c.req.valid('param').id) }, 200),
  );
  router.openapi(routes.show, async (c) => c.json(await showLicense(deps, c.req.valid('param').id), 200));
  router.openapi(routes.update, async (c) =>
    c.json(await updateLicense(deps, c.req.valid('param').id, c.req.valid('json'), OPERATOR), 200),
  );
  router.openapi(routes.create, async (c) => {
    const { paidThrough, ...input } = c.req.valid('json');
    const created = await createLicense(
      services.licensing,
      { ...input, ...(paidThrough ? { paidThrough } : {}) },
      services.config.plans,
    );
    return c.json(
      {
        license: toLicenseView(created.license, 0, now()),
        licenseKey: created.licenseKey,
        publishableKey: created.publishableKey,
      },
      200,
    );
  });
  router.openapi(routes.revoke, async (c) => {
    const { id } = c.req.valid('param');
    await revokeLicense(services.licensing, id);
    return c.json(await showLicense(services.licensing, id), 200);
  });
  router.openapi(routes.rollKey, async (c) => {
    const { kind, overlapSeconds } = c.req.valid('json');
    const rolled = await rollLicenseKey(services.licensing, {
      licenseId: c.req.valid('param').id,
      kind,
      overlapMs: overlapSeconds === undefined ? DEFAULT_KEY_OVERLAP_MS : overlapSeconds * 1000,
    });
    return c.json(
      {
        kind,
        ...(kind === 'secret' ? { licenseKey: rolled.key } : { publishableKey: rolled.key }),
        previousKeysEndAt: rolled.previousKeysEndAt,
      },
      200,
    );
  });
  return router;
}
