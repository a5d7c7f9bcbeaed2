import type { Context } from 'hono';
import type { Logger } from 'pino';
import type { AppEnv } from '../app-env.ts';

/**
 * One structured line per request, written by the request frame (`request-frame.ts`) once the
 * answer is made. Only the path is logged, never the query string or headers: signed URLs and
 * credentials travel there. Handlers log through `c.get('logger')` and name the request id
 * themselves: a child logger per request costs more than the line it would save.
 */
export function accessLog(logger: Logger): (c: Context<AppEnv>, started: number) => void {
  // The access line holds only the fields below, none of them a credential's field name: the
  // redaction pass (half the cost of the line) is left to the other logs.
  const access = logger.child({}, { redact: [] });
  return (c, started) =>
    access.info(
      {
        requestId: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
      },
      'request',
    );
}
