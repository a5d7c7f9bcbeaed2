import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { AppEnv } from '../app-env.ts';
import { type CorsPolicy, isCorsPath } from '../cors/cors-policy.ts';
import { addHeaders } from '../headers/response-headers.ts';
import { SECURITY_HEADERS } from '../headers/security-headers.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { requestIdOf } from './request-id.ts';
import { accessLog } from './request-log.ts';

/**
 * What every request goes through around the rest of the chain, in one middleware: its metrics
 * (count and latency), its request id, its logger and access line, and the headers every answer
 * carries (CORS on /v1, the security headers, `X-Request-Id`), put on the answer after the route
 * has made it, in that order. These were five middlewares, each an async frame, a promise and
 * a step of Hono's dispatch per request; the work itself is the same.
 */
export function requestFrame(opts: {
  logger: Logger;
  metrics?: Metrics | undefined;
  cors: CorsPolicy;
}): MiddlewareHandler<AppEnv> {
  const { logger, metrics, cors } = opts;
  const logAccess = accessLog(logger);
  return async (c, next) => {
    const started = performance.now();
    const id = requestIdOf(c.req.header('x-request-id'));
    c.set('requestId', id);
    c.set('logger', logger);
    const path = c.req.path;
    // Decided from the request before the route runs, as the answer's route may not be the one matched.
    const corsHeaders = isCorsPath(path)
      ? cors.headersFor(c.req.header('origin'), path, c.req.method)
      : undefined;
    await next();
    if (corsHeaders) addHeaders(c, corsHeaders);
    addHeaders(c, SECURITY_HEADERS);
    addHeaders(c, { 'X-Request-Id': id });
    logAccess(c, started);
    metrics?.request(c.req.method, c.req.path, c.res.status, (performance.now() - started) / 1000);
  };
}
