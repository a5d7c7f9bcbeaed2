import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../db/engine/schema.ts';
import { deliverWebhooks } from '../../domain/delivery/webhook-worker.ts';
import { startFakeStripe } from '../../test-support/fake-stripe.ts';
import { portalCaller } from '../../test-support/portal-session.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';
import { startReceiver } from '../../test-support/webhook-receiver.ts';

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1', WEBHOOK_TIMEOUT_MS: '2000' });
});
afterAll(() => t.close());

const activate = (licenseKey: string, siteDomain: string) =>
  t.json('/v1/api/licenses/activate', { licenseKey, siteDomain });

async function auditOf(subject: string) {
  return (await t.database.db.select().from(auditEvents)).filter((r) => r.subject === subject);
}

describe('portal: licenses (the lifecycle domain functions, scoped to the firm)', () => {
  it('adds a domain (normalised, Unicode and punycode), activation follows; removing it refuses activation', async () => {
    const { account, license, licenseKey } = await t.seed.firm();
    const owner = await portalCaller(t, account.id, 'admin');
    expect((await activate(licenseKey, 'bücher.example')).status).toBe(403);
    const added = await owner.call('POST', `licenses/${license.id}/domains`, {
      addDomains: ['https://WWW.Bücher.example:8443/x'],
    });
    expect(added.status).toBe(200);
    expect(added.body.license.allowedDomains).toContain('xn--bcher-kva.example');
    const view = (await owner.call('GET', `licenses/${license.id}`)).body.license;
    expect(view.domains).toContainEqual({ ascii: 'xn--bcher-kva.example', unicode: 'bücher.example' });
    expect((await activate(licenseKey, 'bücher.example')).status).toBe(200);

    const removed = await owner.call('POST', `licenses/${license.id}/domains`, {
      removeDomains: ['xn--bcher-kva.example'],
    });
    expect(removed.status).toBe(200);
    const refused = await activate(licenseKey, 'bücher.example');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('DOMAIN_NOT_ALLOWED');
    const audit = await auditOf(license.id);
    expect(audit.map((a) => a.actor)).toContain(`user:${owner.email}`);

    const bad = await owner.call('POST', `licenses/${license.id}/domains`, { addDomains: ['co.uk'] });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'INVALID_REQUEST']);
    // A firm changes its domains here, not its seats or plan.
    const seats = await owner.call('POST', `licenses/${license.id}/domains`, { seats: 100 });
    expect(seats.status).toBe(400);
  });

  it('releases a seat: the seat count drops and the site’s refresh token is refused', async () => {
    const { account, license, licenseKey } = await t.seed.firm();
    const owner = await portalCaller(t, account.id, 'owner');
    const site = (await (await activate(licenseKey, 'smithlaw.com')).json()) as { refreshToken: string };
    const before = (await owner.call('GET', `licenses/${license.id}`)).body.license;
    expect(before.seatsUsed).toBe(1);
    const released = await owner.call('POST', `activations/${before.activations[0].id}/release`);
    expect(released.status).toBe(200);
    expect((await owner.call('GET', `licenses/${license.id}`)).body.license.seatsUsed).toBe(0);
    const refresh = await t.json('/v1/api/licenses/refresh', { refreshToken: site.refreshToken });
    expect(refresh.status).toBe(400);
    const audit = await auditOf(before.activations[0].id);
    expect(audit.map((a) => [a.action, a.actor])).toEqual([['activation.released', `user:${owner.email}`]]);
  });

  it('rolls the publishable key with an overlap, or now; the new key shows once', async () => {
    const { account, license, publishableKey } = await t.seed.firm();
    const owner = await portalCaller(t, account.id, 'owner');
    const rolled = await owner.call('POST', `licenses/${license.id}/roll-key`, {
      kind: 'publishable',
      overlapSeconds: 3600,
    });
    expect(rolled.status).toBe(200);
    expect(rolled.body.key).toMatch(/^svc_pk_/);
    const view = (await owner.call('GET', `licenses/${license.id}`)).body.license;
    expect(view.publishableKey).toBe(rolled.body.key);
    expect(view.overlappingKeys).toEqual([
      { kind: 'publishable', last4: publishableKey.slice(-4), expiresAt: '2026-03-01T13:00:00.000Z' },
    ]);
    const secret = await owner.call('POST', `licenses/${license.id}/roll-key`, {
      kind: 'secret',
      overlapSeconds: 0,
    });
    expect(secret.body.key).toMatch(/^SVC-/);
    const after = (await owner.call('GET', `licenses/${license.id}`)).body.license;
    expect(after.keyLast4).toBe(secret.body.key.slice(-4));
    expect(JSON.stringify(after)).not.toContain(secret.body.key);
    expect((await auditOf(license.id)).filter((a) => a.action === 'license.key_rolled')).toHaveLength(2);
  });

  it('billing: the built-in billing page without Stripe; Checkout answers 501', async () => {
    const { account, license } = await t.seed.firm();
    const owner = await portalCaller(t, account.id, 'owner');
    const portal = await owner.call('POST', 'billing/portal');
    expect(portal.status).toBe(200);
    expect(portal.body.url).toContain('/billing/portal?token=');
    expect((await owner.call('GET', 'billing')).body).toEqual({
      checkout: false,
      plans: ['starter', 'pro', 'agency'],
    });
    const checkout = await owner.call('POST', 'billing/checkout', { licenseId: license.id, plan: 'pro' });
    expect([checkout.status, checkout.body.error.code]).toEqual([501, 'BILLING_NOT_CONFIGURED']);
  });
});

describe('portal: firm settings', () => {
  it('saves name, consent (a new version), alert addresses and accent; audited as the user', async () => {
    const { account } = await t.seed.firm();
    const admin = await portalCaller(t, account.id, 'admin');
    const saved = await admin.call('PATCH', 'settings/firm', {
      name: 'Smith Law LLP',
      consentText: 'I agree that Smith Law may contact me about my enquiry.',
      alertEmails: ['Office@smithlaw.example', 'office@smithlaw.example'],
      accentColor: '#1A6B4F',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      name: 'Smith Law LLP',
      alertEmails: ['office@smithlaw.example'],
      accentColor: '#1a6b4f',
    });
    await admin.call('PATCH', 'settings/firm', { consentText: 'Second wording: Smith Law may contact me.' });
    const read = (await admin.call('GET', 'settings/firm')).body;
    expect(read.consentVersions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(read.consent.text).toBe('Second wording: Smith Law may contact me.');
    const audit = await auditOf(account.id);
    expect(audit.map((a) => a.actor)).toEqual([`user:${admin.email}`, `user:${admin.email}`]);
    const bad = await admin.call('PATCH', 'settings/firm', { accentColor: 'green' });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'INVALID_REQUEST']);
  });
});

describe('portal: webhooks', () => {
  it('creates an endpoint, edits its events, sends a signed test, replays it, rolls the secret, deletes it', async () => {
    const receiver = await startReceiver();
    try {
      const { account } = await t.seed.firm();
      const admin = await portalCaller(t, account.id, 'admin');
      const created = await admin.call('POST', 'webhooks', { url: receiver.url, events: ['lead.created'] });
      expect(created.status).toBe(200);
      expect(created.body.secret).toMatch(/^whsec_/);
      const id = created.body.endpoint.id as string;
      // The same SSRF rules as the operator's: no private or link-local targets.
      const metadata = await admin.call('POST', 'webhooks', {
        url: 'https://169.254.169.254/latest',
        events: ['lead.created'],
      });
      expect([metadata.status, metadata.body.error.code]).toEqual([400, 'INVALID_REQUEST']);
      const listed = (await admin.call('GET', 'webhooks')).body;
      expect(JSON.stringify(listed)).not.toContain(created.body.secret);
      const edited = await admin.call('PATCH', `webhooks/${id}`, {
        events: ['lead.created', 'lead.updated'],
      });
      expect(edited.body.endpoint.events).toEqual(['lead.created', 'lead.updated']);

      expect((await admin.call('POST', `webhooks/${id}/test`)).status).toBe(200);
      await deliverWebhooks(t.services.delivery);
      expect(receiver.requests).toHaveLength(1);
      expect(receiver.requests[0]!.headers['webhook-signature']).toMatch(/^v1,/);
      const deliveries = (await admin.call('GET', `webhooks/${id}/deliveries`)).body.data;
      expect(deliveries[0]).toMatchObject({ status: 'succeeded', attempts: 1, test: true });
      expect(deliveries[0].log[0].statusCode).toBe(204);
      expect((await admin.call('POST', `webhook-deliveries/${deliveries[0].id}/replay`)).status).toBe(200);
      await deliverWebhooks(t.services.delivery);
      expect(receiver.requests).toHaveLength(2);

      const off = await admin.call('PATCH', `webhooks/${id}`, { enabled: false });
      expect(off.body.endpoint.status).toBe('disabled');
      const rolled = await admin.call('POST', `webhooks/${id}/roll-secret`, { overlapSeconds: 0 });
      expect(rolled.body.secret).toMatch(/^whsec_/);
      expect(rolled.body.secret).not.toBe(created.body.secret);
      expect((await admin.call('DELETE', `webhooks/${id}`)).status).toBe(200);
      const actions = (await auditOf(id)).map((a) => [a.action, a.actor]);
      expect(actions.map(([a]) => a)).toEqual([
        'webhook.created',
        'webhook.updated',
        'webhook.tested',
        'webhook.updated',
        'webhook.secret_rolled',
        'webhook.deleted',
      ]);
      expect(new Set(actions.map(([, actor]) => actor))).toEqual(new Set([`user:${admin.email}`]));
    } finally {
      await receiver.close();
    }
  });
});

describe('portal: roles, tenancy and CSRF on these endpoints', () => {
  it('a viewer reads but every change is 403 FORBIDDEN', async () => {
    const { account, license } = await t.seed.firm();
    const viewer = await portalCaller(t, account.id, 'viewer');
    expect((await viewer.call('GET', 'settings/firm')).status).toBe(200);
    expect((await viewer.call('GET', 'webhooks')).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', `licenses/${license.id}/domains`, { addDomains: ['viewer.example'] }],
      ['POST', `licenses/${license.id}/roll-key`, { kind: 'publishable' }],
      ['POST', 'activations/act_none/release', undefined],
      ['POST', 'billing/portal', undefined],
      ['POST', 'billing/checkout', { licenseId: license.id, plan: 'pro' }],
      ['PATCH', 'settings/firm', { name: 'Viewer was here' }],
      ['POST', 'webhooks', { url: 'https://hooks.example.com/x', events: ['lead.created'] }],
    ] as const) {
      const res = await viewer.call(method, path, body);
      expect([res.status, res.body.error?.code], `${method} ${path}`).toEqual([403, 'FORBIDDEN']);
    }
  });

  it("another firm's license, activation, endpoint and delivery ids are 404", async () => {
    const mine = await t.seed.firm();
    const theirs = await t.seed.firm();
    const me = await portalCaller(t, mine.account.id, 'owner');
    const them = await portalCaller(t, theirs.account.id, 'owner');
    await activate(theirs.licenseKey, 'smithlaw.com');
    const theirLicense = (await them.call('GET', `licenses/${theirs.license.id}`)).body.license;
    const endpoint = (
      await them.call('POST', 'webhooks', { url: 'https://hooks.example.com/x', events: ['lead.created'] })
    ).body.endpoint.id as string;
    const test = (await them.call('POST', `webhooks/${endpoint}/test`)).body.delivery.id as string;
    for (const [method, path, body] of [
      ['POST', `licenses/${theirs.license.id}/domains`, { addDomains: ['mine.example'] }],
      ['POST', `licenses/${theirs.license.id}/roll-key`, { kind: 'publishable' }],
      ['POST', `activations/${theirLicense.activations[0].id}/release`, undefined],
      ['POST', 'billing/checkout', { licenseId: theirs.license.id, plan: 'pro' }],
      ['PATCH', `webhooks/${endpoint}`, { enabled: false }],
      ['GET', `webhooks/${endpoint}/deliveries`, undefined],
      ['POST', `webhooks/${endpoint}/test`, undefined],
      ['POST', `webhooks/${endpoint}/roll-secret`, {}],
      ['POST', `webhook-deliveries/${test}/replay`, undefined],
      ['DELETE', `webhooks/${endpoint}`, undefined],
    ] as const) {
      const res = await me.call(method, path, body);
      // Checkout without Stripe stops at 501 before looking the license up; the rest are 404.
      const expected = path === 'billing/checkout' ? 501 : 404;
      expect(res.status, `${method} ${path}`).toBe(expected);
    }
    expect((await me.call('GET', 'webhooks')).body.data).toEqual([]);
    expect((await them.call('GET', `licenses/${theirs.license.id}`)).body.license.seatsUsed).toBe(1);
  });

  it('a change without the CSRF token, or from another origin, is 403', async () => {
    const { account, license } = await t.seed.firm();
    const owner = await portalCaller(t, account.id, 'owner');
    const body = { addDomains: ['csrf.example'] };
    const noToken = await owner.call('POST', `licenses/${license.id}/domains`, body, { 'x-csrf-token': '' });
    expect(noToken.status).toBe(403);
    const crossSite = await owner.call(
      'PATCH',
      'settings/firm',
      { name: 'x' },
      { origin: 'https://evil.example' },
    );
    expect(crossSite.status).toBe(403);
    expect((await owner.call('GET', `licenses/${license.id}`)).body.license.domains).not.toContainEqual({
      ascii: 'csrf.example',
      unicode: 'csrf.example',
    });
  });
});

describe('portal: Stripe Checkout (fake Stripe on loopback)', () => {
  it('starts a subscription for the chosen license; Stripe returns to the portal, never elsewhere', async () => {
    const stripe = await startFakeStripe();
    const s = await createTestContext({ STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_API_BASE: stripe.url });
    try {
      const { account, license } = await s.seed.firm({ trialDays: 14 });
      const owner = await portalCaller(s, account.id, 'owner');
      expect((await owner.call('GET', 'billing')).body.checkout).toBe(true);
      stripe.price('pro');
      const res = await owner.call('POST', 'billing/checkout', { licenseId: license.id, plan: 'pro' });
      expect(res.status).toBe(200);
      expect(res.body.url).toMatch(/^https:\/\/checkout\.stripe\.test\/pay\/cs_/);
      const sent = stripe.seen.find((r) => r.path === '/v1/checkout/sessions')!;
      const portal = s.services.config.publicPortalUrl;
      expect(sent.body.get('success_url')).toBe(`${portal}/portal/licenses?checkout=done`);
      expect(sent.body.get('cancel_url')).toBe(`${portal}/portal/licenses?checkout=cancelled`);
      expect(sent.body.get('subscription_data[metadata][license_id]')).toBe(license.id);
      // Return addresses are not the caller's to choose.
      const redirect = await owner.call('POST', 'billing/checkout', {
        licenseId: license.id,
        plan: 'pro',
        successUrl: 'https://evil.example/',
      });
      expect(redirect.status).toBe(400);
    } finally {
      await s.close();
      await stripe.close();
    }
  });
});

describe('Settings → Destinations over the portal API', () => {
  it('owners manage and see the credential’s last four; viewers see name, status and last delivery only', async () => {
    const { account } = await t.seed.firm();
    const other = await t.seed.firm();
    const owner = await portalCaller(t, account.id, 'owner');
    const viewer = await portalCaller(t, account.id, 'viewer');
    const stranger = await portalCaller(t, other.account.id, 'owner');
    const created = await owner.call('POST', 'destinations', {
      vendor: 'hubspot',
      credential: 'pat-na1-abcdefgh1234',
      settings: { portalId: '62515', formGuid: '78c2891f-ebdd-44c0-bd94-15c012bbbfbf' },
      name: 'Web form',
    });
    expect(created.status).toBe(200);
    const id = created.body.destination.id as string;
    expect(JSON.stringify(created.body)).not.toContain('pat-na1-abcdefgh1234');
    expect((await owner.call('POST', `destinations/${id}/test`)).status).toBe(200);

    const mine = await owner.call('GET', 'destinations');
    expect(mine.body.canManage).toBe(true);
    expect(mine.body.data[0]).toMatchObject({ id, credentialLast4: '1234', settings: { portalId: '62515' } });
    expect(mine.body.vendors.map((v: { vendor: string }) => v.vendor)).toEqual([
      'clio-grow',
      'hubspot',
      'salesforce',
      'wealthbox',
    ]);

    const seen = await viewer.call('GET', 'destinations');
    expect(seen.body.canManage).toBe(false);
    expect(seen.body.vendors).toEqual([]);
    expect(Object.keys(seen.body.data[0]).sort()).toEqual(
      ['disabledReason', 'id', 'label', 'lastDelivery', 'name', 'status', 'vendor'].sort(),
    );
    expect(seen.body.data[0].lastDelivery).toMatchObject({ status: 'pending', test: true });
    expect((await viewer.call('GET', `destinations/${id}/deliveries`)).status).toBe(403);
    // Nor through the webhooks' log, which viewers may read.
    expect((await viewer.call('GET', `webhooks/${id}/deliveries`)).status).toBe(404);
    expect((await viewer.call('PATCH', `destinations/${id}`, { enabled: false })).status).toBe(403);

    // Another firm's destination does not exist for this firm.
    expect((await stranger.call('PATCH', `destinations/${id}`, { enabled: false })).status).toBe(404);
    expect((await stranger.call('GET', `destinations/${id}/deliveries`)).status).toBe(404);
    expect((await stranger.call('GET', 'destinations')).body.data).toEqual([]);

    expect(
      (await owner.call('PATCH', `destinations/${id}`, { enabled: false })).body.destination.status,
    ).toBe('disabled');
    const activity = await owner.call('GET', 'activity?kind=settings');
    expect(JSON.stringify(activity.body)).toContain('destination.disabled');
  });
});
