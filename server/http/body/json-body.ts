import type { MiddlewareHandler } from 'hono';
import { AppError } from '../../lib/errors.ts';
import type { AppEnv } from '../app-env.ts';
import { hasBody } from './refuse-nul.ts';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Requests that carry a body must say it is JSON. `formPaths` may also take
 * `application/x-www-form-urlencoded` (RFC 7009 token revocation).
 */
export function requireJsonBody(formPaths: ReadonlySet<string> = new Set()): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (BODY_METHODS.has(c.req.method) && hasBody(c)) {
      const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      const isJson = type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
      const isForm = type === 'application/x-www-form-urlencoded' && formPaths.has(c.req.path);
      if (!isJson && !isForm) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as application/json.');
      }
    }
    await next();
  };
}
