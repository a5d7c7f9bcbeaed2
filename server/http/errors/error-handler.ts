import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ZodError } from 'zod';
import { isDatabaseUnavailable } from '../../db/engine/pg-errors.ts';
import { AppError, type ErrorCode } from '../../lib/errors.ts';
import type { AppEnv } from '../app-env.ts';
import { isOAuthEndpoint, oauthErrorResponse } from './oauth-error-response.ts';

const CODE_FOR_STATUS: Record<number, ErrorCode> = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** Field-level issues in a stable shape: `[{ path: 'inputs.estateValue', message }]`. */
export function zodIssues(error: ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

/** Seconds a client is told to wait when a dependency is down: about how long a failover takes. */
const OUTAGE_RETRY_AFTER_S = 5;

/**
 * Turns anything thrown into an `AppError`: a database that is down or out of resources is a 503
 * with `Retry-After` (the request was fine and may be sent again); other unknown errors become a
 * detail-free INTERNAL_ERROR.
 */
function toAppError(err: unknown): { error: AppError; unexpected: boolean; outage?: boolean } {
  if (err instanceof AppError) return { error: err, unexpected: false };
  if (err instanceof ZodError) {
    return {
      error: new AppError('INVALID_REQUEST', 'The request is not valid.', { details: zodIssues(err) }),
      unexpected: false,
    };
  }
  if (err instanceof HTTPException && CODE_FOR_STATUS[err.status]) {
    const message = /json/i.test(err.message) ? 'The request body is not valid JSON.' : err.message;
    return {
      error: new AppError(CODE_FOR_STATUS[err.status]!, message || 'The request was refused.'),
      unexpected: false,
    };
  }
  if (isDatabaseUnavailable(err)) {
    const error = new AppError('SERVICE_UNAVAILABLE', 'The database is unavailable; try again shortly.', {
      headers: { 'Retry-After': String(OUTAGE_RETRY_AFTER_S) },
    });
    return { error, unexpected: false, outage: true };
  }
  return { error: new AppError('INTERNAL_ERROR', 'An unexpected error occurred.'), unexpected: true };
}

export function errorResponse(c: Context<AppEnv>, error: AppError): Response {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return c.json(error.toBody(), error.status as ContentfulStatusCode);
}

export function handleError(err: unknown, c: Context<AppEnv>): Response {
  const { error, unexpected, outage } = toAppError(err);
  if (unexpected) {
    c.get('logger')?.error({ err, requestId: c.get('requestId') }, 'unhandled error');
  } else if (outage) {
    const reason = err instanceof Error ? err.message : String(err);
    c.get('logger')?.warn({ reason, requestId: c.get('requestId') }, 'database unavailable');
  }
  if (isOAuthEndpoint(c.req.path)) return oauthErrorResponse(c, error);
  return errorResponse(c, error);
}
