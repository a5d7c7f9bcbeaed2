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
  const line = accessLine(logger);
  return (c, started) => line(c.get('requestId'), c.req.method, c.req.path, c.res.status, started);
}

/**
 * The same line from its fields, for an answer made outside Hono (the status lane,
 * `license-status-lane.ts`). `path` is the canonical one (`/v1/...`), as Hono's `c.req.path`.
 */
export function accessLine(
  logger: Logger,
): (requestId: string, method: string, path: string, status: number, started: number) => void {
  // The access line holds only the fields below, none of them a credential's field name: the
  // redaction pass (half the cost of the line) is left to the other logs.
  const access = logger.child({}, { redact: [] });
  return (requestId, method, path, status, started) =>
    access.info(
      {
        requestId,
        method,
        path,
        status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
      },
      'request',
    );
}
