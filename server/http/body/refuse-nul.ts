import type { Context, MiddlewareHandler } from 'hono';
import { AppError } from '../../lib/errors.ts';
import type { AppEnv } from '../app-env.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.ts';

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
 * text cannot hold it, so it would otherwise fail deep in a query, and no person types it. Being
 * the one place every body is read, it also refuses JSON nested deeper than `MAX_JSON_DEPTH` (400)
 * before anything walks the value recursively.
 * The body is read through Hono's body cache (`c.req.text()`), so the route's own `json()` or
 * `text()` reuses the same text instead of reading the stream again.
 */
/**
 * A body framed by Content-Length (non-zero) or chunked, told by the headers where they say it (on
 * the wire they always do), so that no Fetch Request is built; an in-process request may carry
 * neither and is asked directly.
 */
export function hasBody(c: Context<AppEnv>): boolean {
  const length = c.req.header('content-length');
  if (length !== undefined) return Number(length) > 0;
  if (c.req.header('transfer-encoding') !== undefined) return true;
  // On a socket (the node adapter passes `incoming`), neither header means no body (RFC 9112
  // §6.3), though the adapter still hands POSTs a body stream.
  if ((c.env as { incoming?: unknown } | undefined)?.incoming) return false;
  return c.req.raw.body !== null;
}

export function refuseNul(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const url = c.req.url;
    if (/%00/.test(url) || url.includes('\0')) throw nulError();
    if (BODY_METHODS.has(c.req.method) && hasBody(c)) {
      const text = await c.req.text();
      const isForm = (c.req.header('content-type') ?? '').startsWith('application/x-www-form-urlencoded');
      if (text.includes('\0') || (isForm && /%00/.test(text))) throw nulError();
      if (!isForm && nestsDeeperThan(text))
        throw new AppError('INVALID_REQUEST', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`);
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
