import { createRoute, z } from '@hono/zod-openapi';
import type { LicensingDeps } from '../../domain/deps.ts';
import { issueLeadChallenge } from '../../domain/leads/lead-challenge.ts';
import { requireCredential } from '../../http/auth/auth.ts';
import { createRouter } from '../../http/openapi-router.ts';
import { networkOf } from '../../http/requests/client-ip.ts';
import { bearerSecurity, errorResponses, jsonResponse } from '../schemas.ts';

const challenge = createRoute({
  method: 'post',
  path: '/api/leads/challenge',
  tags: ['Leads'],
  summary: 'A proof-of-work challenge for the next lead (embed token; ALTCHA format; empty body)',
  description:
    "The widget solves this before it sends a lead and passes the solution as `altcha`: cheap for one visitor, costly for a script sending thousands. A challenge is signed, short-lived and answers one lead. Its price (`maxnumber`) follows the paid leads of the last hour from the caller's network (IPv4 /24, IPv6 /64); the license's other traffic adds at most 4×.",
  security: bearerSecurity,
  responses: {
    200: jsonResponse(
      'Find number ≤ maxnumber with hex SHA-256(salt + number) = challenge; send it as `altcha`',
      z.object({
        algorithm: z.literal('SHA-256'),
        challenge: z.string(),
        maxnumber: z.number().int(),
        salt: z.string(),
        signature: z.string(),
      }),
    ),
    ...errorResponses(401),
  },
});

export function createLeadChallengeRoutes(deps: LicensingDeps) {
  const router = createRouter();
  router.on(['POST'], challenge.path, requireCredential(deps, ['embed']));
  router.openapi(challenge, async (c) => {
    const principal = c.get('principal');
    if (principal?.kind !== 'embed') throw new Error('unreachable');
    c.header('Cache-Control', 'no-store');
    // Priced by the requester's network, counted as the spam rule counts it (/24, /64).
    return c.json(await issueLeadChallenge(deps, principal, networkOf(c.get('clientIp'))), 200);
  });
  return router;
}
