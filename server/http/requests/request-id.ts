import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { addHeaders } from '../headers/response-headers.ts';

const LIMIT = 128;
const SAFE = /^[\w\-=]+$/;

/**
 * `X-Request-Id`: the caller's own id when it is short and plain (a proxy's trace id), else a new
 * UUID. The header is put on the answer after the route has made it, so a route that returns its
 * own `Response` (MCP, streams) carries it too, and the answer is never copied to add it.
 */
export function requestId(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const given = c.req.header('x-request-id');
    const id = given && given.length <= LIMIT && SAFE.test(given) ? given : randomUUID();
    c.set('requestId', id);
    await next();
    addHeaders(c, { 'X-Request-Id': id });
  };
}
