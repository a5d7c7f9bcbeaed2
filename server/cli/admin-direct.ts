import { createApp } from '../app.ts';
import { systemClock } from '../clock.ts';
import { acquireDataDirLock } from '../db/data-dir-lock.ts';
import { secureDataDir } from '../db/data-dir-permissions.ts';
import { createDatabase } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { ensurePublishableKeys } from '../domain/licensing/license-keys.ts';
import type { Config } from '../env.ts';
import { createRateLimiter } from '../http/rate-limiter.ts';
import { silentLogger } from '../logger.ts';
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
  if (!config.DATABASE_URL) secureDataDir(config.DATA_DIR);
  const lock = config.DATABASE_URL ? undefined : acquireDataDirLock(config.DATA_DIR);
  const database = await createDatabase(
    config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : { dataDir: `${config.DATA_DIR}/pglite` },
  );
  await migrate(database);
  const secretKey = loadSecretKey({ secretKey: config.SECRET_KEY, dataDir: config.DATA_DIR });
  const logger = silentLogger();
  const services = await createServices({ config, database, clock: systemClock, logger, secretKey });
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
      await database.close();
      lock?.release();
    },
  };
}
