import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { addHeaders } from './response-headers.ts';

/**
 * What every answer of the API host carries: nothing may frame or script a JSON answer, and
 * browsers keep to HTTPS. Pages with needs of their own (docs, billing, the portal) set their own
 * CSP, which wins (`addHeaders`). The same list Hono's `secureHeaders` made with our options,
 * written once instead of through a Fetch header list per answer.
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'Origin-Agent-Cluster': '?1',
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Frame-Options': 'SAMEORIGIN',
  'X-Permitted-Cross-Domain-Policies': 'none',
  'X-XSS-Protection': '0',
};

export function securityHeaders(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    addHeaders(c, SECURITY_HEADERS);
  };
}
