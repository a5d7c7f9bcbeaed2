import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { isAllowedMcpOrigin } from '../mcp/origin-policy.ts';
import type { AppEnv } from './app-env.ts';

/** Paths any web page may call: the loader asks for an embed session from the firm's own site. */
const OPEN_PATHS = new Set(['/v1/api/license/activate']);

/** The MCP endpoint answers its own origin rule (README "MCP"): API origin, CORS_ORIGINS, dev hosts. */
const MCP_PATH = '/v1/mcp';

export const EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'WWW-Authenticate',
];

/**
 * CORS policy (README "CORS"): the embed-session endpoint answers any origin, since its own
 * domain check decides; every other /v1 endpoint answers only the embed host (the widget's
 * calls) and the origins listed in CORS_ORIGINS. Server-to-server callers need no CORS.
 */
export function corsPolicy(
  embedOrigin: string,
  extraOrigins: string[],
  apiOrigin?: string,
): MiddlewareHandler<AppEnv> {
  const trusted = new Set([embedOrigin, ...extraOrigins]);
  const mcpTrusted = new Set([...(apiOrigin ? [apiOrigin] : []), ...extraOrigins]);
  return cors({
    origin: (origin, c) => {
      if (!origin) return null;
      if (OPEN_PATHS.has(c.req.path)) return origin;
      if (c.req.path === MCP_PATH) return isAllowedMcpOrigin(origin, mcpTrusted) ? origin : null;
      return trusted.has(origin) ? origin : null;
    },
    allowMethods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    allowHeaders: [
      'Authorization',
      'Content-Type',
      'Idempotency-Key',
      'Mcp-Session-Id',
      'Mcp-Protocol-Version',
      'Mcp-Method',
      'Mcp-Name',
    ],
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
}
