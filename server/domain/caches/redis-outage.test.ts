import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../infra/env.ts';
import { silentLogger } from '../../infra/logger.ts';
import { systemClock } from '../../lib/clock.ts';
import { createApiApp, createServices, type Services } from '../../main/services.ts';
import { createPostgresTestDatabase } from '../../test-support/db.ts';
import { needs } from '../../test-support/needs.ts';
import { createAccount } from '../accounts/accounts.ts';
import { createLicense } from '../licensing/licenses.ts';

/** A loopback TCP proxy to Redis that the test can cut and restore, as a network partition would. */
async function redisProxy(
  target: URL,
): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 6379), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  await listen();
  return {
    url: `redis://127.0.0.1:${port}`,
    cut: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server!.close(() => resolve());
      }),
    restore: listen,
  };
}

needs('postgres', 'redis').describe(
  'lookup caches while Redis is unreachable (PostgreSQL, Redis)',
  { timeout: 60_000 },
  () => {
    let pg: Awaited<ReturnType<typeof createPostgresTestDatabase>>;
    let proxy: Awaited<ReturnType<typeof redisProxy>>;
    let redis: Redis;
    let services: Services;
    let app: ReturnType<typeof createApiApp>;

    beforeAll(async () => {
      pg = await createPostgresTestDatabase(process.env.DATABASE_URL!);
      proxy = await redisProxy(new URL(process.env.REDIS_URL!));
      redis = new Redis(proxy.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
      redis.on('error', () => {});
      await redis.connect();
      const config = loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: pg.url,
        REDIS_URL: proxy.url,
        REDIS_KEY_PREFIX: `svc-test-${randomBytes(6).toString('hex')}:`,
        RATE_LIMIT_SCALE: '100',
      });
      services = await createServices({
        config,
        database: pg.database,
        clock: systemClock,
        logger: silentLogger(),
        secretKey: randomBytes(32),
        redis,
      });
      app = createApiApp(services, { redis });
    });

    afterAll(async () => {
      redis?.disconnect();
      await proxy?.cut().catch(() => {});
      await pg?.drop();
    });

    async function hits(): Promise<number> {
      const values = (await services.metrics.registry.getSingleMetric('svc_cache_hits_total')!.get()).values;
      return values.reduce((sum, v) => sum + v.value, 0);
    }

    it('serves from the caches with Redis, bypasses them while it is unreachable, and trusts them again after', async () => {
      expect(services.caches.mode).toBe('shared');
      const account = await createAccount(services.licensing, { name: 'Outage & Partners' });
      const { license, licenseKey } = await createLicense(services.licensing, {
        accountId: account.id,
        plan: 'pro',
        seats: 3,
        domains: ['outage.example'],
        paidThrough: new Date('2099-01-01T00:00:00Z'),
      });
      const set = await (
        await app.request('/v1/api/licenses/activate', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ licenseKey, siteDomain: 'outage.example' }),
        })
      ).json();
      const status = () =>
        app.request('/v1/api/licenses/status', { headers: { authorization: `Bearer ${set.accessJwt}` } });

      expect((await status()).status).toBe(200);
      const warm = await hits();
      expect((await status()).status).toBe(200);
      expect(await hits()).toBeGreaterThan(warm);

      await proxy.cut();
      await expect.poll(() => redis.status, { timeout: 10_000 }).not.toBe('ready');
      // Revoked by a writer whose epoch never reached Redis: only the database knows.
      await pg.database.db.execute(sql`update licenses set revoked_at = now() where id = ${license.id}`);
      const refused = await status();
      expect(refused.status).toBe(401);
      // Rate limits still answer (this instance's insurance counters).
      expect(refused.headers.get('X-RateLimit-Limit')).not.toBeNull();
      // The first request's rate-limit key came from the caches before its round trip failed; from
      // then on nothing is served from them.
      const during = await hits();
      expect((await status()).status).toBe(401);
      expect(await hits()).toBe(during);

      await pg.database.db.execute(sql`update licenses set revoked_at = null where id = ${license.id}`);
      await proxy.restore();
      await expect.poll(() => redis.status, { timeout: 20_000 }).toBe('ready');
      expect((await status()).status).toBe(200);
      const back = await hits();
      expect((await status()).status).toBe(200);
      expect(await hits()).toBeGreaterThan(back);
    });
  },
);
