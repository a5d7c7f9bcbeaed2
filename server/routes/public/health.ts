import { statfs } from 'node:fs/promises';
import { Hono } from 'hono';
import type { AppEnv } from '../../http/app-env.ts';
import { AppError } from '../../lib/errors.ts';

export interface HealthDeps {
  /** The database answers a trivial query. */
  ping(): Promise<void>;
  /** Shared Redis answers (scale-out only). */
  pingRedis?: () => Promise<void>;
  /** DATA_DIR and the free space it needs to stay ready. */
  dataDir?: { path: string; minFreeBytes: number };
  isShuttingDown(): boolean;
}

/** A probe answers within this, whatever a dependency does: a stalled one counts as unavailable. */
const CHECK_TIMEOUT_MS = 2_000;

const within = <T>(promise: Promise<T>): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS).unref(),
    ),
  ]);

const status = (p: Promise<unknown>) =>
  within(p).then(
    () => 'ok' as const,
    () => 'unavailable' as const,
  );

async function diskCheck(dataDir: HealthDeps['dataDir']) {
  if (!dataDir) return undefined;
  try {
    const s = await statfs(dataDir.path);
    const freeBytes = s.bavail * s.bsize;
    return { status: freeBytes >= dataDir.minFreeBytes ? ('ok' as const) : ('low' as const), freeBytes };
  } catch {
    return { status: 'unavailable' as const, freeBytes: null };
  }
}

/**
 * `/readyz`: whether this instance should get traffic. Not ready while draining, when the database
 * does not answer, or when DATA_DIR is nearly full (writes would fail). Redis is reported but does
 * not make the instance unready: without it every instance still serves, with per-instance limits
 * (see the failure policy in docs/operations.md), and a balancer that took every instance out of service for a
 * Redis outage would turn a degraded service into none. `/healthz` lives in app.ts; both are exempt
 * from rate limits.
 */
export function createHealthRoutes(deps: HealthDeps): Hono<AppEnv> {
  const health = new Hono<AppEnv>();
  health.get('/readyz', async (c) => {
    c.header('Cache-Control', 'no-store');
    if (deps.isShuttingDown())
      throw new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down.', {
        headers: { 'Retry-After': '5' },
      });
    const [database, redis, disk] = await Promise.all([
      status(deps.ping()),
      deps.pingRedis ? status(deps.pingRedis()) : undefined,
      diskCheck(deps.dataDir),
    ]);
    const checks = { database, ...(redis ? { redis } : {}), ...(disk ? { disk } : {}) };
    const problem =
      database !== 'ok'
        ? 'The database is unreachable.'
        : disk && disk.status !== 'ok'
          ? 'The data directory is (nearly) full.'
          : undefined;
    if (problem)
      throw new AppError('SERVICE_UNAVAILABLE', problem, {
        details: { checks },
        headers: { 'Retry-After': '5' },
      });
    return c.json({ status: 'ready', checks });
  });
  return health;
}
