/**
 * The SQLSTATE of a database error from either driver. drizzle wraps driver errors (the original
 * is the `cause`); both pg and PGlite put the SQLSTATE in `code`.
 */
function pgErrorCode(error: unknown): string | undefined {
  for (let e = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** A unique constraint or unique index refused the row (SQLSTATE 23505). */
export const isUniqueViolation = (error: unknown): boolean => pgErrorCode(error) === '23505';

/** Socket errors of a dependency that is down or unreachable, not of a bad query. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** node-postgres says these in words only (no code). */
const LOST_CONNECTION =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable|Cannot use a pool after calling end/i;

/**
 * The database is unreachable or refuses work for now (connection lost or refused, server shutting
 * down or starting, out of connections, disk full): nothing is wrong with the request, and the same
 * request may succeed in a moment. SQLSTATE classes 08 (connection exception), 53 (insufficient
 * resources), 57P01–57P03 (admin shutdown, crash shutdown, cannot connect now).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (NETWORK_CODES.has(code)) return true;
      if (/^(08|53)[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code)) return true;
    }
    if (LOST_CONNECTION.test(e.message)) return true;
  }
  return false;
}
