import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { ACTIVITY_KIND_NAMES } from '../../domain/portal/activity-kinds.ts';
import type { PortalAppDeps } from '../../domain/portal/deps.ts';
import { firmActivity } from '../../domain/portal/firm-views.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { portalOf } from '../../http/auth/portal-session.ts';
import * as A from './answers.ts';
import { anyMember, portalOk, portalSecurity } from './schemas.ts';

const tags = ['Portal'];
const security = portalSecurity;

const ActivityKindQuery = z.enum(ACTIVITY_KIND_NAMES).optional();

const routes = {
  activity: createRoute({
    method: 'get',
    path: '/portal/activity',
    tags,
    security,
    middleware: anyMember,
    request: {
      query: z.object({
        limit: z.coerce.number().int().min(1).max(200).default(50),
        cursor: z.string().max(200).optional(),
        kind: ActivityKindQuery,
      }),
    },
    responses: portalOk('Audit trail, newest first', A.ActivityPage, 400),
  }),
};

/** The Activity page: the firm's audit trail, newest first, by kind. */
export function registerPortalActivityRoutes(router: OpenAPIHono<AppEnv>, deps: PortalAppDeps) {
  router.openapi(routes.activity, async (c) => {
    const { limit, cursor, kind } = c.req.valid('query');
    return c.json(
      await firmActivity(deps, portalOf(c), {
        limit,
        ...(cursor ? { cursor } : {}),
        ...(kind ? { kind } : {}),
      }),
      200,
    );
  });
}
