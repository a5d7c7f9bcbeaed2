import { randomBytes } from 'node:crypto';
import { createAccount } from '../server/domain/accounts/accounts.ts';
import { createEndpoint } from '../server/domain/delivery/endpoints.ts';
import { runDeliveryOnce } from '../server/domain/delivery/worker.ts';
import { enqueueEvent } from '../server/domain/outbox/outbox.ts';
import { loadConfig } from '../server/infra/env.ts';
import { silentLogger } from '../server/infra/logger.ts';
import { createFixedClock } from '../server/lib/clock.ts';
import { createServices } from '../server/main/services.ts';
import { createTestDatabase } from '../server/test-support/db.ts';
import { startReceiver } from '../server/test-support/webhook-receiver.ts';

/**
 * Webhook throughput on the embedded database: `events` lead.created events to one loopback
 * receiver, drained by one worker (3 in flight per endpoint), and the cost of the outbox write.
 */
export async function runWebhookBench(events = 300) {
  const database = await createTestDatabase();
  const receiver = await startReceiver();
  try {
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    });
    const clock = createFixedClock(new Date());
    const services = await createServices({
      config,
      database,
      clock,
      logger: silentLogger(),
      secretKey: randomBytes(32),
    });
    const deps = services.delivery;
    const account = await createAccount(services.licensing, { name: 'Bench LLP' });
    await createEndpoint(deps, { accountId: account.id, url: receiver.url, events: ['lead.created'] });
    const enqueueStart = performance.now();
    for (let i = 0; i < events; i++) {
      await enqueueEvent(deps.db, {
        accountId: account.id,
        type: 'lead.created',
        data: { leadId: `lead_${i}`, name: 'Zoë Ødegård', email: 'zoe@example.com' },
        test: false,
        quarantined: false,
        at: clock.now(),
      });
    }
    const enqueueMs = (performance.now() - enqueueStart) / events;
    const start = performance.now();
    while (receiver.requests.length < events) await runDeliveryOnce(deps);
    const seconds = (performance.now() - start) / 1000;
    return { events, enqueueMs: Number(enqueueMs.toFixed(2)), perSecond: Math.round(events / seconds) };
  } finally {
    await receiver.close();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runWebhookBench();
  console.log(
    `webhooks: ${r.events} events, outbox write ${r.enqueueMs} ms/event, delivered ${r.perSecond}/s`,
  );
  process.exit(0);
}
