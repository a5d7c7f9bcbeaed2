import { migrate } from '../db/engine/migrate.ts';
import { openConfiguredDatabase } from '../db/engine/open-data-dir.ts';
import { ensurePublishableKeys } from '../domain/licensing/keys.ts';
import { createRateLimiter } from '../http/rate-limit/rate-limiter.ts';
import type { Config } from '../infra/env.ts';
import { silentLogger } from '../infra/logger.ts';
import { createRedisClient } from '../infra/redis-client.ts';
import { systemClock } from '../lib/clock.ts';
import { createApp } from '../main/app.ts';
import { createServices } from '../main/services.ts';
import { createAdminRoutes } from '../routes/admin/index.ts';
import { createAdminUserRoutes } from '../routes/admin/users.ts';
import { loadSecretKey } from '../secrets/secret-key.ts';
import { type AdminTransport, request } from './admin-transport.ts';

/**
 * No server runs: the CLI opens the database itself and serves the very same admin routes
 * in-process (a module of its own, so commands that reach a server never load all this).
 */
export async function openDirect(config: Config, token: string): Promise<Omit<AdminTransport, 'where'>> {
  const { database, lock } = await openConfiguredDatabase(config);
  await migrate(database);
  const secretKey = loadSecretKey({ secretKey: config.SECRET_KEY, dataDir: config.DATA_DIR });
  const logger = silentLogger();
  // Writes made here must reach the running instances' caches (the epoch in Redis).
  const redis = config.REDIS_URL ? await createRedisClient(config.REDIS_URL) : undefined;
  const services = await createServices({
    config,
    database,
    clock: systemClock,
    logger,
    secretKey,
    ...(redis ? { redis } : {}),
  });
  await ensurePublishableKeys(services.licensing);
  const app = createApp({
    config,
    clock: systemClock,
    logger,
    rateLimiter: createRateLimiter({ scale: 1000 }),
    ping: () => database.ping(),
    rootRoutes: [createAdminRoutes(services, token), createAdminUserRoutes(services, token)],
  });
  return {
    mode: 'direct',
    call: async (method, path, body) => {
      const res = await app.request(path, request(method, token, body));
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    close: async () => {
      redis?.disconnect();
      await database.close();
      lock?.release();
    },
  };
}
