import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { accounts } from '../server/db/engine/schema.ts';
import { createAccount } from '../server/domain/accounts/accounts.ts';
import { createEndpoint } from '../server/domain/delivery/endpoints.ts';
import { startDeliveryWorker } from '../server/domain/delivery/worker.ts';
import { enqueueEvent } from '../server/domain/outbox/outbox.ts';
import { loadConfig } from '../server/infra/env.ts';
import { silentLogger } from '../server/infra/logger.ts';
import { systemClock } from '../server/lib/clock.ts';
import { createServices } from '../server/main/services.ts';
import { createTestDatabase } from '../server/test-support/db.ts';
import { startSilentServer } from '../server/test-support/silent-server.ts';
import { startReceiver } from '../server/test-support/webhook-receiver.ts';

export interface NoisyFigures {
  scenario: 'noisy' | 'quiet';
  seconds: number;
  webhooks: Latencies;
  mails: Latencies;
}
interface Latencies {
  sent: number;
  attempted: number;
  p50Ms: number | null;
  p95Ms: number | null;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : null;

/** Latency from "committed" to "first attempt seen by the receiver", for the ids sent. */
function latencies(sentAt: Map<string, number>, seenAt: Map<string, number>): Latencies {
  const ms = [...sentAt].flatMap(([id, at]) => (seenAt.has(id) ? [seenAt.get(id)! - at] : []));
  ms.sort((a, b) => a - b);
  return { sent: sentAt.size, attempted: ms.length, p50Ms: percentile(ms, 50), p95Ms: percentile(ms, 95) };
}

async function startSmtp(onMessage: (leadKey: string) => void) {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // No reverse DNS of 127.0.0.1: without a reachable resolver it delays every greeting.
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const key = /bench_lead_\d+/.exec(Buffer.concat(chunks).toString('utf8'))?.[0];
        if (key) onMessage(key);
        callback();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.server.address() as { port: number };
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * The noisy-neighbour bench: firm A has 10 endpoints that accept a connection and never answer and
 * a steady stream of `result.created` events (every endpoint subscribed); firm B has one healthy
 * endpoint and alert mails, and gets one lead every 500 ms. Prints B's latency from the outbox
 * commit to the first attempt its receiver (HTTP or SMTP) sees, p50/p95. One instance, real clock,
 * embedded database, the production worker loop and defaults (`quiet` leaves firm A out).
 */
export async function runNoisyBench(
  scenario: 'noisy' | 'quiet' = 'noisy',
  seconds = 30,
): Promise<NoisyFigures> {
  const database = await createTestDatabase();
  const hookSeen = new Map<string, number>();
  const mailSeen = new Map<string, number>();
  const receiver = await startReceiver((req) => {
    const key = /bench_lead_\d+/.exec(req.body)?.[0];
    if (key && !hookSeen.has(key)) hookSeen.set(key, performance.now());
    return 204;
  });
  const silent = await startSilentServer();
  const smtp = await startSmtp((key) => {
    if (!mailSeen.has(key)) mailSeen.set(key, performance.now());
  });
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    SMTP_URL: smtp.url,
  });
  const services = await createServices({
    config,
    database,
    clock: systemClock,
    logger: silentLogger(),
    secretKey: randomBytes(32),
  });
  const deps = services.delivery;
  const a = await createAccount(services.licensing, { name: 'Noisy LLP' });
  const b = await createAccount(services.licensing, { name: 'Quiet LLP' });
  await deps.db
    .update(accounts)
    .set({ alertEmails: ['intake@quiet.example'] })
    .where(eq(accounts.id, b.id));
  if (scenario === 'noisy')
    for (let i = 0; i < 10; i++)
      await createEndpoint(deps, { accountId: a.id, url: silent.url, events: ['result.created'] });
  await createEndpoint(deps, { accountId: b.id, url: receiver.url, events: ['lead.created'] });
  const worker = startDeliveryWorker(deps, { pollMs: config.DELIVERY_POLL_MS, retentionEveryMs: 3_600_000 });
  const sentAt = new Map<string, number>();
  let results = 0;
  let leads = 0;
  const stopAt = performance.now() + seconds * 1000;
  const noise = async () => {
    while (scenario === 'noisy' && performance.now() < stopAt) {
      await enqueueEvent(deps.db, {
        accountId: a.id,
        type: 'result.created',
        data: { resultId: `res_${++results}` },
        test: false,
        quarantined: false,
        at: new Date(),
      });
      await new Promise((r) => setTimeout(r, 100)); // 10 results/s, 100 deliveries/s for A
    }
  };
  const quiet = async () => {
    // Leads stop a few seconds before the end so the last ones have their chance.
    while (performance.now() < stopAt - 5_000) {
      const key = `bench_lead_${++leads}`;
      await enqueueEvent(deps.db, {
        accountId: b.id,
        type: 'lead.created',
        data: { leadId: key, name: key, email: 'zoe@example.com' },
        test: false,
        quarantined: false,
        leadId: key,
        at: new Date(),
      });
      sentAt.set(key, performance.now());
      await new Promise((r) => setTimeout(r, 500));
    }
  };
  await Promise.all([noise(), quiet()]);
  await new Promise((r) => setTimeout(r, Math.max(0, stopAt - performance.now())));
  const figures: NoisyFigures = {
    scenario,
    seconds,
    webhooks: latencies(sentAt, hookSeen),
    mails: latencies(sentAt, mailSeen),
  };
  await worker.stop(1_000);
  deps.mailer.close();
  await Promise.all([receiver.close(), silent.close(), smtp.close()]);
  await database.close();
  return figures;
}

export function printNoisy(f: NoisyFigures): void {
  const line = (name: string, l: Latencies) =>
    `  firm B ${name}: ${l.attempted}/${l.sent} attempted, p50 ${l.p50Ms === null ? '—' : Math.round(l.p50Ms)} ms, p95 ${l.p95Ms === null ? '—' : Math.round(l.p95Ms)} ms`;
  const title =
    f.scenario === 'noisy'
      ? `Noisy neighbour (${f.seconds} s; firm A: 10 endpoints that never answer, 10 results/s) — targets p95 < 5 s webhooks, < 10 s mail`
      : `Quiet system (${f.seconds} s) — target p95 < 2 s`;
  console.log(`${title}\n${line('webhooks', f.webhooks)}\n${line('alert mails', f.mails)}`);
}
