import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppError } from '../../lib/errors.ts';
import type { AppEnv } from '../app-env.ts';

/** The endpoints OAuth clients call directly and whose errors they parse (RFC 6749 §5.2, RFC 7591). */
const OAUTH_ENDPOINTS = new Set(['/oauth/token', '/oauth/revoke', '/oauth/register']);

export const isOAuthEndpoint = (path: string) => OAUTH_ENDPOINTS.has(path);

/**
 * An error raised before an OAuth route runs (rate limit, body limit, NUL guard, an outage), in
 * the format OAuth clients read: `{ error, error_description }` with the same status and headers.
 */
export function oauthErrorResponse(c: Context<AppEnv>, error: AppError): Response {
  const code =
    error.status === 429
      ? 'slow_down'
      : error.status === 503
        ? 'temporarily_unavailable'
        : error.status >= 500
          ? 'server_error'
          : 'invalid_request';
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  c.header('Cache-Control', 'no-store');
  return c.json({ error: code, error_description: error.message }, error.status as ContentfulStatusCode);
}
