import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalAppDeps } from '../../domain/portal/deps.ts';
import { firmOverview } from '../../domain/portal/firm-views.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { portalOf } from '../../http/auth/portal-session.ts';
import * as A from './answers.ts';
import { anyMember, portalOk, portalSecurity } from './schemas.ts';

const tags = ['Portal'];
const security = portalSecurity;

const routes = {
  overview: createRoute({
    method: 'get',
    path: '/portal/overview',
    tags,
    security,
    middleware: anyMember,
    responses: portalOk('Overview', A.Overview),
  }),
};

/** The Overview page: the firm's figures at a glance, scoped by the session's firm. */
export function registerPortalOverviewRoutes(router: OpenAPIHono<AppEnv>, deps: PortalAppDeps) {
  router.openapi(routes.overview, async (c) => c.json(await firmOverview(deps, portalOf(c)), 200));
}
