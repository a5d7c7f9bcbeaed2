import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../db/engine/database.ts';
import { createPostgresTestDatabase } from '../../test-support/db.ts';
import { needs } from '../../test-support/needs.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';
import { startReceiver } from '../../test-support/webhook-receiver.ts';
import { enqueueEvent } from '../outbox/outbox.ts';
import type { DeliveryDeps } from './deps.ts';
import { createEndpoint } from './endpoints.ts';
import { claimDeliveries, MAX_IN_FLIGHT_PER_ENDPOINT } from './webhook-worker.ts';
import { runDeliveryOnce } from './worker.ts';

/**
 * Instances on one PostgreSQL database claim at the same moment over separate connections:
 * `FOR UPDATE SKIP LOCKED` must keep every delivery with one instance and the per-endpoint limit
 * must hold across them.
 */
needs('postgres').describe('delivery workers sharing PostgreSQL (PostgreSQL)', () => {
  let pg: Awaited<ReturnType<typeof createPostgresTestDatabase>>;
  let second: Database;
  let a: TestContext;
  let b: TestContext;

  beforeAll(async () => {
    pg = await createPostgresTestDatabase(process.env.DATABASE_URL!);
    second = await createDatabase({ databaseUrl: pg.url });
    const env = { SECRET_KEY: randomBytes(32).toString('hex'), WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1' };
    a = await createTestContext(env, pg.database);
    b = await createTestContext(env, second);
    b.clock.set(a.clock.now());
  });
  afterAll(async () => {
    await second?.close();
    await pg?.drop();
  });

  const enqueue = async (accountId: string, n: number) => {
    for (let i = 0; i < n; i++) {
      await enqueueEvent(a.database.db, {
        accountId,
        type: 'lead.created',
        data: { i },
        test: false,
        quarantined: false,
        at: a.clock.now(),
      });
    }
  };

  it('never hands one delivery to two instances, nor more than the limit per endpoint', async () => {
    const f = await a.seed.firm();
    const endpoints = await Promise.all(
      [1, 2, 3].map((i) =>
        createEndpoint(a.services.delivery, {
          accountId: f.account.id,
          url: `https://hooks${i}.example.com/in`,
          events: ['lead.created'],
        }),
      ),
    );
    await enqueue(f.account.id, 10);
    const instances = [a.services.delivery, b.services.delivery, a.services.delivery, b.services.delivery];
    const claimed = (await Promise.all(instances.map((deps) => claimDeliveries(deps)))).flat();
    expect(new Set(claimed.map((d) => d.id)).size).toBe(claimed.length);
    for (const { endpoint } of endpoints) {
      expect(claimed.filter((d) => d.endpointId === endpoint.id)).toHaveLength(MAX_IN_FLIGHT_PER_ENDPOINT);
    }
  });

  it('delivers each event once when two instances run the worker together', async () => {
    const receiver = await startReceiver();
    try {
      a.clock.set(new Date());
      b.clock.set(a.clock.now());
      const f = await a.seed.firm();
      await createEndpoint(a.services.delivery, {
        accountId: f.account.id,
        url: receiver.url,
        events: ['lead.created'],
      });
      await enqueue(f.account.id, 12);
      const run = (deps: DeliveryDeps) => runDeliveryOnce(deps);
      for (let round = 0; round < 6; round++)
        await Promise.all([run(a.services.delivery), run(b.services.delivery)]);
      const ids = receiver.requests.map((r) => r.headers['webhook-id']);
      expect(ids).toHaveLength(12);
      expect(new Set(ids).size).toBe(12);
    } finally {
      await receiver.close();
    }
  });
});
