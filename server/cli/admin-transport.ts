import { existsSync, readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { loadAdminToken, serverInfoFile } from '../admin-token.ts';
import { createApp } from '../app.ts';
import { systemClock } from '../clock.ts';
import { migrate } from '../db/migrate.ts';
import { openConfiguredDatabase } from '../db/open-data-dir.ts';
import { ensurePublishableKeys } from '../domain/licensing/license-keys.ts';
import type { Config } from '../env.ts';
import { createRateLimiter } from '../http/rate-limiter.ts';
import { silentLogger } from '../logger.ts';
import { createAdminRoutes } from '../routes/admin.ts';
import { createAdminUserRoutes } from '../routes/admin-users.ts';
import { loadSecretKey } from '../secrets/secret-key.ts';
import { createServices } from '../services.ts';

export interface AdminTransport {
  mode: 'server' | 'direct';
  call(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

const request = (method: string, token: string, body?: unknown): RequestInit => ({
  method,
  headers: {
    authorization: `Bearer ${token}`,
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

/**
 * The CLI works whether or not a server runs. A running server owns the embedded database (PGlite
 * admits one process), so the CLI then goes through its admin API; with no server it opens the
 * database itself and serves the very same admin routes in-process.
 */
export async function connectAdmin(config: Config): Promise<AdminTransport> {
  const token = loadAdminToken(config.DATA_DIR, config.ADMIN_TOKEN);
  const remote = await reachServer(config, token);
  if (remote) {
    return {
      mode: 'server',
      call: async (method, path, body) => {
        const res = await fetch(`${remote}${path}`, request(method, token, body));
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      },
      close: async () => {},
    };
  }
  return openDirect(config, token);
}

export async function reachServer(config: Config, token: string): Promise<string | undefined> {
  const file = serverInfoFile(config.DATA_DIR);
  const candidates = [
    ...(existsSync(file) ? [(JSON.parse(readFileSync(file, 'utf8')) as { apiUrl: string }).apiUrl] : []),
    ...(config.PUBLIC_API_URL ? [config.PUBLIC_API_URL] : []),
  ];
  for (const url of candidates) {
    try {
      const res = await fetch(`${url}/admin/v1/health`, {
        ...request('GET', token),
        signal: AbortSignal.timeout(2000),
      });
      if (res.ok) return url;
    } catch {
      // not running there
    }
  }
  return undefined;
}

async function openDirect(config: Config, token: string): Promise<AdminTransport> {
  const { database, lock } = await openConfiguredDatabase(config);
  await migrate(database);
  const secretKey = loadSecretKey({ secretKey: config.SECRET_KEY, dataDir: config.DATA_DIR });
  const logger = silentLogger();
  // Writes made here must reach the running instances' caches (the epoch in Redis).
  const redis = config.REDIS_URL
    ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  redis?.on('error', () => {});
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
