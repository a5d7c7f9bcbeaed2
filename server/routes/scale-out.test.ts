import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, type Database } from '../db/engine/database.ts';
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
