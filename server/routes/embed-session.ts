import { createRoute, z } from '@hono/zod-openapi';
import { createEmbedSession } from '../domain/embed-sessions.ts';
import type { LicensingDeps } from '../domain/token-set.ts';
import { createRouter } from '../http/openapi-router.ts';
import { errorResponses, Iso, jsonBody, jsonResponse } from './schemas.ts';

const route = createRoute({
  method: 'post',
  path: '/api/license/activate',
  tags: ['Embeds'],
  summary: 'Open an embed session (called by loader.js from the firm’s page; any origin)',
  description:
    'The page origin (the browser-set `Origin` header) must be one of the license’s allowed domains or a development host. Returns a ~10-minute embed token bound to the license, the account and the origin host.',
  request: jsonBody(
    z.object({
      licenseKey: z.string().min(1).max(200),
      calculator: z.string().min(1).max(64).optional().openapi({ example: 'estate-tax' }),
    }),
  ),
  responses: {
    200: jsonResponse(
      'An embed session',
      z
        .object({
          token: z.string(),
          expiresAt: Iso,
          embedUrl: z.string(),
          calculators: z.array(z.string()),
          firm: z
            .object({ name: z.string(), accent: z.string().optional() })
            .openapi({ description: 'The firm’s name and accent colour from its settings' }),
        })
        .openapi('EmbedSession'),
    ),
    ...errorResponses(400, 401, 403),
  },
});

export function createEmbedSessionRoutes(deps: LicensingDeps & { embedUrl: string }) {
  const router = createRouter();
  router.openapi(route, async (c) => {
    const body = c.req.valid('json');
    c.header('Cache-Control', 'no-store');
    return c.json(await createEmbedSession(deps, { ...body, origin: c.req.header('origin') }), 200);
  });
  return router;
}
