import { spawnSync } from 'node:child_process';
import { describe, it, type TestOptions } from 'vitest';
import { hasRedisServer } from './redis-server.ts';

/**
 * The one way a suite says it needs something the machine may lack (PostgreSQL, Redis, a
 * redis-server binary, faketime, PID namespaces), instead of its own `describe.runIf`:
 *
 *   needs('postgres', 'redis').describe('two instances sharing PostgreSQL (PostgreSQL, Redis)', () => { … });
 *
 * When everything is there, it is plain `describe` / `it`. When something is missing:
 * - with `CI=true` the suite becomes one failing test that says what is missing and how to provide
 *   it, so a CI run can never go green by skipping it;
 * - elsewhere the suite is skipped with the reason in its metadata, and `skip-reporter.ts` prints
 *   every such skip at the end of the run with the command that would run it.
 */
export type Need = 'postgres' | 'redis' | 'redis-server' | 'faketime' | Custom;

/** A requirement a single suite checks itself (`missing` is the reason, or undefined when met). */
interface Custom {
  what: string;
  missing: string | undefined;
  howTo: string;
}

declare module 'vitest' {
  interface TaskMeta {
    /** Set on a suite or test `needs` skipped: what was missing and how to provide it. */
    skippedFor?: { missing: string; howTo: string };
  }
}

const POSTGRES_HOW_TO = 'DATABASE_URL=postgres://postgres@127.0.0.1:5432/test';
const REDIS_HOW_TO = 'REDIS_URL=redis://127.0.0.1:6379';

const hasFaketime = () => spawnSync('faketime', ['-f', '+120s', 'true'], { timeout: 10_000 }).status === 0;

function check(need: Need): { missing: string; howTo: string } | undefined {
  switch (need) {
    case 'postgres':
      return process.env.DATABASE_URL
        ? undefined
        : { missing: 'DATABASE_URL is not set (PostgreSQL)', howTo: POSTGRES_HOW_TO };
    case 'redis':
      return process.env.REDIS_URL
        ? undefined
        : { missing: 'REDIS_URL is not set (Redis)', howTo: REDIS_HOW_TO };
    case 'redis-server':
      return hasRedisServer()
        ? undefined
        : {
            missing: 'no redis-server binary',
            howTo: 'install redis-server (Debian: apt-get install redis-server)',
          };
    case 'faketime':
      return hasFaketime()
        ? undefined
        : { missing: 'no faketime', howTo: 'install libfaketime (Debian: apt-get install faketime)' };
    default:
      return need.missing ? { missing: `${need.what}: ${need.missing}`, howTo: need.howTo } : undefined;
  }
}

type Body = () => void | Promise<void>;
/** `(name, fn)`, `(name, options, fn)` or `(name, fn, timeout)`, as vitest's own. */
type Declare = (name: string, optionsOrFn: TestOptions | Body, fnOrTimeout?: Body | number) => void;

const isCi = () => Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';

export function needs(...what: Need[]): { describe: Declare; it: Declare } {
  const gaps = what.map(check).filter((g) => g !== undefined);
  if (gaps.length === 0) {
    return {
      describe: (name, a, b) => describe(name, options(a, b), body(a, b)),
      it: (name, a, b) => it(name, options(a, b), body(a, b)),
    };
  }
  const missing = gaps.map((g) => g.missing).join('; ');
  const howTo = gaps.map((g) => g.howTo).join(' ');
  if (isCi()) {
    const refuse = () => {
      throw new Error(`CI=true, so this must run, but ${missing}. To run it: ${howTo}`);
    };
    return {
      describe: (name) => describe(name, () => it(`cannot run: ${missing}`, refuse)),
      it: (name) => it(`${name} — cannot run: ${missing}`, refuse),
    };
  }
  const skip = (a: TestOptions | Body, b?: Body | number): TestOptions => ({
    ...options(a, b),
    skip: true,
    meta: { skippedFor: { missing, howTo } },
  });
  return {
    describe: (name, a, b) => describe(name, skip(a, b), body(a, b)),
    it: (name, a, b) => it(name, skip(a, b), body(a, b)),
  };
}

const options = (a: TestOptions | Body, b?: Body | number): TestOptions =>
  typeof a === 'object' ? a : typeof b === 'number' ? { timeout: b } : {};
const body = (a: TestOptions | Body, b?: Body | number): Body =>
  typeof a === 'function' ? a : typeof b === 'function' ? b : () => {};
