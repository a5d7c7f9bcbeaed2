import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../lib/clock.ts';
import { createPostgresTestDatabase } from '../../test-support/db.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';
import { enqueueEvent } from '../outbox/outbox.ts';
import type { DeliveryDeps } from './deps.ts';
import { createEndpoint } from './endpoints.ts';
import { claimDeliveries } from './webhook-worker.ts';

/** A running instance's clock, `skewMs` off the true time (and the database's). */
const runningClock = (skewMs: number): Clock => ({ now: () => new Date(Date.now() + skewMs), real: true });

const backends = [
  ['PGlite', async () => ({ ctx: await createTestContext(), drop: async () => {} })],
  ...(process.env.DATABASE_URL
    ? [
        [
          'PostgreSQL',
          async () => {
            const pg = await createPostgresTestDatabase(process.env.DATABASE_URL!);
            return { ctx: await createTestContext({}, pg.database), drop: pg.drop };
          },
        ] as const,
      ]
    : []),
] as const;

/**
 * Two instances whose clocks disagree by two minutes: the one ahead must not take over deliveries
 * the other has claimed and is still sending, and the one behind must still see new work as due.
 */
describe.each(backends)('delivery leases on the database clock (%s)', (_name, open) => {
  let ctx: TestContext;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ ctx, drop } = await open());
  });
  afterAll(async () => {
    await ctx?.close();
    await drop?.();
  });

  const instance = (skewMs: number): DeliveryDeps => ({
    ...ctx.services.delivery,
    clock: runningClock(skewMs),
  });

  it('an instance two minutes ahead does not reclaim a lease still running; one behind finds due work', async () => {
    const f = await ctx.seed.firm();
    await createEndpoint(ctx.services.delivery, {
      accountId: f.account.id,
      url: 'https://hooks.example.com/in',
      events: ['lead.created'],
    });
    await enqueueEvent(ctx.database.db, {
      accountId: f.account.id,
      type: 'lead.created',
      data: {},
      test: false,
      quarantined: false,
      at: new Date(),
    });
    const behind = await claimDeliveries(instance(-120_000));
    expect(behind).toHaveLength(1);
    const ahead = await claimDeliveries(instance(120_000));
    expect(ahead).toHaveLength(0);
  });
});
