import { createRoute, z } from '@hono/zod-openapi';
import {
  AccountUpdateSchema,
  listAccounts,
  showAccount,
  updateAccount,
} from '../../domain/accounts/settings.ts';
import { LicenseUpdateSchema } from '../../domain/licensing/input.ts';
import {
  type ActingAs,
  listLicenses,
  releaseSeat,
  showLicense,
  updateLicense,
} from '../../domain/licensing/lifecycle.ts';
import { createRouter } from '../../http/openapi-router.ts';
import type { Services } from '../../main/services.ts';
import { errorResponses, jsonBody, jsonResponse } from '../schemas.ts';
import {
  AccountDetailSchema,
  AccountListSchema,
  ActivationReleasedSchema,
  LicenseDetailSchema,
  LicenseListSchema,
} from './schemas.ts';

const tags = ['Admin'];
const security = [{ adminToken: [] }];
const ok = <T extends z.ZodType>(description: string, schema: T, ...extra: 409[]) => ({
  200: jsonResponse(description, schema),
  ...errorResponses(400, 401, 404, ...extra),
});
const IdParam = z.object({ id: z.string().min(1).max(64) });

/** The instance admin token names no person; the audit trail records the operator as `operator`. */
const OPERATOR: ActingAs = { actor: 'operator' };

const routes = {
  listAccounts: createRoute({
    method: 'get',
    path: '/admin/v1/accounts',
    tags,
    security,
    summary: 'Every firm account',
    responses: ok('The accounts', AccountListSchema),
  }),
  showAccount: createRoute({
    method: 'get',
    path: '/admin/v1/accounts/{id}',
    tags,
    security,
    summary: 'A firm: settings, consent text in force, license ids',
    request: { params: IdParam },
    responses: ok('The account', AccountDetailSchema),
  }),
  updateAccount: createRoute({
    method: 'patch',
    path: '/admin/v1/accounts/{id}',
    tags,
    security,
    summary: 'Firm settings: display name, consent text (a new version), alert e-mails, accent colour',
    request: { params: IdParam, ...jsonBody(AccountUpdateSchema) },
    responses: ok('The account after the change', AccountDetailSchema),
  }),
  listLicenses: createRoute({
    method: 'get',
    path: '/admin/v1/accounts/{id}/licenses',
    tags,
    security,
    summary: "An account's licenses with status and seats used",
    request: { params: IdParam },
    responses: ok('The licenses', LicenseListSchema),
  }),
  showLicense: createRoute({
    method: 'get',
    path: '/admin/v1/licenses/{id}',
    tags,
    security,
    summary: 'A license: status, what happens next, dates, seats used, activations with their ids',
    request: { params: IdParam },
    responses: ok('The license and its activations', LicenseDetailSchema),
  }),
  updateLicense: createRoute({
    method: 'patch',
    path: '/admin/v1/licenses/{id}',
    tags,
    security,
    summary: 'Change domains, seats, plan, paid-through or trial end (audited)',
    description:
      'Removing a domain ends the activations and embed tokens of that site on their next request. Seats below the sites in use answer 409 `SEATS_IN_USE` naming the activations to release. Dates are `YYYY-MM-DD` (midnight UTC) or an ISO 8601 date-time.',
    request: { params: IdParam, ...jsonBody(LicenseUpdateSchema) },
    responses: ok('The license after the change', LicenseDetailSchema, 409),
  }),
  releaseActivation: createRoute({
    method: 'post',
    path: '/admin/v1/activations/{id}/release',
    tags,
    security,
    summary: "Release a site's seat; its tokens stop on their next request",
    request: { params: IdParam },
    responses: ok('The released activation and its license', ActivationReleasedSchema),
  }),
};

/** License and account lifecycle for the operator (admin token); mounted under the admin router. */
export function createLifecycleAdminRoutes(services: Services) {
  const deps = { ...services.licensing, plans: services.config.plans };
  const router = createRouter();
  router.openapi(routes.listAccounts, async (c) => c.json({ accounts: await listAccounts(deps) }, 200));
  router.openapi(routes.showAccount, async (c) =>
    c.json(await showAccount(deps, c.req.valid('param').id), 200),
  );
  router.openapi(routes.updateAccount, async (c) =>
    c.json(await updateAccount(deps, c.req.valid('param').id, c.req.valid('json'), OPERATOR), 200),
  );
  router.openapi(routes.listLicenses, async (c) =>
    c.json({ licenses: await listLicenses(deps, c.req.valid('param').id) }, 200),
  );
  router.openapi(routes.showLicense, async (c) =>
    c.json(await showLicense(deps, c.req.valid('param').id), 200),
  );
  router.openapi(routes.updateLicense, async (c) =>
    c.json(await updateLicense(deps, c.req.valid('param').id, c.req.valid('json'), OPERATOR), 200),
  );
  router.openapi(routes.releaseActivation, async (c) =>
    c.json(await releaseSeat(deps, c.req.valid('param').id, OPERATOR), 200),
  );
  return router;
}
