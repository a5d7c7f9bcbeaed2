import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { PortalAppDeps } from '../../domain/portal/deps.ts';
import { firmOverview } from '../../domain/portal/firm-views.ts';
import { portalEmbeds, portalFunnel } from '../../domain/portal/funnel-view.ts';
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
  funnel: createRoute({
    method: 'get',
    path: '/portal/funnel',
    tags,
    security,
    middleware: anyMember,
    summary: 'The funnel of the last 30 UTC days against the 30 before',
    responses: portalOk('Funnel', A.PortalFunnel),
  }),
  embeds: createRoute({
    method: 'get',
    path: '/portal/embeds',
    tags,
    security,
    middleware: anyMember,
    summary: 'Where the firm’s embeds are live (site, last view, last lead)',
    responses: portalOk('Embeds', A.EmbedSightings),
  }),
};

/** The Overview page: the firm's figures at a glance, scoped by the session's firm. */
export function registerPortalOverviewRoutes(router: OpenAPIHono<AppEnv>, deps: PortalAppDeps) {
  router.openapi(routes.overview, async (c) => c.json(await firmOverview(deps, portalOf(c)), 200));
  router.openapi(routes.funnel, async (c) => c.json(await portalFunnel(deps, portalOf(c)), 200));
  router.openapi(routes.embeds, async (c) => c.json(await portalEmbeds(deps, portalOf(c)), 200));
}
