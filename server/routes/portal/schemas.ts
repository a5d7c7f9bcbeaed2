import { z } from '@hono/zod-openapi';
import { requirePortalRole } from '../../http/auth/portal-session.ts';
import { errorResponses, jsonResponse } from '../schemas.ts';

/** A JSON object passed on as it is (a WebAuthn response, which @simplewebauthn checks). */
export const JsonObject = z.record(z.string(), z.unknown());
export const portalSecurity = [{ portalSession: [] }];
export const IdParam = z.object({ id: z.string().min(1).max(64) });

/** 200 with its answer's schema (see answers.ts); the usual errors of a portal endpoint. */
export const portalOk = <T extends z.ZodType>(
  description: string,
  schema: T,
  ...statuses: (400 | 401 | 403 | 404 | 409)[]
) => ({
  200: jsonResponse(description, schema),
  ...errorResponses(401, 403, ...statuses),
});

/**
 * The role a route needs, as its `middleware` (checked before the request is validated): every
 * portal route names one, and route-roles.test.ts holds the table they must match.
 */
export const anyMember = requirePortalRole('viewer');
export const adminOnly = requirePortalRole('admin');
