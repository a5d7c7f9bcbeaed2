import { z } from '@hono/zod-openapi';
import { requirePortalRole } from '../../http/portal-session.ts';
import { errorResponses, jsonResponse } from '../schemas.ts';

export const Any = z.record(z.string(), z.unknown());
export const portalSecurity = [{ portalSession: [] }];
export const IdParam = z.object({ id: z.string().min(1).max(64) });

/** 200 with a JSON object; the usual errors of a portal endpoint. */
export const portalOk = (description: string, ...statuses: (400 | 401 | 403 | 404 | 409)[]) => ({
  200: jsonResponse(description, Any),
  ...errorResponses(401, 403, ...statuses),
});

/**
 * The role a route needs, as its `middleware` (checked before the request is validated): every
 * portal route names one, and portal-route-roles.test.ts holds the table they must match.
 */
export const anyMember = requirePortalRole('viewer');
export const adminOnly = requirePortalRole('admin');
