import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { rulesCatalog } from '../../../calculators/estate-tax/rules-catalog.ts';
import type { AppEnv } from '../../http/app-env.ts';
import * as A from './answers.ts';
import { anyMember, portalOk, portalSecurity } from './schemas.ts';

const rules = createRoute({
  method: 'get',
  path: '/portal/rules',
  tags: ['Portal'],
  security: portalSecurity,
  middleware: anyMember,
  summary:
    'The estate-tax rule sets: dates of death each covers, every figure with its sources, the day they were checked and whether a primary source confirms it',
  responses: portalOk('Rules and sources', A.RulesCatalog),
});

/** Public law, the same for every firm; behind the session only because the page is (any role). */
export function registerPortalRulesRoutes(router: OpenAPIHono<AppEnv>) {
  const catalog = rulesCatalog();
  router.openapi(rules, (c) => c.json(catalog, 200));
}
