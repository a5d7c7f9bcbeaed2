import { createRoute, z } from '@hono/zod-openapi';
import { createAccount } from '../../domain/accounts/accounts.ts';
import { closeAccount } from '../../domain/accounts/closure.ts';
import {
  AccountUpdateSchema,
  listAccounts,
  showAccount,
  updateAccount,
} from '../../domain/accounts/settings.ts';
import { exportSubject } from '../../domain/leads/privacy.ts';
import { createRouter } from '../../http/openapi-router.ts';
import type { Services } from '../../main/services.ts';
import { jsonBody } from '../schemas.ts';
import { ClosureSchema, SubjectExportSchema } from './delivery-schemas.ts';
import { OPERATOR } from './require-admin.ts';
import {
  AccountCreatedSchema,
  AccountDetailSchema,
  AccountListSchema,
  ADMIN_TAGS,
  adminOk,
  adminSecurity,
  DELIVERY_TAGS,
  IdParam,
} from './schemas.ts';

const security = adminSecurity;

const routes = {
  list: createRoute({
    method: 'get',
    path: '/admin/v1/accounts',
    tags: ADMIN_TAGS,
    security,
    summary: 'Every firm account',
    responses: adminOk('The accounts', AccountListSchema),
  }),
  show: createRoute({
    method: 'get',
    path: '/admin/v1/accounts/{id}',
    tags: ADMIN_TAGS,
    security,
    summary: 'A firm: settings, consent text in force, license ids',
    request: { params: IdParam },
    responses: adminOk('The account', AccountDetailSchema),
  }),
  update: createRoute({
    method: 'patch',
    path: '/admin/v1/accounts/{id}',
    tags: ADMIN_TAGS,
    security,
    summary: 'Firm settings: display name, consent text (a new version), alert e-mails, accent colour',
    request: { params: IdParam, ...jsonBody(AccountUpdateSchema) },
    responses: adminOk('The account after the change', AccountDetailSchema),
  }),
  create: createRoute({
    method: 'post',
    path: '/admin/v1/accounts',
    tags: ADMIN_TAGS,
    security,
    summary: 'Create a firm account',
    request: jsonBody(z.object({ name: z.string().min(1).max(200), email: z.email().optional() })),
    responses: adminOk('The account', AccountCreatedSchema),
  }),
  exportSubject: createRoute({
    method: 'get',
    path: '/admin/v1/accounts/{id}/export',
    tags: DELIVERY_TAGS,
    security,
    summary: 'Everything stored about one e-mail address (data-subject request)',
    request: { params: IdParam, query: z.object({ email: z.string().min(3).max(254) }) },
    responses: adminOk('The export', SubjectExportSchema, 409),
  }),
  close: createRoute({
    method: 'post',
    path: '/admin/v1/accounts/{id}/close',
    tags: DELIVERY_TAGS,
    security,
    summary: 'Close an account: access stops now, data is deleted after the grace period',
    request: { params: IdParam },
    responses: adminOk('The closure and its deletion date', ClosureSchema, 409),
  }),
};

/** Firm accounts for the operator: list, read, change, create, a data-subject export, closing. */
export function createAccountAdminRoutes(services: Services) {
  const deps = { ...services.licensing, plans: services.config.plans };
  const router = createRouter();
  router.openapi(routes.list, async (c) => c.json({ accounts: await listAccounts(deps) }, 200));
  router.openapi(routes.show, async (c) => c.json(await showAccount(deps, c.req.valid('param').id), 200));
  router.openapi(routes.update, async (c) =>
    c.json(await updateAccount(deps, c.req.valid('param').id, c.req.valid('json'), OPERATOR), 200),
  );
  router.openapi(routes.create, async (c) =>
    c.json({ account: await createAccount(services.licensing, c.req.valid('json')) }, 200),
  );
  router.openapi(routes.exportSubject, async (c) =>
    c.json(await exportSubject(services.delivery, c.req.valid('param').id, c.req.valid('query').email), 200),
  );
  router.openapi(routes.close, async (c) =>
    c.json(await closeAccount(services.delivery, c.req.valid('param').id), 200),
  );
  return router;
}
