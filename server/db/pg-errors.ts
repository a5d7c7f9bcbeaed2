/**
 * The SQLSTATE of a database error from either driver. drizzle wraps driver errors (the original
 * is the `cause`); both pg and PGlite put the SQLSTATE in `code`.
 */
export function pgErrorCode(error: unknown): string | undefined {
  for (let e = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** A unique constraint or unique index refused the row (SQLSTATE 23505). */
export const isUniqueViolation = (error: unknown): boolean => pgErrorCode(error) === '23505';
