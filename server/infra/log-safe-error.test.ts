import { describe, expect, it } from 'vitest';
import { safeError } from './log-safe-error.ts';

describe('what of a thrown value reaches a log line', () => {
  it('keeps the kind and code of a non-Error object (PGlite rejects with these), never its fields', () => {
    const errno = { name: 'ErrnoError', errno: 44, path: '/data/lead-of-jane@example.com' };
    const logged = safeError(errno);
    expect(logged).toEqual({ type: 'ErrnoError', message: '[non-error value]', code: '44' });
    expect(JSON.stringify(logged)).not.toContain('jane');
  });

  it('says only the type of a thrown string or number', () => {
    expect(safeError('lost jane@example.com')).toEqual({ type: 'string', message: '[non-error value]' });
    expect(safeError(undefined)).toEqual({ type: 'undefined', message: '[non-error value]' });
  });

  it('keeps an Error’s type, code and message up to any query parameters', () => {
    const error = Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
    expect(safeError(error)).toMatchObject({
      type: 'Error',
      message: 'Connection terminated unexpectedly',
      code: 'ECONNRESET',
    });
  });
});
