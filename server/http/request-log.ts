import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { AppEnv } from './app-env.ts';

/**
 * One structured line per request. Only the path is logged, never the query string or headers:
 * signed URLs and credentials travel there.
 */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const log = logger.child({ requestId: c.get('requestId') });
    c.set('logger', log);
    await next();
    log.info(
      {
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
      },
      'request',
    );
  };
}
