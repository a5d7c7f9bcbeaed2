import { createRoute, z } from '@hono/zod-openapi';
import type { KeyRing } from '../../domain/credentials/tokens.ts';
import { createRouter } from '../../http/openapi-router.ts';
import { jsonResponse } from '../schemas.ts';

const route = createRoute({
  method: 'get',
  path: '/.well-known/jwks.json',
  tags: ['Licensing'],
  summary: 'Public keys that verify svc tokens (Ed25519, by kid)',
  description:
    'The key set a plugin or server uses to verify access and embed tokens offline: pick the key by the token’s `kid`. During a rotation the next key is published here before it signs, so cache it for at most five minutes.',
  responses: {
    200: jsonResponse(
      'JSON Web Key Set',
      z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).openapi('JWKS'),
    ),
  },
});

export function createJwksRoutes(keys: KeyRing) {
  const router = createRouter();
  router.openapi(route, async (c) => {
    // Short cache: a key published for rotation must reach verifiers before it signs.
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(await keys.jwks(), 200);
  });
  return router;
}
