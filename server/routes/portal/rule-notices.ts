import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { PortalDeps } from '../../domain/accounts/portal-deps.ts';
import type { PortalAppDeps } from '../../domain/portal/deps.ts';
import { dismissFirmRuleNotice, firmRuleNotices } from '../../domain/rules/notices.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { portalOf } from '../../http/auth/portal-session.ts';
import { jsonBody } from '../schemas.ts';
import * as A from './answers.ts';
import { adminOnly, anyMember, portalOk, portalSecurity } from './schemas.ts';

const tags = ['Portal'];

const list = createRoute({
  method: 'get',
  path: '/portal/rule-notices',
  tags,
  security: portalSecurity,
  middleware: anyMember,
  summary:
    'Changes to the law under the firm’s calculators that the firm was told of and has not dismissed (the banner)',
  responses: portalOk('Open rule notices', A.RuleNotices),
});

const dismiss = createRoute({
  method: 'post',
  path: '/portal/rule-notices/dismiss',
  tags,
  security: portalSecurity,
  middleware: adminOnly,
  summary: 'Dismiss one rule notice for the whole firm',
  request: jsonBody(z.object({ id: z.string().min(1).max(200) })),
  responses: portalOk('Dismissed', A.Changed, 404),
});

export function registerPortalRuleNoticeRoutes(router: OpenAPIHono<AppEnv>, deps: PortalAppDeps) {
  router.openapi(list, async (c) => c.json(await firmRuleNotices(deps.db, portalOf(c).accountId), 200));
  router.openapi(dismiss, async (c) => {
    await dismissFirmRuleNotice(deps.db, portalOf(c).accountId, c.req.valid('json').id, deps.clock.now());
    return c.json({ changed: true as const }, 200);
  });
}
