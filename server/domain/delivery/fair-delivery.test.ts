import { eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accounts, mailMessages, webhookDeliveries } from '../../db/engine/schema.ts';
import { systemClock } from '../../lib/clock.ts';
import { createMailer } from '../../mail/mailer.ts';
import { startCrmStandIns } from '../../test-support/crm-stand-ins.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';
import { startSilentServer } from '../../test-support/silent-server.ts';
import { startSmtpCapture } from '../../test-support/smtp-capture.ts';
import { startReceiver } from '../../test-support/webhook-receiver.ts';
import { enqueueEvent } from '../outbox/outbox.ts';
import type { DeliveryDeps } from './deps.ts';
import { createDestination } from './destinations.ts';
import { createEndpoint } from './endpoints.ts';
import { type DeliveryWorker, startDeliveryWorker } from './worker.ts';

// A receiver that never answers holds its attempt for the whole timeout: long enough here that a
// worker waiting for it would miss every deadline below.
let t: TestContext;
let base: DeliveryDeps;
const workers: DeliveryWorker[] = [];
const closers: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1', WEBHOOK_TIMEOUT_MS: '20000' });
  t.clock.set(new Date());
  base = { ...t.services.delivery, random: () => 0.5, concurrency: 16 };
});
// Each case starts from a quiet system: its workers stopped, its servers closed, its work cancelled.
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop(100)));
  for (const close of closers.splice(0)) await close();
  const db = t.database.db;
  await db
    .update(webhookDeliveries)
    .set({ status: 'cancelled' })
    .where(eq(webhookDeliveries.status, 'pending'));
  await db.update(mailMessages).set({ status: 'failed' }).where(eq(mailMessages.status, 'pending'));
});
afterAll(() => t.close());

const start = (deps: DeliveryDeps) => {
  const worker = startDeliveryWorker(deps, { pollMs: 50, retentionEveryMs: 3_600_000 });
  workers.push(worker);
  return worker;
};

async function firm(alertEmails: string[] = []) {
  const { account } = await t.seed.firm();
  await t.database.db.update(accounts).set({ alertEmails }).where(eq(accounts.id, account.id));
  let n = 0;
  return {
    id: account.id,
    endpoint: (url: string) =>
      createEndpoint(base, { accountId: account.id, url, events: ['lead.created', 'result.created'] }),
    lead: () =>
      enqueueEvent(t.database.db, {
        accountId: account.id,
        type: 'lead.created',
        data: { leadId: `lead_${account.id}_${++n}`, name: `Client ${n}`, email: 'c@example.com' },
        test: false,
        quarantined: false,
        at: t.clock.now(),
      }),
    result: () =>
      enqueueEvent(t.database.db, {
        accountId: account.id,
        type: 'result.created',
        data: { resultId: `res_${++n}` },
        test: false,
        quarantined: false,
        at: t.clock.now(),
      }),
  };
}

/** A lead as the outbox carries it (the lead's contract), for CRM destinations. */
const crmLead = (accountId: string, n: number) => {
  const at = t.clock.now().toISOString();
  const text = 'I agree to be contacted.';
  return enqueueEvent(t.database.db, {
    accountId,
    type: 'lead.created',
    data: {
      leadId: `lead_${accountId}_${n}`,
      calculator: 'estate-tax',
      resultId: null,
      name: `Client ${n}`,
      email: `c${n}@example.com`,
      phone: null,
      state: 'NY',
      status: 'new',
      consentText: text,
      consentVersionId: null,
      consentedAt: at,
      consent: {
        versionId: null,
        text,
        sha256: '0',
        agreedAt: at,
        page: null,
        pageVerified: null,
        assumed: false,
      },
      result: null,
      test: false,
      quarantined: false,
      quarantineReasons: [],
      createdAt: at,
      updatedAt: at,
    },
    test: false,
    quarantined: false,
    at: t.clock.now(),
  });
};

describe('fair delivery (one firm cannot delay another)', () => {
  it("noisy neighbour: firm B's webhook is received while firm A's 10 silent endpoints still hold their connections, and A never has more than max(2, C/4) in flight", async () => {
    const silent = await startSilentServer();
    const receiver = await startReceiver();
    closers.push(silent.close, receiver.close);
    const a = await firm();
    const b = await firm();
    for (let i = 0; i < 10; i++) await a.endpoint(silent.url);
    await b.endpoint(receiver.url);
    for (let i = 0; i < 5; i++) await a.result(); // 50 deliveries that will hang
    const worker = start(base);
    await expect.poll(() => silent.open(), { timeout: 5_000 }).toBeGreaterThan(0);
    await b.lead();
    await expect.poll(() => receiver.requests.length, { timeout: 5_000 }).toBe(1);
    expect(silent.open()).toBeGreaterThan(0); // A is still misbehaving at this moment
    expect(silent.accepted()).toBeLessThanOrEqual(4); // max(2, 16/4): the rest of A's work waits
    await worker.stop(100);
  });

  it('with CRM destinations in the mix: a firm whose CRM never answers holds one request, and another firm’s lead reaches its CRM and its webhook', async () => {
    const silent = await startSilentServer();
    const crm = await startCrmStandIns();
    const receiver = await startReceiver();
    closers.push(silent.close, crm.close, receiver.close);
    const deps = {
      ...base,
      destinationBaseUrls: { hubspot: new URL(new URL(silent.url).origin), 'clio-grow': new URL(crm.base) },
    };
    const a = await firm();
    const b = await firm();
    for (let i = 0; i < 3; i++)
      await createDestination(deps, {
        accountId: a.id,
        vendor: 'hubspot',
        credential: 'pat-na1-good',
        settings: { portalId: '62515', formGuid: '78c2891f-ebdd-44c0-bd94-15c012bbbfbf' },
      });
    await createDestination(deps, { accountId: b.id, vendor: 'clio-grow', credential: 'clio-good-token' });
    await b.endpoint(receiver.url);
    for (let i = 0; i < 10; i++) await crmLead(a.id, i); // 30 deliveries to CRMs that never answer
    const worker = start(deps);
    await expect.poll(() => silent.open(), { timeout: 5_000 }).toBeGreaterThan(0);
    await crmLead(b.id, 99);
    await expect.poll(() => crm.kept['clio-grow'].length, { timeout: 5_000 }).toBe(1);
    await expect.poll(() => receiver.requests.length, { timeout: 5_000 }).toBe(1);
    // One request in flight per destination: three destinations, three connections at most.
    expect(silent.accepted()).toBeLessThanOrEqual(3);
    await worker.stop(100);
  });

  it('silent SMTP server: webhooks are still delivered while it holds the mail connection', async () => {
    const smtp = await startSilentServer();
    const receiver = await startReceiver();
    closers.push(smtp.close, receiver.close);
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, outboxDir: '/nonexistent' });
    closers.push(() => mailer.close());
    const mailing = await firm(['intake@mailing.example']);
    const hooked = await firm();
    await hooked.endpoint(receiver.url);
    await mailing.lead();
    const worker = start({ ...base, mailer });
    await expect.poll(() => smtp.open(), { timeout: 5_000 }).toBeGreaterThan(0);
    await hooked.lead();
    await expect.poll(() => receiver.requests.length, { timeout: 3_000 }).toBe(1);
    expect(smtp.open()).toBeGreaterThan(0);
    await worker.stop(100);
  });

  it("slow receiver: another firm's mail and webhooks are sent while its attempts are still waiting", async () => {
    const slowRequests: (() => void)[] = [];
    const slow = await startReceiver((_req, _n, res) => {
      // Answers only when the test is over (like a receiver that takes 25 s).
      slowRequests.push(() => res.writeHead(200).end('late'));
      return 'hang';
    });
    const receiver = await startReceiver();
    const smtp = await startSmtpCapture();
    closers.push(slow.close, receiver.close, smtp.close);
    const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: '/nonexistent' });
    closers.push(() => mailer.close());
    const a = await firm();
    const b = await firm(['intake@b.example']);
    for (let i = 0; i < 3; i++) await a.endpoint(slow.url);
    await b.endpoint(receiver.url);
    for (let i = 0; i < 10; i++) await a.lead();
    const worker = start({ ...base, mailer });
    await expect.poll(() => slow.requests.length, { timeout: 5_000 }).toBeGreaterThan(0);
    await b.lead();
    await expect.poll(() => receiver.requests.length, { timeout: 5_000 }).toBe(1);
    await expect.poll(() => smtp.messages.length, { timeout: 5_000 }).toBe(1);
    expect(slowRequests.length).toBeGreaterThan(0);
    for (const answer of slowRequests) answer();
    await worker.stop(100);
  });

  it('slow SMTP server and two instances: every mail is sent exactly once (the lease is renewed while sending)', async () => {
    const smtp = await startSmtpCapture({ delayMs: 400 });
    closers.push(smtp.close);
    const f = await firm(['intake@slow.example']);
    for (let i = 0; i < 4; i++) await f.lead();
    const ids = (
      await t.database.db
        .select({ id: mailMessages.id })
        .from(mailMessages)
        .where(eq(mailMessages.accountId, f.id))
    ).map((r) => r.id);
    expect(ids).toHaveLength(4);
    // Real time, so leases run out as they would between two servers; a lease far shorter than
    // one message takes (about 2 s here).
    const instance = () => {
      const mailer = createMailer({ smtpUrl: smtp.url, outboxDir: '/nonexistent' });
      closers.push(() => mailer.close());
      return start({ ...base, clock: systemClock, mailer, mailLeaseMs: 900 });
    };
    const one = instance();
    const two = instance();
    const sent = async () =>
      (
        await t.database.db
          .select({ status: mailMessages.status })
          .from(mailMessages)
          .where(inArray(mailMessages.id, ids))
      ).filter((r) => r.status === 'sent').length;
    await expect.poll(sent, { timeout: 20_000, interval: 200 }).toBe(4);
    await Promise.all([one.stop(), two.stop()]);
    const received = smtp.messages.map((m) => m.messageId);
    expect(new Set(received).size).toBe(4);
    expect(received).toHaveLength(4);
  });
});
