import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { isAllowedMcpOrigin } from './mcp-origin-policy.ts';

/** Paths any web page may call: the loader asks for an embed session from the firm's own site. */
const OPEN_PATHS = new Set(['/v1/api/license/activate']);

/** The MCP endpoint answers its own origin rule (docs/mcp.md): API origin, CORS_ORIGINS, dev hosts. */
const MCP_PATH = '/v1/mcp';

const EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'WWW-Authenticate',
];

const ALLOWED_METHODS = 'GET,POST,PATCH,DELETE,OPTIONS';
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'Mcp-Session-Id',
  'Mcp-Protocol-Version',
  'Mcp-Method',
  'Mcp-Name',
].join(',');
const EXPOSED = EXPOSED_HEADERS.join(',');
const PREFLIGHT_MAX_AGE = '600';

/** CORS answers on /v1 (and its aliases, which the app's path already names as /v1). */
export const isCorsPath = (path: string): boolean => path === '/v1' || path.startsWith('/v1/');

export interface CorsPolicy {
  /**
   * The CORS headers of an answer on a /v1 path (`isCorsPath`), decided from the request alone:
   * the request frame (`request-frame.ts`) decides them before the route runs and puts them on
   * the answer after it, outside the rate limiter, so a 429 carries CORS too and the widget can
   * read its Retry-After instead of seeing a network error.
   */
  headersFor(origin: string | undefined, path: string, method: string): Record<string, string>;
  /** Mounted after the rate limiter: a preflight counts like any request and carries its headers. */
  preflight: MiddlewareHandler<AppEnv>;
}

/**
 * CORS policy (docs/api.md, "Conventions"): the embed-session endpoint answers any origin, since its own
 * domain check decides; every other /v1 endpoint answers only the embed host (the widget's
 * calls) and the origins listed in CORS_ORIGINS. Server-to-server callers need no CORS.
 *
 * Headers are added to the answer after the route has made it (`addHeaders`): touching `c.res` before the route runs (as Hono's `cors` does) makes Hono copy the route's
 * answer into a full Fetch `Response` and read its body back, which the profile showed as a
 * quarter of a status call.
 */
export function corsPolicy(embedOrigin: string, extraOrigins: string[], apiOrigin?: string): CorsPolicy {
  const trusted = new Set([embedOrigin, ...extraOrigins]);
  const mcpTrusted = new Set([...(apiOrigin ? [apiOrigin] : []), ...extraOrigins]);
  const allowedOrigin = (origin: string | undefined, path: string): string | undefined => {
    if (!origin) return undefined;
    if (OPEN_PATHS.has(path)) return origin;
    if (path === MCP_PATH) return isAllowedMcpOrigin(origin, mcpTrusted) ? origin : undefined;
    return trusted.has(origin) ? origin : undefined;
  };
  return {
    headersFor(origin, path, method): Record<string, string> {
      const allowed = allowedOrigin(origin, path);
      // No API route sets a Vary of its own: this one is the whole list.
      const vary = method === 'OPTIONS' ? 'Origin, Access-Control-Request-Headers' : 'Origin';
      if (allowed)
        return {
          'Access-Control-Allow-Origin': allowed,
          'Access-Control-Expose-Headers': EXPOSED,
          Vary: vary,
        };
      return { 'Access-Control-Expose-Headers': EXPOSED, Vary: vary };
    },
    preflight: async (c, next) => {
      if (c.req.method !== 'OPTIONS') return next();
      return c.body(null, 204, {
        'Access-Control-Max-Age': PREFLIGHT_MAX_AGE,
        'Access-Control-Allow-Methods': ALLOWED_METHODS,
        'Access-Control-Allow-Headers': ALLOWED_HEADERS,
      });
    },
  };
}
