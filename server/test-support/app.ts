import type { AppDeps } from '../app.ts';
import { loadConfig } from '../env.ts';
import { createRateLimiter } from '../http/rate-limiter.ts';
import { createFixedClock } from '../lib/clock.ts';
import { silentLogger } from '../logger.ts';

/** Deps for HTTP-core tests: no database behind it (ping succeeds), frozen clock, silent logs. */
export function coreDeps(overrides: Partial<AppDeps> = {}, env: Record<string, string> = {}): AppDeps {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env });
  return {
    config,
    clock: createFixedClock('2026-03-01T12:00:00Z'),
    logger: silentLogger(),
    rateLimiter: createRateLimiter({ scale: config.RATE_LIMIT_SCALE }),
    ping: async () => {},
    ...overrides,
  };
}
