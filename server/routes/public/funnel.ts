import { createRoute, z } from '@hono/zod-openapi';
import { FunnelSchema } from '../../contracts/funnel.ts';
import { requireScope } from '../../domain/credentials/scopes.ts';
import type { LicensingDeps } from '../../domain/deps.ts';
import { funnelPeriod, funnelReport } from '../../domain/funnel/report.ts';
import { recordView } from '../../domain/funnel/views.ts';
import { requireCredential } from '../../http/auth/auth.ts';
import { createRouter } from '../../http/openapi-router.ts';
import { bearerSecurity, errorResponses, jsonBody, jsonResponse, PageField } from '../schemas.ts';

const tags = ['Funnel'];

const view = createRoute({
  method: 'post',
  path: '/api/views',
  tags,
  summary: 'Count a widget view (embed token)',
  description:
    'What a widget sends once it is ready with a live embed session: one view of its calculator on the page it sits on. Best effort: counted in memory and written to the funnel every few seconds (a crash of the server loses at most those seconds). Only counts are kept, never a visitor identifier, cookie or address; a page not on the embed session’s own origin is counted without a page. A widget counts once per embed session and page: a repeat is answered 204 and not counted. Views are not abuse-proof: anyone can open embed sessions on a firm’s page and send them, within the `views` rate limit.',
  security: bearerSecurity,
  request: jsonBody(
    z.object({
      calculator: z.string().min(1).max(64).openapi({ example: 'estate-tax' }),
      page: PageField,
      language: z
        .enum(['en', 'es'])
        .optional()
        .openapi({ description: 'The widget’s language (default en)' }),
    }),
    { calculator: 'estate-tax', page: 'https://smithlaw.com/estate-planning' },
  ),
  responses: { 204: { description: 'Counted' }, ...errorResponses(400, 401) },
});

const DateParam = (description: string) => z.string().max(40).optional().openapi({ description });

const funnel = createRoute({
  method: 'get',
  path: '/api/funnel',
  tags,
  summary: 'The funnel: views → calculations → leads → converted, by calculator and page',
  description:
    'For a period of whole UTC days: widget views, calculations and leads (held leads and test traffic apart), and of the leads created in the period how many the firm has contacted, converted or lost, in total, by calculator and by page, with rates. Give `month`, or `createdFrom`/`createdTo` (as in the lead list: from inclusive, to exclusive); the default is the last 30 days including today. Needs `leads:read`. Counts are not abuse-proof (anyone can load a firm’s public page).',
  security: bearerSecurity,
  request: {
    query: z.object({
      month: z.string().max(7).optional().openapi({ description: 'A calendar month, YYYY-MM (UTC)' }),
      createdFrom: DateParam('ISO date or date-time, UTC, inclusive (its whole day counts)'),
      createdTo: DateParam('ISO date or date-time, UTC, exclusive'),
    }),
  },
  responses: { 200: jsonResponse('The funnel', FunnelSchema), ...errorResponses(400, 401, 403) },
});

export function createFunnelRoutes(deps: LicensingDeps) {
  const router = createRouter();
  router.use(view.path, requireCredential(deps, ['embed']));
  router.openapi(view, async (c) => {
    const principal = c.get('principal');
    if (principal?.kind !== 'embed') throw new Error('unreachable');
    await recordView(deps, principal, c.req.valid('json'));
    return c.body(null, 204);
  });
  router.use(funnel.path, requireCredential(deps, ['access', 'apikey']));
  router.openapi(funnel, async (c) => {
    const principal = c.get('principal')!;
    requireScope(principal, 'leads:read');
    const period = funnelPeriod(deps.clock.now(), c.req.valid('query'));
    return c.json(await funnelReport(deps, principal.accountId, period), 200);
  });
  return router;
}
