import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, type Database } from '../db/engine/database.ts';
import { updateAccount } from '../domain/accounts/settings.ts';
import { rollLicenseKey } from '../domain/licensing/keys.ts';
import { createRedisClient } from '../infra/redis-client.ts';
import { createPostgresTestDatabase } from '../test-support/db.ts';
import { needs } from '../test-support/needs.ts';
import { createTestContext, type TestContext } from '../test-support/services.ts';

/**
 * Two server instances on one PostgreSQL database, as behind a load balancer: the guarantees of
 * refresh rotation, single-use codes, seats and idempotent leads must hold across them.
 */
needs('postgres').describe('two instances sharing PostgreSQL (PostgreSQL)', () => {
  let pg: Awaited<ReturnType<typeof createPostgresTestDatabase>>;
  let second: Database;
  let a: TestContext;
  let b: TestContext;

  beforeAll(async () => {
    pg = await createPostgresTestDatabase(process.env.DATABASE_URL!);
    second = await createDatabase({ databaseUrl: pg.url });
    const env = { SECRET_KEY: randomBytes(32).toString('hex') };
    a = await createTestContext(env, pg.database);
    b = await createTestContext(env, second);
  });
  afterAll(async () => {
    await second?.close();
    await pg?.drop();
  });

  it('share signing keys and the pepper: a token from one verifies on the other', async () => {
    const firm = await a.seed.firm();
    const set = await (
      await a.json('/v1/api/licenses/activate', { licenseKey: firm.licenseKey, siteDomain: 'smithlaw.com' })
    ).json();
    expect((await b.get('/v1/api/licenses/status', set.accessJwt)).status).toBe(200);
    expect(await (await a.get('/.well-known/jwks.json')).json()).toEqual(
      await (await b.get('/.well-known/jwks.json')).json(),
    );
  });

  it('rotate a refresh token once when both instances get it at the same moment', async () => {
    const firm = await a.seed.firm();
    const set = await (
      await a.json('/v1/api/licenses/activate', { licenseKey: firm.licenseKey, siteDomain: 'smithlaw.com' })
    ).json();
    const body = { refreshToken: set.refreshToken, siteDomain: 'smithlaw.com' };
    const [x, y] = await Promise.all([
      a.json('/v1/api/licenses/refresh', body),
      b.json('/v1/api/licenses/refresh', body),
    ]);
    expect([x.status, y.status]).toEqual([200, 200]);
    const [one, two] = [await x.json(), await y.json()];
    expect(one.refreshToken).toBe(two.refreshToken);
    expect(
      (
        await b.json('/v1/api/licenses/refresh', {
          refreshToken: one.refreshToken,
          siteDomain: 'smithlaw.com',
        })
      ).status,
    ).toBe(200);
  });

  it('give the last seat to exactly one of two concurrent activations', async () => {
    const firm = await a.seed.firm({ seats: 1 });
    const [x, y] = await Promise.all([
      a.json('/v1/api/licenses/activate', { licenseKey: firm.licenseKey, siteDomain: 'smithlaw.com' }),
      b.json('/v1/api/licenses/activate', { licenseKey: firm.licenseKey, siteDomain: 'blog.smithlaw.com' }),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
  });

  it('store one lead when the same idempotency key reaches both instances', async () => {
    const firm = await a.seed.firm();
    const session = await (
      await a.json(
        '/v1/api/license/activate',
        { licenseKey: firm.publishableKey },
        { origin: 'https://smithlaw.com' },
      )
    ).json();
    const lead = {
      calculator: 'rmd',
      name: 'Ann',
      email: 'ann@example.com',
      state: 'PA',
      consent: true,
      consentText: 'Yes, contact me.',
    };
    const headers = { authorization: `Bearer ${session.token}`, 'idempotency-key': 'scale-out-key-1' };
    const [x, y] = await Promise.all([
      a.json('/v1/api/leads', lead, headers),
      b.json('/v1/api/leads', lead, headers),
    ]);
    expect([x.status, y.status]).toEqual([201, 201]);
    expect((await x.json()).leadId).toBe((await y.json()).leadId);
    const { apiKey } = await a.seed.apiKey(firm.account.id);
    expect((await (await b.get('/v1/api/leads', apiKey)).json()).data).toHaveLength(1);
  });
});

/**
 * Two instances on one PostgreSQL database and one Redis, their lookup caches on (shared mode): a
 * change made through one is in the very next answer of the other, whose caches were warm.
 */
needs('postgres', 'redis').describe(
  'two instances sharing PostgreSQL and Redis, caches warm (PostgreSQL, Redis)',
  () => {
    let pg: Awaited<ReturnType<typeof createPostgresTestDatabase>>;
    let second: Database;
    let redis: [Redis, Redis];
    let a: TestContext;
    let b: TestContext;

    beforeAll(async () => {
      pg = await createPostgresTestDatabase(process.env.DATABASE_URL!);
      second = await createDatabase({ databaseUrl: pg.url });
      redis = [
        await createRedisClient(process.env.REDIS_URL!),
        await createRedisClient(process.env.REDIS_URL!),
      ];
      const env = {
        SECRET_KEY: randomBytes(32).toString('hex'),
        DATABASE_URL: pg.url,
        REDIS_URL: process.env.REDIS_URL!,
        REDIS_KEY_PREFIX: `svc-test-${randomBytes(6).toString('hex')}:`,
      };
      a = await createTestContext(env, pg.database, { redis: redis[0] });
      b = await createTestContext(env, second, { redis: redis[1] });
    });
    afterAll(async () => {
      for (const r of redis ?? []) r.disconnect();
      await second?.close();
      await pg?.drop();
    });

    async function hits(t: TestContext): Promise<number> {
      const values = (await t.services.metrics.registry.getSingleMetric('svc_cache_hits_total')!.get())
        .values;
      return values.reduce((sum, v) => sum + v.value, 0);
    }

    /** Two answers of 200 from `b`, the second with more cache hits than the first. */
    async function warm(request: () => Promise<Response> | Response) {
      expect((await request()).status).toBe(200);
      const before = await hits(b);
      expect((await request()).status).toBe(200);
      expect(await hits(b)).toBeGreaterThan(before);
    }

    it('shows a publishable key rolled through one in the next status answer of the other', async () => {
      expect(b.services.caches.mode).toBe('shared');
      const firm = await a.seed.firm();
      const set = await (
        await a.json('/v1/api/licenses/activate', { licenseKey: firm.licenseKey, siteDomain: 'smithlaw.com' })
      ).json();
      const status = () => b.get('/v1/api/licenses/status', set.accessJwt);
      await warm(status);
      expect((await (await status()).json()).publishableKey).toBe(firm.publishableKey);
      const { key } = await rollLicenseKey(a.services.licensing, {
        licenseId: firm.license.id,
        kind: 'publishable',
        overlapMs: 3_600_000,
      });
      expect((await (await status()).json()).publishableKey).toBe(key);
    });

    it('hands out a consent version published through one in the next embed session of the other', async () => {
      const firm = await a.seed.firm();
      const session = () =>
        b.json(
          '/v1/api/license/activate',
          { licenseKey: firm.publishableKey },
          { origin: 'https://smithlaw.com' },
        );
      // The first session writes the firm's default consent as version 1 (an invalidating write).
      expect((await session()).status).toBe(200);
      await warm(session);
      const before = (await (await session()).json()).consent;
      const text = 'Smith & Søn may call or e-mail me about this enquiry (second version).';
      await updateAccount(
        a.services.licensing,
        firm.account.id,
        { consentText: text },
        { actor: 'operator' },
      );
      const after = (await (await session()).json()).consent;
      expect(after.text).toBe(text);
      expect(after.versionId).not.toBe(before.versionId);
    });
  },
);
