import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookEventSchema } from '../../contracts/webhook.ts';
import { newId } from '../../db/engine/ids.ts';
import {
  accounts,
  auditEvents,
  deliveryAttempts,
  leads,
  mailMessages,
  webhookDeliveries,
} from '../../db/engine/schema.ts';
import { createAdminRoutes } from '../../routes/admin/index.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';
import { startReceiver } from '../../test-support/webhook-receiver.ts';
import { releaseQuarantinedLead } from '../leads/intake.ts';
import { enqueueEvent } from '../outbox/outbox.ts';
import type { DeliveryDeps } from './deps.ts';
import { DISABLE_AFTER_MS } from './endpoint-health.ts';
import { RETRY_DELAYS_MS } from './retry-schedule.ts';
import { claimDeliveries, MAX_IN_FLIGHT_PER_ENDPOINT } from './webhook-worker.ts';
import { runDeliveryOnce } from './worker.ts';

const TOKEN = 'admin-token-'.padEnd(40, 'x');
let t: TestContext;
let deps: DeliveryDeps;

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1', WEBHOOK_TIMEOUT_MS: '2000' });
  t.app.route('/', createAdminRoutes(t.services, TOKEN));
  // Standard Webhooks verifiers refuse timestamps more than 5 minutes from their own clock.
  t.clock.set(new Date());
  deps = { ...t.services.delivery, random: () => 0.5 };
});
afterAll(() => t.close());

const admin = async (method: string, path: string, body?: unknown) => {
  const res = await t.app.request(path, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json() };
};

async function firm() {
  const f = await t.seed.firm();
  const activated = await t.json(
    '/v1/api/license/activate',
    { licenseKey: f.publishableKey },
    { origin: 'https://smithlaw.com' },
  );
  const embed = (await activated.json()).token as string;
  const { apiKey } = await t.seed.apiKey(f.account.id);
  let n = 0;
  const postLead = async (overrides: Record<string, unknown> = {}) => {
    const res = await t.json(
      '/v1/api/leads',
      {
        calculator: 'estate-tax',
        name: 'Zoë Ødegård',
        email: 'zoe@example.com',
        state: 'NY',
        consent: true,
        consentText: 'I agree to be contacted.',
        ...overrides,
      },
      { authorization: `Bearer ${embed}`, 'idempotency-key': `key-${Date.now()}-${++n}` },
    );
    expect(res.status).toBe(201);
    return (await res.json()).leadId as string;
  };
  return { ...f, embed, apiKey, postLead };
}

async function endpoint(accountId: string, url: string, events = ['lead.created'], extra = {}) {
  const res = await admin('POST', '/admin/v1/webhooks', { accountId, url, events, ...extra });
  expect(res.status).toBe(200);
  return { id: res.body.endpoint.id as string, secret: res.body.secret as string };
}

const verify = (secret: string, req: { headers: Record<string, unknown>; body: string }) =>
  new Webhook(secret).verify(req.body, req.headers as Record<string, string>) as ReturnType<
    typeof JSON.parse
  >;

describe('webhook delivery', () => {
  it('retries a failing receiver on the schedule and stops at the first 2xx; one webhook-id throughout', async () => {
    const f = await firm();
    const receiver = await startReceiver((_req, n) => (n <= 2 ? 500 : 200));
    try {
      const ep = await endpoint(f.account.id, receiver.url);
      expect(ep.secret).toMatch(/^whsec_/);
      const leadId = await f.postLead();

      expect((await runDeliveryOnce(deps)).webhooks).toBe(1);
      expect(receiver.requests).toHaveLength(1);
      expect((await runDeliveryOnce(deps)).webhooks).toBe(0); // not due before its 5 s
      t.clock.advance(RETRY_DELAYS_MS[0]);
      await runDeliveryOnce(deps);
      t.clock.advance(RETRY_DELAYS_MS[1]);
      await runDeliveryOnce(deps);
      expect(receiver.requests).toHaveLength(3);
      t.clock.advance(RETRY_DELAYS_MS[2]);
      await runDeliveryOnce(deps);
      expect(receiver.requests).toHaveLength(3);

      const ids = new Set(receiver.requests.map((r) => r.headers['webhook-id']));
      expect(ids.size).toBe(1);
      for (const req of receiver.requests) {
        const body = verify(ep.secret, req);
        expect(body).toMatchObject({
          type: 'lead.created',
          data: { leadId, name: 'Zoë Ødegård', status: 'new' },
        });
        expect(Date.parse(body.timestamp)).not.toBeNaN();
      }
      expect(() =>
        verify(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, receiver.requests[0]!),
      ).toThrow();

      const listed = await admin('GET', `/admin/v1/webhooks/${ep.id}/deliveries`);
      expect(listed.status).toBe(200);
      const [delivery] = listed.body.deliveries;
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3, type: 'lead.created' });
      expect(delivery.log.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 200]);
      expect(delivery.log[0]).toMatchObject({ attempt: 1, responseExcerpt: 'not yet' });
      expect(delivery.log[0].durationMs).toBeGreaterThanOrEqual(0);
    } finally {
      await receiver.close();
    }
  });

  it('gives up after the last attempt of the schedule (about a day)', async () => {
    const f = await firm();
    const receiver = await startReceiver(() => 503);
    try {
      const ep = await endpoint(f.account.id, receiver.url);
      await f.postLead();
      await runDeliveryOnce(deps);
      for (const wait of RETRY_DELAYS_MS) {
        t.clock.advance(wait);
        await runDeliveryOnce(deps);
      }
      t.clock.advance(86_400_000);
      await runDeliveryOnce(deps);
      const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
      expect(total / 3_600_000).toBeGreaterThan(20);
      expect(total / 3_600_000).toBeLessThan(30);
      expect(receiver.requests).toHaveLength(RETRY_DELAYS_MS.length + 1);
      const [d] = (await admin('GET', `/admin/v1/webhooks/${ep.id}/deliveries`)).body.deliveries;
      expect(d).toMatchObject({
        status: 'failed',
        attempts: RETRY_DELAYS_MS.length + 1,
        nextAttemptAt: null,
      });
    } finally {
      await receiver.close();
      t.clock.set(new Date());
    }
  });

  it('sends lead.updated and result.created to the endpoints that subscribe to them', async () => {
    const f = await firm();
    const receiver = await startReceiver();
    try {
      const ep = await endpoint(f.account.id, receiver.url, ['lead.updated', 'result.created']);
      const leadId = await f.postLead();
      const patched = await t.app.request(`/v1/api/leads/${leadId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${f.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'contacted' }),
      });
      expect(patched.status).toBe(200);
      const calc = await t.json(
        '/v1/api/calc/estimate',
        { calculator: 'estate-tax', state: 'NY', inputs: { estateValue: 8_000_000 } },
        { authorization: `Bearer ${f.embed}` },
      );
      expect(calc.status).toBe(200);
      await runDeliveryOnce(deps);
      const bodies = receiver.requests.map((r) => verify(ep.secret, r));
      expect(bodies.map((b) => b.type).sort()).toEqual(['lead.updated', 'result.created']);
      expect(bodies.find((b) => b.type === 'lead.updated')!.data).toMatchObject({
        leadId,
        status: 'contacted',
      });
      expect(bodies.find((b) => b.type === 'result.created')!.data).toMatchObject({
        resultId: (await calc.json()).resultId,
        calculator: 'estate-tax',
      });
    } finally {
      await receiver.close();
    }
  });

  it('every body a receiver gets, real or from the test button, is its contract exactly (contracts/webhook.ts)', async () => {
    const f = await firm();
    const receiver = await startReceiver();
    try {
      const types = ['lead.created', 'lead.updated', 'result.created', 'leads.digest'];
      const real = await endpoint(f.account.id, receiver.url, types.slice(0, 3));
      const leadId = await f.postLead();
      await t.app.request(`/v1/api/leads/${leadId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${f.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'contacted' }),
      });
      await t.json(
        '/v1/api/calc/estimate',
        { calculator: 'estate-tax', state: 'NY', inputs: { estateValue: 8_000_000 } },
        { authorization: `Bearer ${f.embed}` },
      );
      await runDeliveryOnce(deps);
      const secrets = new Map<string, string>();
      for (const type of types) {
        const ep = await endpoint(f.account.id, receiver.url, [type]);
        secrets.set(type, ep.secret);
        expect((await admin('POST', `/admin/v1/webhooks/${ep.id}/test`)).status).toBe(200);
      }
      await runDeliveryOnce(deps);
      const bodies = receiver.requests.map((r, i) => {
        const type = (JSON.parse(String(r.body)) as { type: string }).type;
        return verify(i < 3 ? real.secret : secrets.get(type)!, r);
      });
      expect(bodies.map((b) => b.type).sort()).toEqual([...types.slice(0, 3), ...types].sort());
      // Parsing keeps only declared keys: equal means nothing missing, mistyped or undeclared.
      for (const body of bodies) expect(WebhookEventSchema.parse(body)).toEqual(body);
    } finally {
      await receiver.close();
    }
  });

  it('keeps test and quarantined leads away from endpoints, unless an endpoint asks for test events', async () => {
    const f = await firm();
    const live = await endpoint(f.account.id, 'https://hooks.example.com/live');
    const tests = await endpoint(f.account.id, 'https://hooks.example.com/test', ['lead.created'], {
      includeTest: true,
    });
    await t.database.db
      .update(accounts)
      .set({ alertEmails: ['alerts@smithlaw.example'] })
      .where(eq(accounts.id, f.account.id));
    const base = {
      accountId: f.account.id,
      type: 'lead.created' as const,
      data: { leadId: 'lead_x' },
      at: t.clock.now(),
    };
    const testEvent = await enqueueEvent(t.database.db, {
      ...base,
      test: true,
      quarantined: false,
      leadId: 'lead_t',
    });
    const quarantined = await enqueueEvent(t.database.db, {
      ...base,
      test: false,
      quarantined: true,
      leadId: 'lead_q',
    });
    expect(quarantined).toBeNull();
    const targets = await t.database.db
      .select({ endpointId: webhookDeliveries.endpointId })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, testEvent!));
    expect(targets.map((r) => r.endpointId)).toEqual([tests.id]);
    expect(targets.map((r) => r.endpointId)).not.toContain(live.id);
    const mails = await t.database.db
      .select()
      .from(mailMessages)
      .where(eq(mailMessages.accountId, f.account.id));
    expect(mails).toHaveLength(0); // no alert mail for test or quarantined leads
  });

  it('test-mode leads from a development host reach only endpoints that asked for test events', async () => {
    const f = await firm();
    const receiver = await startReceiver();
    try {
      const live = await endpoint(f.account.id, receiver.url.replace('/hooks', '/live'));
      const tests = await endpoint(f.account.id, receiver.url.replace('/hooks', '/test'), ['lead.created'], {
        includeTest: true,
      });
      const session = await t.json(
        '/v1/api/license/activate',
        { licenseKey: f.publishableKey },
        { origin: 'http://localhost:5173' },
      );
      const embed = (await session.json()).token as string;
      const res = await t.json(
        '/v1/api/leads',
        {
          calculator: 'estate-tax',
          name: 'Dev Tester',
          email: 'dev@example.com',
          state: 'NY',
          consent: true,
        },
        { authorization: `Bearer ${embed}`, 'idempotency-key': `dev-${f.account.id}` },
      );
      expect(res.status).toBe(201);
      await runDeliveryOnce(deps);
      const bodies = receiver.requests.map((r) => verify(tests.secret, r));
      expect(bodies).toHaveLength(1);
      expect(bodies[0]!.data).toMatchObject({ name: 'Dev Tester' });
      expect(() => verify(live.secret, receiver.requests[0]!)).toThrow();
    } finally {
      await receiver.close();
    }
  });

  it('a quarantined lead is delivered as lead.created once the firm releases it', async () => {
    const f = await firm();
    const receiver = await startReceiver();
    try {
      const ep = await endpoint(f.account.id, receiver.url);
      const leadId = newId('lead');
      const now = t.clock.now();
      await t.database.db.insert(leads).values({
        id: leadId,
        accountId: f.account.id,
        calculator: 'estate-tax',
        name: 'Quinn Quota',
        email: 'quinn@example.com',
        status: 'new',
        consentText: 'OK',
        consentedAt: now,
        createdAt: now,
        updatedAt: now,
        quarantinedAt: now,
      });
      await runDeliveryOnce(deps);
      expect(receiver.requests).toHaveLength(0);
      await releaseQuarantinedLead(t.services.licensing, f.account.id, leadId, 'operator');
      await runDeliveryOnce(deps);
      expect(receiver.requests).toHaveLength(1);
      expect(verify(ep.secret, receiver.requests[0]!)).toMatchObject({
        type: 'lead.created',
        data: { leadId },
      });
    } finally {
      await receiver.close();
    }
  });

  it('never has more than a few attempts in flight per endpoint, across instances', async () => {
    const f = await firm();
    const ep = await endpoint(f.account.id, 'https://hooks.example.com/busy');
    const other = await endpoint(f.account.id, 'https://hooks.example.com/other', ['lead.updated']);
    for (let i = 0; i < 6; i++) {
      await enqueueEvent(t.database.db, {
        accountId: f.account.id,
        type: i < 5 ? 'lead.created' : 'lead.updated',
        data: { i },
        test: false,
        quarantined: false,
        at: t.clock.now(),
      });
    }
    // Two instances claim at once (same database, separate transactions).
    const [a, b] = await Promise.all([claimDeliveries(deps), claimDeliveries(deps)]);
    const claimed = [...a, ...b];
    expect(claimed.filter((d) => d.endpointId === ep.id)).toHaveLength(MAX_IN_FLIGHT_PER_ENDPOINT);
    expect(claimed.filter((d) => d.endpointId === other.id)).toHaveLength(1);
    expect(new Set(claimed.map((d) => d.id)).size).toBe(claimed.length);
    expect((await claimDeliveries(deps)).filter((d) => d.endpointId === ep.id)).toHaveLength(0);
    // Leases run out (a crashed instance): the work is claimable again.
    t.clock.advance(deps.timeoutMs + 10_000);
    expect((await claimDeliveries(deps)).filter((d) => d.endpointId === ep.id)).toHaveLength(3);
    await t.database.db.delete(webhookDeliveries).where(eq(webhookDeliveries.accountId, f.account.id));
    t.clock.set(new Date());
  });

  it('disables an endpoint that failed for five days and tells the firm (audit + mail)', async () => {
    const f = await firm();
    await t.database.db
      .update(accounts)
      .set({ alertEmails: ['ops@smithlaw.example'] })
      .where(eq(accounts.id, f.account.id));
    const receiver = await startReceiver(() => 500);
    try {
      const ep = await endpoint(f.account.id, receiver.url, ['lead.updated']);
      const send = () =>
        enqueueEvent(t.database.db, {
          accountId: f.account.id,
          type: 'lead.updated',
          data: {},
          test: false,
          quarantined: false,
          at: t.clock.now(),
        });
      await send();
      await runDeliveryOnce(deps);
      t.clock.advance(DISABLE_AFTER_MS - 60_000);
      await send();
      await runDeliveryOnce(deps);
      expect(
        (await admin('GET', `/admin/v1/accounts/${f.account.id}/webhooks`)).body.endpoints[0].status,
      ).toBe('enabled');
      t.clock.advance(120_000);
      await send();
      await runDeliveryOnce(deps);
      const [listed] = (await admin('GET', `/admin/v1/accounts/${f.account.id}/webhooks`)).body.endpoints;
      expect(listed).toMatchObject({ status: 'disabled', id: ep.id });
      const audit = await t.database.db.select().from(auditEvents).where(eq(auditEvents.subject, ep.id));
      expect(audit.map((a) => a.action)).toContain('webhook.disabled');
      const [mail] = await t.database.db
        .select()
        .from(mailMessages)
        .where(eq(mailMessages.accountId, f.account.id));
      expect(mail).toMatchObject({ kind: 'endpoint_disabled', recipients: ['ops@smithlaw.example'] });
      // Disabled endpoints get no new deliveries; enabling resumes.
      const before = receiver.requests.length;
      await send();
      t.clock.advance(86_400_000);
      await runDeliveryOnce(deps);
      expect(receiver.requests.length).toBe(before);
      expect((await admin('POST', `/admin/v1/webhooks/${ep.id}/enable`)).body.endpoint.status).toBe(
        'enabled',
      );
    } finally {
      await receiver.close();
      t.clock.set(new Date());
    }
  });

  it('signs with both secrets during a roll, and only the new one after', async () => {
    const f = await firm();
    const receiver = await startReceiver();
    try {
      const ep = await endpoint(f.account.id, receiver.url);
      const rolled = await admin('POST', `/admin/v1/webhooks/${ep.id}/roll-secret`, {
        overlapSeconds: 86_400,
      });
      expect(rolled.status).toBe(200);
      expect(rolled.body.secret).not.toBe(ep.secret);
      expect(rolled.body.endpoint.previousSecretValidUntil).toBeTruthy();
      await f.postLead();
      await runDeliveryOnce(deps);
      const first = receiver.requests.at(-1)!;
      expect(String(first.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verify(ep.secret, first).type).toBe('lead.created');
      expect(verify(rolled.body.secret, first).type).toBe('lead.created');

      const now = await admin('POST', `/admin/v1/webhooks/${ep.id}/roll-secret`, { overlapSeconds: 0 });
      await f.postLead();
      await runDeliveryOnce(deps);
      const second = receiver.requests.at(-1)!;
      expect(verify(now.body.secret, second).type).toBe('lead.created');
      expect(() => verify(rolled.body.secret, second)).toThrow();
    } finally {
      await receiver.close();
    }
  });
});

describe('the delivery inspector', () => {
  it('keeps the request sent and the response received with credentials redacted, shows the next retry, and goes with the lead', async () => {
    const f = await firm();
    const receiver = await startReceiver((_req, _n, res) => {
      res
        .writeHead(401, {
          'content-type': 'application/json',
          'set-cookie': 'session=s3cr3t-cookie; HttpOnly',
          'www-authenticate': 'Bearer realm="crm"',
          'x-request-id': 'req-42',
        })
        .end(
          JSON.stringify({
            error: 'expired',
            access_token: 'eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl',
            hint: 'x'.repeat(6000),
          }),
        );
      return 401;
    });
    try {
      const ep = await endpoint(f.account.id, receiver.url);
      const leadId = await f.postLead();
      await runDeliveryOnce(deps);
      const [delivery] = (await admin('GET', `/admin/v1/webhooks/${ep.id}/deliveries`)).body.deliveries;
      expect(delivery.status).toBe('pending');
      expect(Date.parse(delivery.nextAttemptAt)).toBeGreaterThan(t.clock.now().getTime());
      const [attempt] = delivery.log;
      const sent = receiver.requests[0]!;
      expect(attempt.request.headers).toMatchObject({
        'content-type': 'application/json',
        'webhook-id': sent.headers['webhook-id'],
        'webhook-signature': '[redacted]',
      });
      expect(JSON.parse(attempt.request.body)).toMatchObject({ type: 'lead.created', data: { leadId } });
      expect(attempt.response).toMatchObject({ statusCode: 401, truncated: true });
      expect(attempt.response.headers).toMatchObject({
        'set-cookie': '[redacted]',
        'www-authenticate': '[redacted]',
        'x-request-id': 'req-42',
      });
      expect(Buffer.byteLength(attempt.response.body)).toBeLessThanOrEqual(4096);
      const stored = JSON.stringify(
        await t.database.db
          .select()
          .from(deliveryAttempts)
          .where(eq(deliveryAttempts.deliveryId, delivery.id)),
      );
      expect(stored).toContain('req-42');
      for (const secret of ['s3cr3t-cookie', 'eyJhbGciOi', String(sent.headers['webhook-signature'])])
        expect(stored).not.toContain(secret);

      // Privacy deletion of the lead takes the stored request (a copy of the lead) with it.
      expect((await admin('DELETE', `/admin/v1/leads/${leadId}`)).status).toBe(200);
      expect(
        await t.database.db
          .select()
          .from(deliveryAttempts)
          .where(eq(deliveryAttempts.deliveryId, delivery.id)),
      ).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });
});

describe('webhook admin API', () => {
  it('replays a delivery with the same webhook-id, sends test events, deletes endpoints', async () => {
    const f = await firm();
    const receiver = await startReceiver();
    try {
      const ep = await endpoint(f.account.id, receiver.url);
      await f.postLead();
      await runDeliveryOnce(deps);
      const [delivery] = (await admin('GET', `/admin/v1/webhooks/${ep.id}/deliveries`)).body.deliveries;
      const replay = await admin('POST', `/admin/v1/webhook-deliveries/${delivery.id}/replay`);
      expect(replay.status).toBe(200);
      expect(replay.body.delivery.id).not.toBe(delivery.id);
      await runDeliveryOnce(deps);
      expect(receiver.requests).toHaveLength(2);
      expect(receiver.requests[1]!.headers['webhook-id']).toBe(receiver.requests[0]!.headers['webhook-id']);

      const test = await admin('POST', `/admin/v1/webhooks/${ep.id}/test`);
      expect(test.status).toBe(200);
      await runDeliveryOnce(deps);
      const body = verify(ep.secret, receiver.requests[2]!);
      expect(body).toMatchObject({ type: 'lead.created', data: { test: true, name: 'Test Lead' } });

      expect((await admin('DELETE', `/admin/v1/webhooks/${ep.id}`)).status).toBe(200);
      expect((await admin('GET', `/admin/v1/webhooks/${ep.id}/deliveries`)).status).toBe(404);
    } finally {
      await receiver.close();
    }
  });

  it.each([
    [{ url: 'http://hooks.example.com/x', events: ['lead.created'] }, 400],
    [{ url: 'https://169.254.169.254/latest', events: ['lead.created'] }, 400],
    [{ url: 'https://hooks.example.com/x', events: ['lead.deleted'] }, 400],
    [{ url: 'https://hooks.example.com/x', events: [] }, 400],
  ])('refuses %j with %i', async (input, status) => {
    const f = await firm();
    const res = await admin('POST', '/admin/v1/webhooks', { accountId: f.account.id, ...input });
    expect(res.status).toBe(status);
    expect(res.body.error).toMatchObject({ code: 'INVALID_REQUEST', status });
  });

  it('answers 404 for unknown accounts, endpoints and deliveries', async () => {
    const missing = [
      await admin('POST', '/admin/v1/webhooks', {
        accountId: 'acct_nope',
        url: 'https://a.example/x',
        events: ['lead.created'],
      }),
      await admin('GET', '/admin/v1/accounts/acct_nope/webhooks'),
      await admin('GET', '/admin/v1/webhooks/whe_nope/deliveries'),
      await admin('POST', '/admin/v1/webhook-deliveries/dlv_nope/replay'),
      await admin('POST', '/admin/v1/webhooks/whe_nope/test'),
      await admin('DELETE', '/admin/v1/webhooks/whe_nope'),
    ];
    for (const res of missing) expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('caps the endpoints of a firm at its plan (default 10): 409 ENDPOINT_LIMIT_REACHED past it', async () => {
    const f = await firm();
    for (let i = 0; i < 10; i++) await endpoint(f.account.id, `http://127.0.0.1:9/hooks/${i}`);
    const over = await admin('POST', '/admin/v1/webhooks', {
      accountId: f.account.id,
      url: 'http://127.0.0.1:9/hooks/eleven',
      events: ['lead.created'],
    });
    expect(over.status).toBe(409);
    expect(over.body.error).toMatchObject({ code: 'ENDPOINT_LIMIT_REACHED', status: 409 });
    expect(over.body.error.message).toContain('10');
    // Another firm is not affected, and deleting one makes room again.
    const other = await firm();
    await endpoint(other.account.id, 'http://127.0.0.1:9/hooks/other');
    const [first] = (await admin('GET', `/admin/v1/accounts/${f.account.id}/webhooks`)).body.endpoints;
    expect((await admin('DELETE', `/admin/v1/webhooks/${first.id}`)).status).toBe(200);
    await endpoint(f.account.id, 'http://127.0.0.1:9/hooks/eleven');
  });

  it('lists endpoints without their secrets', async () => {
    const f = await firm();
    const ep = await endpoint(f.account.id, 'https://hooks.example.com/list');
    const listed = await admin('GET', `/admin/v1/accounts/${f.account.id}/webhooks`);
    expect(JSON.stringify(listed.body)).not.toContain(ep.secret);
    expect(JSON.stringify(listed.body)).not.toContain('secretEnc');
  });
});

describe('endpoint changes (admin PATCH, the portal uses the same updateEndpoint)', () => {
  it('edited events decide what it receives; off holds queued deliveries and queues none until on again', async () => {
    const f = await firm();
    const receiver = await startReceiver();
    try {
      const ep = await endpoint(f.account.id, receiver.url, ['result.created']);
      await f.postLead();
      await runDeliveryOnce(deps);
      expect(receiver.requests).toHaveLength(0);
      const edited = await admin('PATCH', `/admin/v1/webhooks/${ep.id}`, { events: ['lead.created'] });
      expect(edited.body.endpoint.events).toEqual(['lead.created']);
      await f.postLead(); // queued, not yet sent
      const off = await admin('PATCH', `/admin/v1/webhooks/${ep.id}`, { enabled: false });
      expect(off.body.endpoint).toMatchObject({ status: 'disabled', disabledReason: 'Turned off' });
      await f.postLead(); // while off: nothing is queued for it
      await runDeliveryOnce(deps);
      expect(receiver.requests).toHaveLength(0);
      const on = await admin('PATCH', `/admin/v1/webhooks/${ep.id}`, { enabled: true });
      expect(on.body.endpoint.status).toBe('enabled');
      await runDeliveryOnce(deps);
      expect(receiver.requests).toHaveLength(1);
      expect(verify(ep.secret, receiver.requests[0]!).type).toBe('lead.created');
      const bad = await admin('PATCH', `/admin/v1/webhooks/${ep.id}`, { events: ['lead.deleted'] });
      expect([bad.status, bad.body.error.code]).toEqual([400, 'INVALID_REQUEST']);
      const audit = await t.database.db.select().from(auditEvents).where(eq(auditEvents.subject, ep.id));
      expect(audit.filter((a) => a.action === 'webhook.updated').map((a) => a.data)).toEqual([
        { before: { events: ['result.created'] }, after: { events: ['lead.created'] } },
        { before: { disabledAt: false }, after: { disabledAt: true } },
        { before: { disabledAt: true }, after: { disabledAt: false } },
      ]);
    } finally {
      await receiver.close();
    }
  });
});
