import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ZodError } from 'zod';
import { AppError, type ErrorCode } from '../errors.ts';
import type { AppEnv } from './app-env.ts';

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

/** Turns anything thrown into an `AppError`; unknown errors become a detail-free INTERNAL_ERROR. */
export function toAppError(err: unknown): { error: AppError; unexpected: boolean } {
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
  return { error: new AppError('INTERNAL_ERROR', 'An unexpected error occurred.'), unexpected: true };
}

export function errorResponse(c: Context<AppEnv>, error: AppError): Response {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return c.json(error.toBody(), error.status as ContentfulStatusCode);
}

export function handleError(err: unknown, c: Context<AppEnv>): Response {
  const { error, unexpected } = toAppError(err);
  if (unexpected) {
    c.get('logger')?.error({ err, requestId: c.get('requestId') }, 'unhandled error');
  }
  return errorResponse(c, error);
}
