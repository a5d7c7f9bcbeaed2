import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './pg-errors.ts';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
const wrapped = (cause: Error) => new Error('Failed query: insert into "leads"', { cause });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['connection refused', wrapped(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')), true],
    ['backend terminated', wrapped(new Error('Connection terminated unexpectedly')), true],
    ['pool connect timeout', new Error('timeout exceeded when trying to connect'), true],
    [
      'admin shutdown 57P01',
      wrapped(withCode('terminating connection due to administrator command', '57P01')),
      true,
    ],
    ['starting up 57P03', withCode('the database system is starting up', '57P03'), true],
    ['too many connections 53300', withCode('sorry, too many clients already', '53300'), true],
    ['disk full 53100', withCode('could not extend file', '53100'), true],
    ['connection failure 08006', withCode('connection failure', '08006'), true],
    ['unique violation', wrapped(withCode('duplicate key value', '23505')), false],
    ['syntax error', withCode('syntax error at or near', '42601'), false],
    ['plain bug', new TypeError('cannot read properties of undefined'), false],
  ])('%s → %s', (_name, error, expected) => {
    expect(isDatabaseUnavailable(error)).toBe(expected);
  });
});
