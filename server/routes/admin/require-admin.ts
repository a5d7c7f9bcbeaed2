import type { MiddlewareHandler } from 'hono';
import type { ActingAs } from '../../domain/deps.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { bearerOf } from '../../http/auth/auth.ts';
import { safeEqual } from '../../lib/constant-time.ts';
import { AppError } from '../../lib/errors.ts';

/** The instance admin token names no person; the audit trail records the operator as `operator`. */
export const OPERATOR: ActingAs = { actor: 'operator' };

/** Every `/admin/v1` route: the bearer must be the instance's admin token (compared in constant time). */
export function requireAdmin(token: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const bearer = bearerOf(c);
    if (!bearer || !safeEqual(bearer, token)) {
      throw new AppError('UNAUTHORIZED', 'The admin token is missing or wrong.', {
        headers: { 'WWW-Authenticate': 'Bearer realm="svc-admin"' },
      });
    }
    await next();
  };
}
