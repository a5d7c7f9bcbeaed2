import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/engine/ids.ts';
import {
  auditEvents,
  deliveryAttempts,
  leads,
  mailMessages,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/engine/schema.ts';
import { putMembership, upsertUser } from '../../db/repos/users-repo.ts';
import { createAdminRoutes } from '../../routes/admin/index.ts';
import { decrypt } from '../../secrets/encryption.ts';
import { rotateSecretKey } from '../../secrets/rotate-secret-key.ts';
import { startCrmStandIns } from '../../test-support/crm-stand-ins.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';
import { releaseQuarantinedLead } from '../leads/intake.ts';
import { enqueueEvent } from '../outbox/outbox.ts';
import type { DeliveryDeps } from './deps.ts';
import { DESTINATION_WAIT_MS } from './destination-health.ts';
import { runRetention } from './retention.ts';
import { claimDeliveries } from './webhook-worker.ts';
import { runDeliveryOnce } from './worker.ts';

const TOKEN = 'admin-token-'.padEnd(40, 'x');
let t: TestContext;
let deps: DeliveryDeps;
let crm: Awaited<ReturnType<typeof startCrmStandIns>>;

beforeAll(async () => {
  crm = await startCrmStandIns();
  // The stand-ins are on loopback: only DESTINATION_BASE_URLS lets a destination reach them.
  t = await createTestContext({
    DESTINATION_BASE_URLS: crm.baseUrls,
    WEBHOOK_TIMEOUT_MS: '2000',
    // A trial's daily figure of 1: its further leads are alerted in an hourly digest.
    PLANS: JSON.stringify({ trial: { leadsPerDay: 1 } }),
  });
  t.app.route('/', createAdminRoutes(t.services, TOKEN));
  deps = { ...t.services.delivery, random: () => 0.5 };
});
afterAll(async () => {
  await t.close();
  await crm.close();
});

const admin = async (method: string, path: string, body?: unknown) => {
  const res = await t.app.request(path, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json() };
};

async function firm(plan?: 'trial') {
  const f = await t.seed.firm(plan ? { plan } : {});
  const at = t.clock.now();
  for (const [email, role] of [
    ['owner@smithlaw.example', 'owner'],
    ['partner@smithlaw.example', 'admin'],
    ['clerk@smithlaw.example', 'viewer'],
  ] as const) {
    const user = await upsertUser(t.database.db, { id: newId('usr'), email, createdAt: at });
    await putMembership(t.database.db, {
      accountId: f.account.id,
      userId: user.id,
      role,
      invitedBy: null,
      at,
    });
  }
  const activated = await t.json(
    '/v1/api/license/activate',
    { licenseKey: f.publishableKey },
    { origin: 'https://smithlaw.com' },
  );
  const embed = (await activated.json()).token as string;
  let n = 0;
  const postLead = async (overrides: Record<string, unknown> = {}) => {
    const res = await t.json(
      '/v1/api/leads',
      {
        calculator: 'estate-tax',
        name: 'Juan de la Cruz',
        email: 'juan@example.com',
        phone: '(212) 736-5000',
        state: 'NY',
        consent: true,
        consentText: 'I agree to be contacted.',
        ...overrides,
      },
      { authorization: `Bearer ${embed}`, 'idempotency-key': `dst-${Date.now()}-${++n}` },
    );
    expect(res.status).toBe(201);
    return (await res.json()).leadId as string;
  };
  return { ...f, postLead };
}

const HUBSPOT = { portalId: '62515', formGuid: '78c2891f-ebdd-44c0-bd94-15c012bbbfbf' };

async function destination(
  accountId: string,
  vendor: string,
  credential: string,
  settings: object = {},
  extra = {},
) {
  const res = await admin('POST', '/admin/v1/destinations', {
    accountId,
    vendor,
    credential,
    settings,
    ...extra,
  });
  expect(res.status).toBe(200);
  return res.body.destination as { id: string; credentialLast4: string; status: string };
}

const deliveriesOf = (endpointId: string) =>
  t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
const kept = (vendor: 'clio-grow' | 'hubspot' | 'wealthbox', email: string) =>
  crm.kept[vendor].filter((k) => JSON.stringify(k).includes(email));

describe('CRM destinations on the outbox', () => {
  it('a live lead reaches Clio Grow and HubSpot once each; the credential is shown by its last four only', async () => {
    const f = await firm();
    const clio = await destination(f.account.id, 'clio-grow', 'clio-good-token');
    const hub = await destination(f.account.id, 'hubspot', 'pat-na1-good', HUBSPOT);
    expect(clio.credentialLast4).toBe('oken');
    expect(
      JSON.stringify(await admin('GET', `/admin/v1/accounts/${f.account.id}/destinations`)),
    ).not.toContain('clio-good-token');
    await f.postLead({ email: 'first@example.com' });
    await runDeliveryOnce(deps);
    expect(kept('clio-grow', 'first@example.com')).toEqual([
      expect.objectContaining({ from_first: 'Juan', from_last: 'de la Cruz', from_phone: '+12127365000' }),
    ]);
    expect(kept('hubspot', 'first@example.com')).toHaveLength(1);
    const [dlv] = await deliveriesOf(hub.id);
    expect(dlv).toMatchObject({ status: 'succeeded', attempts: 1 });
    // The inspector keeps the request with the token taken out.
    const [clioDlv] = await deliveriesOf(clio.id);
    const [attempt] = await t.database.db
      .select()
      .from(deliveryAttempts)
      .where(eq(deliveryAttempts.deliveryId, clioDlv!.id));
    expect(attempt!.requestBody).toContain('"inbox_lead_token":"[redacted]"');
    expect(attempt!.requestBody).not.toContain('clio-good-token');
    const wb = await destination(f.account.id, 'wealthbox', 'wb-good-token');
    await f.postLead({ email: 'wb@example.com' });
    await runDeliveryOnce(deps);
    const [wbDlv] = await deliveriesOf(wb.id);
    const [wbAttempt] = await t.database.db
      .select()
      .from(deliveryAttempts)
      .where(eq(deliveryAttempts.deliveryId, wbDlv!.id));
    expect(wbAttempt!.requestHeaders!.access_token).toBe('[redacted]');
  });

  it('takes lead.created only: never updates, results, digests or an event added later', async () => {
    const f = await firm();
    const clio = await destination(f.account.id, 'clio-grow', 'clio-good-token');
    for (const type of ['lead.updated', 'result.created', 'leads.digest', 'rules.updated'])
      await enqueueEvent(t.database.db, {
        accountId: f.account.id,
        type: type as 'lead.updated',
        data: {},
        test: false,
        quarantined: false,
        at: t.clock.now(),
      });
    expect(await deliveriesOf(clio.id)).toHaveLength(0);
  });

  it('a held lead goes nowhere until it is released, then reaches the CRM', async () => {
    const f = await firm();
    const clio = await destination(f.account.id, 'clio-grow', 'clio-good-token');
    const leadId = newId('lead');
    const now = t.clock.now();
    await t.database.db.insert(leads).values({
      id: leadId,
      accountId: f.account.id,
      calculator: 'estate-tax',
      name: 'Hana Held',
      email: 'held@example.com',
      status: 'new',
      consentText: 'OK',
      consentedAt: now,
      createdAt: now,
      updatedAt: now,
      quarantinedAt: now,
    });
    await runDeliveryOnce(deps);
    expect(await deliveriesOf(clio.id)).toHaveLength(0);
    await releaseQuarantinedLead(t.services.licensing, f.account.id, leadId, 'operator');
    await runDeliveryOnce(deps);
    expect(kept('clio-grow', 'held@example.com')).toEqual([
      expect.objectContaining({ from_first: 'Hana', from_last: 'Held' }),
    ]);
  });

  it('past the daily figure, webhooks and inboxes get a digest but the CRM still gets each lead at once', async () => {
    const f = await firm('trial');
    await destination(f.account.id, 'clio-grow', 'clio-good-token');
    const ids = [];
    for (const n of [1, 2, 3]) ids.push(await f.postLead({ email: `over-${n}@example.com` }));
    const rows = await t.database.db.select().from(leads).where(eq(leads.accountId, f.account.id));
    expect(rows.filter((r) => r.digestId !== null)).toHaveLength(2);
    await runDeliveryOnce(deps);
    await runDeliveryOnce(deps);
    await runDeliveryOnce(deps);
    for (const n of [1, 2, 3]) expect(kept('clio-grow', `over-${n}@example.com`)).toHaveLength(1);
  });

  it('test leads go only to a destination that asks for them', async () => {
    const f = await firm();
    const plain = await destination(f.account.id, 'clio-grow', 'clio-good-token');
    const wants = await destination(f.account.id, 'clio-grow', 'clio-good-token', {}, { includeTest: true });
    await enqueueEvent(t.database.db, {
      accountId: f.account.id,
      type: 'lead.created',
      data: {},
      test: true,
      quarantined: false,
      at: t.clock.now(),
    });
    expect(await deliveriesOf(plain.id)).toHaveLength(0);
    expect(await deliveriesOf(wants.id)).toHaveLength(1);
  });

  it('a refused credential disables at once and mails owners and admins; what waited goes, oldest first, once enabled', async () => {
    const f = await firm();
    const clio = await destination(f.account.id, 'clio-grow', 'clio-revoked-token');
    await f.postLead({ email: 'waited-1@example.com' });
    await runDeliveryOnce(deps);
    const shown = await admin('GET', `/admin/v1/destinations/${clio.id}`);
    expect(shown.body.destination).toMatchObject({ status: 'disabled' });
    expect(shown.body.destination.disabledReason).toContain('refused the credential');
    const [mail] = await t.database.db
      .select()
      .from(mailMessages)
      .where(eq(mailMessages.kind, 'destination_disabled'));
    expect(mail!.recipients.sort()).toEqual(['owner@smithlaw.example', 'partner@smithlaw.example']);
    // While disabled, leads queue and wait.
    await f.postLead({ email: 'waited-2@example.com' });
    await runDeliveryOnce(deps);
    expect((await deliveriesOf(clio.id)).every((d) => d.status === 'pending')).toBe(true);
    expect(
      (
        await admin('POST', `/admin/v1/destinations/${clio.id}/roll-credentials`, {
          credential: 'clio-good-token',
        })
      ).status,
    ).toBe(200);
    expect((await admin('POST', `/admin/v1/destinations/${clio.id}/enable`)).body.destination.status).toBe(
      'enabled',
    );
    const waited = () =>
      crm.kept['clio-grow']
        .map((k) => (k as { from_email: string }).from_email)
        .filter((e) => e.startsWith('waited-'));
    // One in flight per destination: each pass sends one, the oldest first.
    await runDeliveryOnce(deps);
    expect(waited()).toEqual(['waited-1@example.com']);
    await runDeliveryOnce(deps);
    expect(waited()).toEqual(['waited-1@example.com', 'waited-2@example.com']);
    const actions = (
      await t.database.db.select().from(auditEvents).where(eq(auditEvents.subject, clio.id))
    ).map((a) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'destination.created',
        'destination.disabled',
        'destination.credentials_rolled',
        'destination.enabled',
      ]),
    );
  });

  it('a validation error is logged with the vendor’s message and not retried', async () => {
    const f = await firm();
    // A note field the HubSpot form does not have: HubSpot refuses the submission.
    const hub = await destination(f.account.id, 'hubspot', 'pat-na1-good', {
      ...HUBSPOT,
      noteProperty: 'enquiry_notes',
    });
    await f.postLead({ email: 'invalid@example.com' });
    await runDeliveryOnce(deps);
    t.clock.set(new Date(t.clock.now().getTime() + 3_600_000));
    await runDeliveryOnce(deps);
    const log = await admin('GET', `/admin/v1/destinations/${hub.id}/deliveries`);
    const [d] = log.body.deliveries;
    expect(d).toMatchObject({ status: 'failed', attempts: 1 });
    expect(d.log[0].statusCode).toBe(400);
    expect(d.log[0].error).toContain('does not exist on the form');
    expect((await admin('GET', `/admin/v1/destinations/${hub.id}`)).body.destination.status).toBe('enabled');
  });

  it('after a 429 nothing goes before Retry-After, then the lead is delivered', async () => {
    const f = await firm();
    const wb = await destination(f.account.id, 'wealthbox', 'wb-good-token');
    crm.throttle('wealthbox', 1, 120);
    await f.postLead({ email: 'throttled@example.com' });
    await runDeliveryOnce(deps);
    const [d] = await deliveriesOf(wb.id);
    expect(d!.status).toBe('pending');
    expect(d!.nextAttemptAt.getTime() - t.clock.now().getTime()).toBeGreaterThanOrEqual(120_000);
    t.clock.set(new Date(t.clock.now().getTime() + 60_000));
    expect(await claimDeliveries(deps, { accountId: f.account.id })).toHaveLength(0);
    t.clock.set(new Date(t.clock.now().getTime() + 61_000));
    await runDeliveryOnce(deps);
    expect((await deliveriesOf(wb.id))[0]!.status).toBe('succeeded');
  });

  it('deliveries that wait 7 days on a disabled destination are cancelled and can be replayed', async () => {
    const f = await firm();
    const clio = await destination(f.account.id, 'clio-grow', 'clio-good-token');
    await admin('POST', `/admin/v1/destinations/${clio.id}/disable`);
    await f.postLead({ email: 'stale@example.com' });
    t.clock.set(new Date(t.clock.now().getTime() + DESTINATION_WAIT_MS + 3_600_000));
    const report = await runRetention(deps);
    expect(report.destinationWaitsCancelled).toBeGreaterThanOrEqual(1);
    const [d] = await deliveriesOf(clio.id);
    expect(d!.status).toBe('cancelled');
    await admin('POST', `/admin/v1/destinations/${clio.id}/enable`);
    expect((await admin('POST', `/admin/v1/webhook-deliveries/${d!.id}/replay`)).status).toBe(200);
    await runDeliveryOnce(deps);
    expect(kept('clio-grow', 'stale@example.com')).toHaveLength(1);
  });

  it('`secrets rotate` re-encrypts the credential; webhook verbs do not touch a destination', async () => {
    const f = await firm();
    const clio = await destination(f.account.id, 'clio-grow', 'clio-good-token');
    expect((await admin('POST', `/admin/v1/webhooks/${clio.id}/roll-secret`, {})).status).toBe(404);
    expect((await admin('GET', `/admin/v1/accounts/${f.account.id}/webhooks`)).body.endpoints).toEqual([]);
    const newKey = randomBytes(32);
    await rotateSecretKey(t.database.db, deps.secretKey, newKey);
    const [row] = await t.database.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, clio.id));
    expect(decrypt(newKey, row!.secretEnc)).toBe('clio-good-token');
    await rotateSecretKey(t.database.db, newKey, deps.secretKey);
  });

  it('refuses unknown vendors, bad settings and a short credential with 400', async () => {
    const f = await firm();
    const bad = async (body: object) =>
      (
        await admin('POST', '/admin/v1/destinations', {
          accountId: f.account.id,
          credential: 'long-enough-token',
          ...body,
        })
      ).status;
    expect(await bad({ vendor: 'lead-docket' })).toBe(400);
    expect(await bad({ vendor: 'hubspot', settings: { portalId: 'abc', formGuid: 'x' } })).toBe(400);
    expect(await bad({ vendor: 'clio-grow', settings: { region: 'mars' } })).toBe(400);
    expect(await bad({ vendor: 'clio-grow', credential: 'short' })).toBe(400);
  });
});
