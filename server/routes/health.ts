import { Hono } from 'hono';
import { AppError } from '../errors.ts';
import type { AppEnv } from '../http/app-env.ts';

export interface HealthDeps {
  ping(): Promise<void>;
  isShuttingDown(): boolean;
}

/** `/readyz`: the instance should get traffic (database up, not draining). `/healthz` lives in app.ts. */
export function createHealthRoutes(deps: HealthDeps): Hono<AppEnv> {
  const health = new Hono<AppEnv>();
  health.get('/readyz', async (c) => {
    c.header('Cache-Control', 'no-store');
    if (deps.isShuttingDown()) throw new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down.');
    try {
      await deps.ping();
    } catch (cause) {
      throw new AppError('SERVICE_UNAVAILABLE', 'The database is unreachable.', { cause });
    }
    return c.json({ status: 'ready' });
  });
  return health;
}
