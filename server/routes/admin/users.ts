import { createRoute, z } from '@hono/zod-openapi';
import { inviteMember } from '../../domain/accounts/members.ts';
import { createRouter } from '../../http/openapi-router.ts';
import type { Services } from '../../main/services.ts';
import { errorResponses, jsonBody, jsonResponse } from '../schemas.ts';
import { requireAdmin } from './require-admin.ts';
import { InviteSchema } from './schemas.ts';

const invite = createRoute({
  method: 'post',
  path: '/admin/v1/users/invite',
  tags: ['Admin'],
  security: [{ adminToken: [] }],
  summary:
    'Give a person a role in a firm (e.g. an existing account its first owner); returns the sign-in link',
  request: jsonBody(
    z.object({
      accountId: z.string().min(1).max(64),
      email: z.email().max(254),
      role: z.enum(['owner', 'admin', 'viewer']),
    }),
  ),
  responses: {
    200: jsonResponse('The invite', InviteSchema),
    ...errorResponses(400, 401, 404),
  },
});

/** Operator side of portal membership: `npm run svc -- user invite`. */
export function createAdminUserRoutes(services: Services, adminToken: string) {
  const router = createRouter();
  router.use('/admin/v1/users/*', requireAdmin(adminToken));
  router.openapi(invite, async (c) => {
    const body = c.req.valid('json');
    const invited = await inviteMember(services.portal, { ...body, invitedBy: null });
    return c.json({ ...invited, expiresAt: invited.expiresAt.toISOString() }, 200);
  });
  return router;
}
