/**
 * The one table of error codes. The HTTP status of every error comes from here, and the type of a
 * code is derived from the table, so a new code is a one-line change.
 */
export const ERROR_CODES = {
  INVALID_REQUEST: 400,
  INVALID_SIGNATURE: 400,
  INVALID_GRANT: 400,
  WRONG_KEY_KIND: 400,
  INVALID_CHALLENGE: 400,
  UNAUTHORIZED: 401,
  INVALID_LICENSE: 401,
  DOMAIN_NOT_ALLOWED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  SEATS_EXHAUSTED: 409,
  IDEMPOTENCY_CONFLICT: 409,
  INVALID_TRANSITION: 409,
  SEATS_IN_USE: 409,
  ENDPOINT_LIMIT_REACHED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  BILLING_NOT_CONFIGURED: 501,
  NOT_IMPLEMENTED: 501,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
export type ErrorStatus = (typeof ERROR_CODES)[ErrorCode];

export interface ErrorBody {
  error: { code: ErrorCode; message: string; status: number; details?: unknown };
}

export interface AppErrorOptions {
  cause?: unknown;
  /** Field-level detail safe to show to the caller (e.g. validation issues). */
  details?: unknown;
  /** Extra response headers, e.g. `WWW-Authenticate` or `Retry-After`. */
  headers?: Record<string, string>;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: ErrorStatus;
  readonly details: unknown;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code];
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { error: { code: this.code, message: this.message, status: this.status } };
    if (this.details !== undefined) body.error.details = this.details;
    return body;
  }
}

export const isAppError = (value: unknown): value is AppError => value instanceof AppError;

/** An id the caller may not see, or that does not exist: one answer for both (`No license lic_…`). */
export const notFound = (what: string, id: string) => new AppError('NOT_FOUND', `No ${what} ${id}.`);
