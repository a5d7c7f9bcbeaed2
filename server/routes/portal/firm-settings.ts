import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { actingAs } from '../../domain/accounts/portal-deps.ts';
import { AccountUpdateSchema, updateAccount } from '../../domain/accounts/settings.ts';
import type { PortalAppDeps } from '../../domain/portal/deps.ts';
import { firmSettings } from '../../domain/portal/firm-settings.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { portalOf } from '../../http/auth/portal-session.ts';
import { jsonBody } from '../schemas.ts';
import * as A from './answers.ts';
import { adminOnly, anyMember, portalOk, portalSecurity } from './schemas.ts';

const tags = ['Portal'];
const security = portalSecurity;

const routes = {
  firm: createRoute({
    method: 'get',
    path: '/portal/settings/firm',
    tags,
    security,
    middleware: anyMember,
    summary: 'Firm settings with every consent version',
    responses: portalOk('The settings', A.FirmSettings),
  }),
  updateFirm: createRoute({
    method: 'patch',
    path: '/portal/settings/firm',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Display name, consent text (a new version), alert e-mails, accent colour (admin or owner)',
    request: jsonBody(AccountUpdateSchema),
    responses: portalOk('The settings after the change', A.FirmSettings, 400),
  }),
};

/**
 * Settings → Firm: the account-settings functions the operator's admin routes call, scoped to
 * the session's firm and audited as the user. Viewers read; admins and owners change.
 */
export function registerPortalFirmSettingsRoutes(router: OpenAPIHono<AppEnv>, deps: PortalAppDeps) {
  router.openapi(routes.firm, async (c) => c.json(await firmSettings(deps, portalOf(c)), 200));
  router.openapi(routes.updateFirm, async (c) => {
    const p = portalOf(c);
    await updateAccount(deps, p.accountId, c.req.valid('json'), actingAs(p));
    return c.json(await firmSettings(deps, p), 200);
  });
}
