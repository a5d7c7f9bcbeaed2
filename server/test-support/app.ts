import { tmpdir } from 'node:os';
import { createRateLimiter } from '../http/rate-limit/rate-limiter.ts';
import { loadConfig } from '../infra/env.ts';
import { silentLogger } from '../infra/logger.ts';
import { createFixedClock } from '../lib/clock.ts';
import type { AppDeps } from '../main/app.ts';

/** Deps for HTTP-core tests: no database behind it (ping succeeds), frozen clock, silent logs. */
export function coreDeps(overrides: Partial<AppDeps> = {}, env: Record<string, string> = {}): AppDeps {
  // Nothing here writes to the data directory; /readyz's disk check reads the system's temporary
  // folder's file system rather than ./data, which a fresh clone does not have.
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: tmpdir(), ...env });
  return {
    config,
    clock: createFixedClock('2026-03-01T12:00:00Z'),
    logger: silentLogger(),
    rateLimiter: createRateLimiter({ scale: config.RATE_LIMIT_SCALE }),
    ping: async () => {},
    ...overrides,
  };
}
