import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/engine/database.ts';
import { publishConsentText } from '../domain/accounts/consent.ts';
import { createRedisClient } from '../infra/redis-client.ts';
import { createPostgresTestDatabase, createTestDatabase } from '../test-support/db.ts';
import { serveBehindLane } from '../test-support/lane-server.ts';
import { needs } from '../test-support/needs.ts';
import { mintAltcha } from '../test-support/pow.ts';
import { createTestContext, type TestContext } from '../test-support/services.ts';

/**
 * Database round trips of the hot paths, counted, not timed (timing is `npm run bench`'s job): a
 * query that creeps back onto a warm path fails here on the next `npm test`, on either database.
 * Each budget is the list of statements the request must send, so a change that needs one more
 * names it here.
 */
const BUDGETS = {
  /** `GET /licenses/status`, warm: license, seats, activation, family and publishable key cached. */
  status: [] as string[],
  /** `POST /license/activate` (an embed session), warm: license by key, firm and consent cached. */
  embedSession: [] as string[],
  /** `POST /calc/estimate`: the result row, one INSERT (its firm subscribes nothing to results). */
  calculation: ['INSERT the result'],
  /** `POST /views`: counted in memory (`FunnelCounter.add`), flushed every few seconds. */
  view: [] as string[],
  /**
   * `POST /leads` with a proof of work, a result and the consent version the widget was given,
   * from a visitor's IPv4 address, all in the lead's transaction: the spam counts are taken after
   * transaction-scoped advisory locks (the license's for the challenge, then the visitor's network;
   * an IPv6 visitor adds its /48's), so parallel sends cannot all pass; then the lead, its proof of
   * work and its Idempotency-Key are written together (the firm has no webhook endpoint, so its
   * outbox writes nothing).
   */
  lead: [
    'BEGIN',
    'find the Idempotency-Key (a retry answers the stored lead)',
    "lock the license's challenges (advisory, until COMMIT)",
    "count the license's paid leads this hour (the challenge's price)",
    'delete spent challenges past their expiry',
    'INSERT the spent challenge (single use)',
    "lock the visitor's network for this license (advisory, until COMMIT)",
    "count the source network's recent leads (spam signal)",
    "count the license's live leads today (the plan's daily figure)",
    'find the result the lead names (of this firm)',
    "delete the firm's expired Idempotency-Keys",
    'INSERT the lead',
    'find the endpoints subscribed to lead.created (outbox)',
    "find the firm's alert addresses (outbox)",
    'INSERT the Idempotency-Key',
    'COMMIT',
  ],
};

/**
 * Redis commands of the same warm requests on PostgreSQL with Redis, as their names (a script call
 * is `evalsha`). Redis is the other round trip of every request: what a request asks of it must fit
 * in one command (the rate-limit script reads the caches' epoch and any watched counter with it).
 */
const REDIS_BUDGETS = {
  /** The `default` group's count, with the caches' epoch, in one script call. */
  status: ['evalsha rate limit + epoch'],
  /** The same script also counts the license's sessions this minute (its plan ceiling). */
  embedSession: ['evalsha rate limit + epoch + license sessions'],
  /** The `calculations` count, the epoch and the license's sessions (read for its ceiling). */
  calculation: ['evalsha rate limit + epoch + license sessions'],
  /** `POST /views`: the `views` count, the epoch and the license's sessions; the view is counted in memory. */
  view: ['evalsha rate limit + epoch + license sessions'],
  /** The lead (the proof-of-work challenge it spends is a request of its own, not counted here). */
  lead: ['evalsha rate limit + epoch + license sessions'],
};

/** A request's answer and the statements and Redis commands it sent, in order. */
type Counted = { status: number; statements: string[]; redis: string[] };

function describeOn(
  name: string,
  open: (
    onStatement: (sql: string) => void,
    onRedis: (command: string) => void,
  ) => Promise<{ t: TestContext; close(): Promise<void>; redis: boolean }>,
  describeFn: (name: string, fn: () => void) => void = describe,
) {
  describeFn(name, () => {
    let t: TestContext;
    let close: () => Promise<void>;
    let recording: string[] | undefined;
    let recordingRedis: string[] | undefined;
    let withRedis = false;
    const ORIGIN = 'https://smithlaw.com';
    // A visitor's address, as a proxy in front of the server reports it.
    const visitor = { 'x-forwarded-for': '203.0.113.7' };

    beforeAll(async () => {
      ({
        t,
        close,
        redis: withRedis,
      } = await open(
        (sql) => recording?.push(sql),
        (command) => recordingRedis?.push(command),
      ));
    });
    afterAll(() => close?.());

    async function count(run: () => Response | Promise<Response>): Promise<Counted> {
      recording = [];
      recordingRedis = [];
      const res = await run();
      await res.arrayBuffer();
      const counted = { status: res.status, statements: recording, redis: recordingRedis };
      recording = undefined;
      recordingRedis = undefined;
      return counted;
    }

    const within = (counted: Counted, budget: string[], redisBudget: string[]) => {
      expect(counted.status).toBeLessThan(300);
      expect(
        counted.statements.length,
        `${counted.statements.length} statements against a budget of ${budget.length} (${budget.join('; ') || 'none'}):\n${counted.statements.join('\n')}`,
      ).toBeLessThanOrEqual(budget.length);
      if (!withRedis) return;
      expect(
        counted.redis.length,
        `${counted.redis.length} Redis commands against a budget of ${redisBudget.length} (${redisBudget.join('; ')}): ${counted.redis.join(', ')}`,
      ).toBeLessThanOrEqual(redisBudget.length);
    };

    let firm: Awaited<ReturnType<TestContext['seed']['firm']>>;
    let embed: Record<string, string>;
    let consentVersionId: string;
    const calc = () =>
      t.json('/v1/api/calc/estimate', { calculator: 'rmd', inputs: { balance: 500_000, age: 75 } }, embed);

    beforeAll(async () => {
      firm = await t.seed.firm({ seats: 5 });
      const session = await (
        await t.json(
          '/v1/api/license/activate',
          { licenseKey: firm.publishableKey },
          { origin: ORIGIN, ...visitor },
        )
      ).json();
      embed = { authorization: `Bearer ${session.token}`, origin: ORIGIN, ...visitor };
      consentVersionId = session.consent.versionId;
    });

    it('a warm license status sends none', async () => {
      const site = await (
        await t.json('/v1/api/licenses/activate', { licenseKey: firm.licenseKey, siteDomain: 'smithlaw.com' })
      ).json();
      const status = () => t.get('/v1/api/licenses/status', site.accessJwt);
      // The counter sees reads: the first answer after the activation loads what it needs.
      expect((await count(status)).statements.length).toBeGreaterThan(0);
      within(await count(status), BUDGETS.status, REDIS_BUDGETS.status);
    });

    it('a warm license status answered on the socket, by the status lane, sends none', async () => {
      const site = await (
        await t.json('/v1/api/licenses/activate', { licenseKey: firm.licenseKey, siteDomain: 'smithlaw.com' })
      ).json();
      const served = await serveBehindLane(t.app);
      try {
        const url = `${served.url}/v1/api/licenses/status`;
        const status = () => fetch(url, { headers: { authorization: `Bearer ${site.accessJwt}` } });
        expect((await count(status)).statements.length).toBeGreaterThan(0);
        within(await count(status), BUDGETS.status, REDIS_BUDGETS.status);
        expect(served.handedOver(), 'requests the lane gave to Hono').toBe(0);
      } finally {
        await served.close();
      }
    });

    it('a warm embed session sends none', async () => {
      const session = () =>
        t.json(
          '/v1/api/license/activate',
          { licenseKey: firm.publishableKey },
          { origin: ORIGIN, ...visitor },
        );
      expect((await session()).status).toBe(200);
      within(await count(session), BUDGETS.embedSession, REDIS_BUDGETS.embedSession);
    });

    it('a warm embed session of a firm with its own English consent and no Spanish one sends none', async () => {
      const own = await t.seed.firm();
      await publishConsentText(
        t.services.licensing,
        own.account.id,
        'Our own words: Hale & Partners may call me.',
      );
      const session = () =>
        t.json(
          '/v1/api/license/activate',
          { licenseKey: own.publishableKey },
          { origin: ORIGIN, ...visitor },
        );
      const first = await (await session()).json();
      expect(first.consent.byLanguage.es.language).toBe('en');
      within(await count(session), BUDGETS.embedSession, REDIS_BUDGETS.embedSession);
    });

    it('a calculation sends its INSERT', async () => {
      expect((await calc()).status).toBe(200);
      const calculation = await count(calc);
      expect(calculation.statements.length).toBeGreaterThan(0);
      within(calculation, BUDGETS.calculation, REDIS_BUDGETS.calculation);
    });

    it('a view signal sends none (counted in memory, written off the request path)', async () => {
      const view = () =>
        t.json('/v1/api/views', { calculator: 'rmd', page: `${ORIGIN}/estate-planning` }, embed);
      expect((await view()).status).toBe(204);
      const counted = await count(view);
      if (withRedis) expect(counted.redis.length).toBeGreaterThan(0);
      within(counted, BUDGETS.view, REDIS_BUDGETS.view);
    });

    it('a lead sends what it must write and check', async () => {
      const lead = async (n: number) => {
        const { resultId } = await (await calc()).json();
        const challenge = await (await t.json('/v1/api/leads/challenge', {}, embed)).json();
        const body = {
          calculator: 'rmd',
          resultId,
          name: `Ann Visitor ${n}`,
          email: `ann${n}@example.com`,
          state: 'PA',
          consent: true,
          consentVersionId,
          altcha: mintAltcha(t.services.licensing.pepper, challenge),
        };
        return () => t.json('/v1/api/leads', body, { ...embed, 'idempotency-key': `round-trips-${n}` });
      };
      expect((await (await lead(1))()).status).toBe(201);
      const counted = await count(await lead(2));
      expect(counted.status).toBe(201);
      within(counted, BUDGETS.lead, REDIS_BUDGETS.lead);
    });
  });
}

describeOn('database round trips on the embedded database (PGlite)', async (onStatement) => {
  const database = await createTestDatabase({ onStatement });
  const t = await createTestContext({ TRUST_PROXY: '1' }, database);
  return { t, close: () => t.close(), redis: false };
});

describeOn(
  'database round trips on PostgreSQL with Redis (PostgreSQL, Redis)',
  async (onStatement, onRedis) => {
    const pg = await createPostgresTestDatabase(process.env.DATABASE_URL!, { onStatement });
    const redis: Redis = await createRedisClient(process.env.REDIS_URL!);
    // Every command the server sends goes through sendCommand (a script call as evalsha, or eval
    // when Redis has not seen the script yet).
    const send = redis.sendCommand.bind(redis);
    redis.sendCommand = (command, stream) => {
      onRedis(command.name);
      return send(command, stream);
    };
    const t = await createTestContext(
      {
        TRUST_PROXY: '1',
        DATABASE_URL: pg.url,
        REDIS_URL: process.env.REDIS_URL!,
        // Its own epoch and counters: other suites share the Redis server.
        REDIS_KEY_PREFIX: `svc-test-${randomBytes(6).toString('hex')}:`,
      },
      pg.database as Database,
      { redis },
    );
    expect(t.services.caches.mode).toBe('shared');
    return {
      t,
      redis: true,
      close: async () => {
        redis.disconnect();
        await pg.drop();
      },
    };
  },
  needs('postgres', 'redis').describe,
);
