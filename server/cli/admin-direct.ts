import { createApp } from '../app.ts';
import { migrate } from '../db/migrate.ts';
import { openConfiguredDatabase } from '../db/open-data-dir.ts';
import { ensurePublishableKeys } from '../domain/licensing/keys.ts';
import type { Config } from '../env.ts';
import { createRateLimiter } from '../http/rate-limiter.ts';
import { systemClock } from '../lib/clock.ts';
import { silentLogger } from '../logger.ts';
import { createRedisClient } from '../redis-client.ts';
import { createAdminRoutes } from '../routes/admin.ts';
import { createAdminUserRoutes } from '../routes/admin-users.ts';
import { loadSecretKey } from '../secrets/secret-key.ts';
import { createServices } from '../services.ts';
import { type AdminTransport, request } from './admin-transport.ts';

/**
 * No server runs: the CLI opens the database itself and serves the very same admin routes
 * in-process (a module of its own, so commands that reach a server never load all this).
 */
export async function openDirect(config: Config, token: string): Promise<AdminTransport> {
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
