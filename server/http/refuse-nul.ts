import type { MiddlewareHandler } from 'hono';
import { AppError } from '../errors.ts';
import type { AppEnv } from './app-env.ts';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

const nulError = () =>
  new AppError('INVALID_REQUEST', 'The request contains a NUL character, which no field accepts.');

function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (Array.isArray(value)) return value.some(hasNul);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).some(([key, v]) => key.includes('\0') || hasNul(v));
  return false;
}

/**
 * Refuses NUL (U+0000) anywhere in the path, the query or a body's strings with 400. PostgreSQL
 * text cannot hold it, so it would otherwise fail deep in a query, and no person types it.
 * The body is read from a clone, so the request stays untouched for the route.
 */
export function refuseNul(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const url = c.req.url;
    if (/%00/.test(url) || url.includes('\0')) throw nulError();
    if (BODY_METHODS.has(c.req.method) && c.req.raw.body !== null) {
      // A clone: routes that read `c.req.raw` themselves (the MCP transport) still get the body.
      const text = await c.req.raw.clone().text();
      const isForm = (c.req.header('content-type') ?? '').startsWith('application/x-www-form-urlencoded');
      if (text.includes('\0') || (isForm && /%00/.test(text))) throw nulError();
      if (/\\u0000/i.test(text)) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined; // the validator answers malformed JSON
        }
        if (hasNul(parsed)) throw nulError();
      }
    }
    await next();
  };
}
