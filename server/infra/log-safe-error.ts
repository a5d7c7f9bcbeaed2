/**
 * What of an error may reach a log line. Database errors carry the query's parameters (drizzle's
 * "Failed query: … params: …", pg's `detail` such as "Key (email)=(…)", and messages quoting the
 * offending value), and parameters are personal data: a lead's name, e-mail, phone. So a log gets
 * the error's type, its SQLSTATE code, the message up to any parameters, and the stack frames
 * without the message line; for a database error the message is the SQL text only, which holds
 * placeholders, never values.
 */
export interface LoggedError {
  type: string;
  message: string;
  code?: string;
  stack?: string;
  cause?: LoggedError;
}

const DB_ERROR_TYPES = new Set(['DrizzleQueryError', 'DatabaseError', 'error']);

export function safeError(err: unknown, depth = 0): LoggedError {
  if (!(err instanceof Error)) return nonError(err);
  const record = err as Error & { code?: unknown; query?: unknown };
  const isDb =
    typeof record.query === 'string' ||
    DB_ERROR_TYPES.has(err.name) ||
    /^[0-9A-Z]{5}$/.test(String(record.code));
  const out: LoggedError = {
    type: err.constructor?.name || err.name,
    message: isDb ? dbMessage(record) : err.message.split(/\n\s*params:/)[0]!.slice(0, 500),
  };
  if (typeof record.code === 'string' || typeof record.code === 'number') out.code = String(record.code);
  if (err.stack)
    out.stack = err.stack
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .slice(0, 15)
      .join('\n');
  if (err.cause !== undefined && depth < 3) out.cause = safeError(err.cause, depth + 1);
  return out;
}

function dbMessage(err: { query?: unknown; message: string }): string {
  if (typeof err.query === 'string') return `Failed query: ${err.query.slice(0, 500)}`;
  return 'database error (message withheld: it may quote values)';
}

/**
 * A thrown value that is not an Error (PGlite's Emscripten `ErrnoError` objects, a rejected
 * string): its kind and code, which say what went wrong, but never its message or fields, which
 * may quote values.
 */
function nonError(value: unknown): LoggedError {
  if (typeof value !== 'object' || value === null)
    return { type: typeof value, message: '[non-error value]' };
  const record = value as { name?: unknown; code?: unknown; errno?: unknown };
  const name =
    typeof record.name === 'string' ? record.name.slice(0, 60) : value.constructor?.name || 'object';
  const out: LoggedError = { type: name, message: '[non-error value]' };
  const code = record.code ?? record.errno;
  if (typeof code === 'string' || typeof code === 'number') out.code = String(code).slice(0, 40);
  return out;
}
