import { createRoute, z } from '@hono/zod-openapi';
import {
  cachedEmbedLicense,
  createEmbedSession,
  type EmbedSessionDeps,
} from '../../domain/activation/embed-sessions.ts';
import type { LicenseCeilings } from '../../domain/licensing/ceilings.ts';
import { createRouter } from '../../http/openapi-router.ts';
import { ipRateKey } from '../../http/requests/client-ip.ts';
import { errorResponses, Iso, jsonBody, jsonResponse } from '../schemas.ts';

const SessionConsentSchema = z.object({
  versionId: z.string(),
  text: z.string(),
  sha256: z.string(),
  language: z.string().openapi({ description: 'The language `text` is written in: `en` or `es`' }),
});

const route = createRoute({
  method: 'post',
  path: '/api/license/activate',
  tags: ['Embeds'],
  summary: 'Open an embed session (called by loader.js from the firm’s page; any origin)',
  description:
    'Takes the **publishable key** (`svc_pk_…`, the loader’s `data-key`). The page origin (the browser-set `Origin` header) must be one of the license’s allowed domains or a development host; development hosts get test-mode sessions. Returns a ~10-minute embed token bound to the license, the account, the page origin (`org`) and an embed session id (`sid`). A renewal sends the current token as `currentToken` and keeps its `sid`. The secret license key (`SVC-…`) is answered 400 `WRONG_KEY_KIND`, except on licenses made before publishable keys existed, which get a `warnings` entry (and a `Deprecation` header) until their secret key is rolled.',
  request: jsonBody(
    z.object({
      licenseKey: z.string().min(1).max(200).openapi({ example: 'svc_pk_…' }),
      calculator: z.string().min(1).max(64).optional().openapi({ example: 'estate-tax' }),
      currentToken: z
        .string()
        .max(4000)
        .optional()
        .openapi({ description: 'The embed token being renewed; the new one keeps its session id' }),
    }),
    { licenseKey: 'svc_pk_3mQ8vT2nX7kL9pR4', calculator: 'estate-tax' },
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
          test: z.boolean().openapi({ description: 'Test mode: data stays out of lead lists and alerts' }),
          warnings: z
            .array(z.object({ code: z.literal('SECRET_KEY_IN_PAGE'), message: z.string() }))
            .optional(),
          firm: z
            .object({
              name: z.string(),
              accent: z.string().optional(),
              phone: z.string().optional(),
              email: z.string().optional(),
            })
            .openapi({
              description:
                'The firm’s name, accent colour, and phone and e-mail (for the thank-you state) from its settings',
            }),
          consent: SessionConsentSchema.extend({
            byLanguage: z.object({ es: SessionConsentSchema }).openapi({
              description:
                'The version a widget in another language shows: the firm’s Spanish text, the default Spanish text while the firm is on the default English one, or else the firm’s own English text (`language: en`)',
            }),
          }).openapi({
            description:
              'The firm’s consent version in force: the widget shows `text` verbatim and sends `versionId` with the lead',
          }),
        })
        .openapi('EmbedSession'),
    ),
    ...errorResponses(400, 401, 403),
  },
});

/**
 * `ceilings` counts sessions per license: past the plan's ceiling each client IP of that license
 * gets the tight budget (the token just minted is then not handed out).
 */
export function createEmbedSessionRoutes(deps: EmbedSessionDeps, ceilings?: LicenseCeilings) {
  const router = createRouter();
  router.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const origin = c.req.header('origin');
    // The rate limit's count, taken here (the route is deferred: see `rateGate`): when the caches
    // already know the license, the session counts toward its ceiling in the same Redis round trip.
    const warm = ceilings && cachedEmbedLicense(deps, body.licenseKey, origin);
    const counted = await c.get('rateGate')?.(warm ? ceilings.sessionsCounter(warm.id) : undefined);
    c.header('Cache-Control', 'no-store');
    const { license, sid: _sid, ...session } = await createEmbedSession(deps, { ...body, origin });
    await ceilings?.session(
      license,
      ipRateKey(c.get('clientIp') ?? 'unknown'),
      // Counted for the license the caches named; one the round trip's epoch changed is counted now.
      warm?.id === license.id ? counted : undefined,
    );
    if (session.warnings) c.header('Deprecation', 'true');
    return c.json(session, 200);
  });
  return router;
}
