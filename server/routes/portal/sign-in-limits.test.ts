import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalMails } from '../../db/engine/schema.ts';
import { inviteMember } from '../../domain/accounts/members.ts';
import { loadConfig } from '../../infra/env.ts';
import { silentLogger } from '../../infra/logger.ts';
import { systemClock } from '../../lib/clock.ts';
import { createApiApp, createServices } from '../../main/services.ts';
import { createTestDatabase } from '../../test-support/db.ts';
import { needs } from '../../test-support/needs.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

/**
 * The sign-in limits cannot be turned against a person: strangers asking for someone's address
 * from other clients do not lock that person out, and one deployment's counters never touch
 * another's in a shared Redis.
 */
describe('sign-in limits per address and client', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ RATE_LIMIT_SCALE: '1', TRUST_PROXY: 'true' });
  });
  afterAll(() => ctx.close());

  const ask = (email: string, ip: string, cookie?: string) =>
    ctx.app.request('/v1/portal/auth/email', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: ctx.services.config.publicPortalUrl,
        'x-forwarded-for': ip,
        ...(cookie ? { cookie } : {}),
      },
      body: JSON.stringify({ email }),
    });

  it('five requests for an address from other clients leave its owner able to ask', async () => {
    const victim = 'locked.out@firm.example';
    for (let i = 1; i <= 6; i++) expect((await ask(victim, `203.0.113.${i}`)).status).toBe(202);
    expect((await ask(victim, '198.51.100.7')).status).toBe(202);
  });

  it('strangers using up an address’s mail cap cannot stop the mail its own browser asks for', async () => {
    const { account } = await ctx.seed.firm();
    const email = 'own.browser@firm.example';
    const invited = await inviteMember(ctx.services.portal, {
      accountId: account.id,
      email,
      role: 'owner',
      invitedBy: null,
    });
    // The person signs in once from this browser: it keeps a signed, long-lived cookie.
    const signedIn = await ctx.app.request('/v1/portal/auth/link', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: ctx.services.config.publicPortalUrl,
        'x-forwarded-for': '192.0.2.80',
      },
      body: JSON.stringify({ token: new URL(invited.link).hash.replace('#token=', '') }),
    });
    expect(signedIn.status).toBe(200);
    const known = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => /svc_known=/.test(c));
    expect(known).toBeDefined();
    const queued = async () =>
      (
        await ctx.database.db
          .select()
          .from(portalMails)
          .where(and(eq(portalMails.kind, 'sign_in'), eq(portalMails.email, email)))
      ).length;
    // Ten requests from two strangers' addresses use up the address's ten-an-hour cap.
    for (let i = 0; i < 10; i++) expect((await ask(email, `203.0.113.${100 + (i % 2)}`)).status).toBe(202);
    expect(await queued()).toBe(10);
    // A stranger's next request, and one with a forged cookie, send nothing (and answer the same).
    expect((await ask(email, '203.0.113.102')).status).toBe(202);
    const forged = known!.replace(/=(\d+)\.(.)/, (_, t, ch) => `=${t}.${ch === 'A' ? 'B' : 'A'}`);
    expect((await ask(email, '203.0.113.103', forged)).status).toBe(202);
    expect(await queued()).toBe(10);
    // The person's own browser still gets its mail, from any network.
    const own = await ask(email, '198.51.100.80', known);
    expect(own.status).toBe(202);
    expect(await queued()).toBe(11);
    // Its allowance is its own, and bounded too: five an hour.
    for (let i = 0; i < 6; i++) expect((await ask(email, `198.51.${101 + i}.80`, known)).status).toBe(202);
    expect(await queued()).toBe(15);
  });

  it('one client asking for one address too often gets 429 with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await ask('Flood@Example.com', '192.0.2.44')).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    const refused = await ask('flood@example.com', '192.0.2.44');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client asking for the same address is not affected.
    expect((await ask('flood@example.com', '192.0.2.45')).status).toBe(202);
  });

  it('an IPv6 client is one client across its /64: rotating addresses does not reset its count', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++)
      statuses.push((await ask('rotate@example.com', `2001:db8:7:1::${i}`)).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    expect((await ask('rotate@example.com', '2001:db8:7:2::1')).status).toBe(202);
  });
});

/** The key arguments of one command as MONITOR shows it (scripts name theirs after numkeys). */
function keysOf([command = '', ...args]: string[]): string[] {
  const name = command.toLowerCase();
  if (name === 'eval' || name === 'evalsha') return args.slice(2, 2 + Number(args[1]));
  if (['monitor', 'ping', 'info', 'script', 'select', 'client', 'hello', 'publish'].includes(name)) return [];
  if (name === 'mget' || name === 'del' || name === 'unlink' || name === 'exists') return args;
  return args.slice(0, 1);
}

needs('redis').describe('Redis keys one instance writes (Redis)', () => {
  let redis: Redis;
  let monitor: Redis | undefined;
  const prefix = `svc-t23-${randomBytes(6).toString('hex')}:`;
  beforeAll(async () => {
    redis = new Redis(process.env.REDIS_URL!, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
  });
  afterAll(async () => {
    monitor?.disconnect();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('every key carries REDIS_KEY_PREFIX (sign-in limits, rate limits, caches)', async () => {
    const database = await createTestDatabase();
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_KEY_PREFIX: prefix,
      TRUST_PROXY: 'true',
    });
    const services = await createServices({
      config,
      database,
      clock: systemClock,
      logger: silentLogger(),
      secretKey: randomBytes(32),
      redis,
    });
    const app = createApiApp(services, { redis });
    // MONITOR shows every command with the client's address: keep only this instance's.
    monitor = await redis.monitor();
    const ours = `${redis.stream.localAddress}:${redis.stream.localPort}`;
    const keys = new Set<string>();
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (!source.endsWith(ours)) return;
      for (const key of keysOf(args)) keys.add(key);
    });
    const post = (path: string, body: unknown) =>
      app.request(path, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: config.publicPortalUrl,
          'x-forwarded-for': '203.0.113.9',
        },
        body: JSON.stringify(body),
      });
    expect((await post('/v1/portal/auth/email', { email: 'keys@firm.example' })).status).toBe(202);
    expect((await post('/v1/portal/auth/link', { token: 'svc_ml_nothing' })).status).toBe(401);
    expect((await app.request('/v1/api/license/status')).status).toBeGreaterThanOrEqual(400);
    await expect.poll(() => keys.size).toBeGreaterThan(2);
    // A PING round trip after MONITOR has seen our commands: nothing of ours is still in flight.
    await redis.ping();
    const stray = [...keys].filter((k) => !k.startsWith(prefix));
    expect(stray).toEqual([]);
    expect([...keys].some((k) => k.startsWith(`${prefix}signin:`))).toBe(true);
    await database.close();
  });
});
