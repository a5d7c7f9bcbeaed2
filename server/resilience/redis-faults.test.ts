import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPostgresTestDatabase } from '../test-support/db.ts';
import {
  createFirm,
  FIRM_ORIGIN,
  type Firm,
  openEmbedSession,
  postJson,
  postLead,
} from '../test-support/firm-over-http.ts';
import { needs } from '../test-support/needs.ts';
import { type OwnRedis, startOwnRedis } from '../test-support/redis-server.ts';
import { type ServerProcess, startServerProcess, stopServerProcess } from '../test-support/server-process.ts';

/** A client gives up after this: "answers within a few seconds". */
const PATIENCE_MS = 3_000;

/**
 * A server process on PostgreSQL and a Redis of the test's own, which the test freezes with
 * SIGSTOP: connections stay open and nothing answers, as in a partition or a stuck server.
 */
needs('postgres', 'redis-server').describe(
  'Redis frozen under a real server process (PostgreSQL, Redis)',
  () => {
    const adminToken = `svc_admin_${randomBytes(24).toString('base64url')}`;
    const prefix = `svc-frozen-${randomBytes(4).toString('hex')}:`;
    let db: Awaited<ReturnType<typeof createPostgresTestDatabase>>;
    let redis: OwnRedis;
    let server: ServerProcess;
    let firm: Firm;
    let token: string;

    beforeAll(async () => {
      [db, redis] = await Promise.all([
        createPostgresTestDatabase(process.env.DATABASE_URL!),
        startOwnRedis(),
      ]);
      server = await startServerProcess({
        DATABASE_URL: db.url,
        REDIS_URL: redis.url,
        REDIS_KEY_PREFIX: prefix,
        ADMIN_TOKEN: adminToken,
        SECRET_KEY: randomBytes(32).toString('hex'),
        SEED_DEMO: 'false',
        RATE_LIMIT_SCALE: '1000',
        DELIVERY_WORKER: 'false',
      });
      firm = await createFirm(server.url, adminToken, 'Frozen Cache LLP');
      token = await openEmbedSession(server.url, firm.publishableKey);
    }, 120_000);

    afterAll(async () => {
      await stopServerProcess(server, 'SIGKILL');
      await redis?.stop();
      await db?.drop();
    });

    const timed = async (what: string, call: (signal: AbortSignal) => Promise<Response>) => {
      const started = performance.now();
      const res = await call(AbortSignal.timeout(PATIENCE_MS)).catch((error: Error) => {
        throw new Error(`${what}: no answer within ${PATIENCE_MS} ms (${error.name})`);
      });
      return { what, status: res.status, ms: Math.round(performance.now() - started) };
    };

    const calls = {
      readyz: (signal: AbortSignal) => fetch(`${server.url}/readyz`, { signal }),
      embedSession: (signal: AbortSignal) =>
        fetch(`${server.url}/v1/api/license/activate`, {
          method: 'POST',
          signal,
          headers: { 'content-type': 'application/json', origin: FIRM_ORIGIN },
          body: JSON.stringify({ licenseKey: firm.publishableKey, calculator: 'rmd' }),
        }),
      lead: (signal: AbortSignal) =>
        fetch(`${server.url}/v1/api/leads`, {
          method: 'POST',
          signal,
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${token}`,
            'idempotency-key': `frozen-${randomBytes(6).toString('hex')}`,
          },
          body: JSON.stringify({
            calculator: 'rmd',
            name: 'Ada Frozen',
            email: 'ada@example.com',
            state: 'PA',
            consent: true,
          }),
        }),
      // A write that tells every instance's caches through Redis (the epoch).
      adminWrite: (signal: AbortSignal) =>
        fetch(`${server.url}/admin/v1/api-keys`, {
          method: 'POST',
          signal,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
          body: JSON.stringify({ accountId: firm.accountId, name: 'while frozen', scopes: ['admin'] }),
        }),
    };

    it('answers every kind of request within a few seconds while Redis is frozen, then counts in Redis again', async () => {
      redis.freeze();
      try {
        for (let round = 0; round < 2; round++) {
          const answers = await Promise.all(Object.entries(calls).map(([what, call]) => timed(what, call)));
          expect(answers.map((a) => [a.what, a.status])).toEqual([
            ['readyz', 200],
            ['embedSession', 200],
            ['lead', 201],
            ['adminWrite', 200],
          ]);
        }
        const ready = await (await fetch(`${server.url}/readyz`)).json();
        expect(ready.checks.redis).toBe('unavailable');
      } finally {
        redis.thaw();
      }
      // Back to Redis: new requests are counted there again.
      const probe = new Redis(redis.url);
      try {
        // The counters in Redis (INCR'd strings). The thawed requests either make new keys or
        // raise keys made before the freeze that are still in their window: either shows.
        const counted = async () => {
          const keys = await probe.keys(`${prefix}rl:*`);
          const values = keys.length ? await probe.mget(...keys) : [];
          return new Map(keys.map((k, i) => [k, Number(values[i]) || 0]));
        };
        const before = await counted();
        await expect
          .poll(
            async () => {
              await postLead(server.url, token, `thawed-${randomBytes(6).toString('hex')}`);
              await postJson(`${server.url}/v1/api/licenses/activate`, {
                licenseKey: firm.licenseKey,
                siteDomain: 'smithlaw.com',
              });
              return (await (await fetch(`${server.url}/readyz`)).json()).checks.redis;
            },
            { timeout: 10_000 },
          )
          .toBe('ok');
        const after = await counted();
        expect([...after].some(([key, hits]) => hits > (before.get(key) ?? 0))).toBe(true);
      } finally {
        probe.disconnect();
      }
    });
  },
);
