import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../db/engine/schema.ts';
import { findAccountById } from '../../db/repos/accounts-repo.ts';
import { showLicense } from '../../domain/licensing/lifecycle.ts';
import { createTestDatabase } from '../../test-support/db.ts';
import { type FakeStripe, startFakeStripe } from '../../test-support/fake-stripe.ts';
import { createTestContext, TEST_NOW, type TestContext } from '../../test-support/services.ts';

const DAY = 86_400;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
const day = (seconds: number) => iso(seconds).slice(0, 10);

let t: TestContext;
let stripe: FakeStripe;
const nowS = () => Math.floor(t.clock.now().getTime() / 1000);

beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await createTestContext(
    {
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_API_BASE: stripe.url,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    },
    await createTestDatabase(),
  );
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

async function deliver(event: { payload: string; header: string }) {
  const res = await t.app.request('/v1/webhooks/stripe', {
    method: 'POST',
    body: event.payload,
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': event.header },
  });
  return { status: res.status, body: await res.json() };
}

const send = (type: string, object: Record<string, unknown>) => deliver(stripe.event(type, object, nowS()));

async function licenseShown(licenseId: string) {
  return (await showLicense(t.services.licensing, licenseId)).license;
}

async function trialFirm(seats = 2) {
  const firm = await t.seed.firm({ paidThrough: undefined, trialDays: 14, seats });
  return firm;
}

function withClock<T>(fn: () => Promise<T>) {
  return async () => {
    try {
      return await fn();
    } finally {
      t.clock.set(TEST_NOW);
    }
  };
}

describe('POST /v1/webhooks/stripe: signatures', () => {
  it('refuses a wrong secret, a changed body, a missing header and an old timestamp, recording nothing', async () => {
    const good = stripe.event('invoice.paid', { id: 'in_x', object: 'invoice' }, nowS());
    const forged = Stripe.webhooks.generateTestHeaderString({
      payload: good.payload,
      secret: 'whsec_someone_else',
      timestamp: nowS(),
    });
    const old = stripe.event('invoice.paid', { id: 'in_x', object: 'invoice' }, nowS() - 3600);
    for (const attempt of [
      { payload: good.payload, header: forged },
      { payload: good.payload.replace('in_x', 'in_y'), header: good.header },
      { payload: good.payload, header: '' },
      old,
    ]) {
      const res = await deliver(attempt);
      expect({ status: res.status, code: res.body.error?.code }).toEqual({
        status: 400,
        code: 'INVALID_SIGNATURE',
      });
    }
    // The good one still applies afterwards (nothing was recorded for its id).
    expect((await deliver(good)).body).toMatchObject({ received: true, outcome: 'ignored' });
  });

  it('holds the five-minute tolerance both ways: a signature dated in the future is refused too', async () => {
    const object = { id: 'in_future', object: 'invoice' };
    // Signed an hour ahead (a captured event replayed later, or a forger's clock): refused.
    const ahead = await deliver(stripe.event('invoice.paid', object, nowS() + 3600));
    expect({ status: ahead.status, code: ahead.body.error?.code }).toEqual({
      status: 400,
      code: 'INVALID_SIGNATURE',
    });
    // Within the tolerance either way, as clocks drift: accepted.
    expect((await deliver(stripe.event('invoice.paid', object, nowS() + 240))).status).toBe(200);
    expect((await deliver(stripe.event('invoice.paid', object, nowS() - 240))).status).toBe(200);
  });
});

describe('POST /v1/webhooks/stripe: subscription lifecycle', () => {
  it(
    'new subscription → active; renewal → later paidThrough; replayed and reordered events change nothing',
    withClock(async () => {
      const firm = await trialFirm();
      const pro = stripe.price('pro');
      const start = nowS();
      const { subscription, invoice } = stripe.subscribe({
        customer: 'cus_new1',
        price: pro,
        licenseId: firm.license.id,
        start,
      });
      const created = stripe.event('customer.subscription.created', subscription, nowS());
      expect((await deliver(created)).body).toMatchObject({ outcome: 'applied', licenseId: firm.license.id });
      const paid = await send('invoice.paid', invoice);
      expect(paid.body.outcome).toBe('unchanged');

      let license = await licenseShown(firm.license.id);
      expect(license).toMatchObject({
        status: 'active',
        plan: 'pro',
        seats: 3,
        paidThrough: iso(start + 30 * DAY),
        renewsAt: iso(start + 30 * DAY),
        cancelAt: null,
        stripeSubscriptionId: subscription.id,
        next: `Renews on ${day(start + 30 * DAY)}.`,
      });
      expect((await findAccountById(t.database.db, firm.account.id))?.stripeCustomerId).toBe('cus_new1');

      // Renewal a month later.
      t.clock.set(iso(start + 30 * DAY));
      const renewal = stripe.renew(String(subscription.id), true);
      const renewed = stripe.event('invoice.paid', renewal.invoice, nowS());
      expect((await deliver(renewed)).body.outcome).toBe('applied');
      license = await licenseShown(firm.license.id);
      expect(license).toMatchObject({ status: 'active', paidThrough: iso(start + 60 * DAY) });

      // A replay is a no-op; the old "created" event arriving late cannot roll the date back.
      const audits = async () =>
        (await t.database.db.select().from(auditEvents)).filter((a) => a.subject === firm.license.id).length;
      const before = await audits();
      const replay = await deliver(renewed);
      expect(replay.body).toMatchObject({ outcome: 'duplicate' });
      // Stripe signs every delivery afresh; the same event id delivered again a month later.
      const redelivered = stripe.event('customer.subscription.created', subscription, nowS(), created.id);
      expect((await deliver(redelivered)).body.outcome).toBe('duplicate');
      // An "updated" event made before the renewal, delivered after it, carries the old period.
      const oldSnapshot = JSON.parse(created.payload).data.object;
      expect(oldSnapshot.items.data[0].current_period_end).toBe(start + 30 * DAY);
      const lateCopy = stripe.event('customer.subscription.updated', oldSnapshot, nowS());
      expect((await deliver(lateCopy)).body.outcome).toBe('unchanged');
      expect((await licenseShown(firm.license.id)).paidThrough).toBe(iso(start + 60 * DAY));
      expect(await audits()).toBe(before);
    }),
  );

  it(
    'failed payment → grace → expired on the dates, and Stripe giving up keeps it expired',
    withClock(async () => {
      const firm = await trialFirm();
      const start = nowS();
      const { subscription } = stripe.subscribe({
        customer: 'cus_fail',
        price: stripe.price('starter'),
        licenseId: firm.license.id,
        start,
      });
      await send('customer.subscription.created', subscription);
      const periodEnd = start + 30 * DAY;
      t.clock.set(iso(periodEnd + 3600));
      const failed = stripe.renew(String(subscription.id), false);
      expect((await send('invoice.payment_failed', failed.invoice)).body.outcome).toBe('applied');

      let license = await licenseShown(firm.license.id);
      expect(license).toMatchObject({
        status: 'grace',
        paidThrough: iso(periodEnd),
        graceEndsAt: iso(periodEnd + 7 * DAY),
        next: `Payment is overdue since ${day(periodEnd)}; grace ends ${day(periodEnd + 7 * DAY)}; widgets stop then.`,
      });
      const site = await (
        await t.json('/v1/api/licenses/activate', { licenseKey: firm.licenseKey, siteDomain: 'smithlaw.com' })
      ).json();
      const status = await (await t.get('/v1/api/licenses/status', site.accessJwt)).json();
      expect(status).toMatchObject({ status: 'grace', next: license.next });
      expect(status.renewsAt).toBeUndefined();

      t.clock.set(iso(periodEnd + 7 * DAY));
      expect((await licenseShown(firm.license.id)).status).toBe('expired');
      const gaveUp = stripe.giveUp(String(subscription.id), nowS());
      expect((await send('customer.subscription.deleted', gaveUp)).body.outcome).toBe('applied');
      license = await licenseShown(firm.license.id);
      expect(license).toMatchObject({
        status: 'expired',
        paidThrough: iso(periodEnd),
        cancelAt: iso(nowS()),
      });
    }),
  );

  it(
    'cancel at period end: no renewal, status says when widgets stop, then grace and expiry',
    withClock(async () => {
      const firm = await trialFirm();
      const start = nowS();
      const { subscription } = stripe.subscribe({
        customer: 'cus_cancel',
        price: stripe.price('agency'),
        licenseId: firm.license.id,
        start,
      });
      await send('customer.subscription.created', subscription);
      const end = start + 30 * DAY;
      t.clock.set(iso(start + 5 * DAY));
      const cancelled = stripe.cancel(String(subscription.id), { atPeriodEnd: true, at: nowS() });
      expect((await send('customer.subscription.updated', cancelled)).body.outcome).toBe('applied');
      let license = await licenseShown(firm.license.id);
      expect(license).toMatchObject({
        status: 'active',
        renewsAt: null,
        cancelAt: iso(end),
        next: `Cancelled: paid through ${day(end)}, no renewal; grace ends ${day(end + 7 * DAY)}; widgets stop then.`,
      });

      t.clock.set(iso(end));
      await send('customer.subscription.deleted', stripe.endAtPeriodEnd(String(subscription.id)));
      license = await licenseShown(firm.license.id);
      expect(license).toMatchObject({ status: 'grace', paidThrough: iso(end), cancelAt: iso(end) });
      t.clock.set(iso(end + 7 * DAY));
      expect((await licenseShown(firm.license.id)).status).toBe('expired');
    }),
  );

  it('cancel now: paid through the moment it ended, then grace', async () => {
    const firm = await trialFirm();
    const start = nowS();
    const { subscription } = stripe.subscribe({
      customer: 'cus_now',
      price: stripe.price('pro'),
      licenseId: firm.license.id,
      start,
    });
    await send('customer.subscription.created', subscription);
    const ended = stripe.cancel(String(subscription.id), { atPeriodEnd: false, at: start + DAY });
    await send('customer.subscription.deleted', ended);
    expect(await licenseShown(firm.license.id)).toMatchObject({
      paidThrough: iso(start + DAY),
      renewsAt: null,
      cancelAt: iso(start + DAY),
    });
  });

  it('a quantity below the seats in use goes over seat: existing sites keep working, new ones are refused', async () => {
    const firm = await t.seed.firm({ seats: 2, domains: ['smithlaw.com', '*.smithlaw.com'] });
    const one = await (
      await t.json('/v1/api/licenses/activate', { licenseKey: firm.licenseKey, siteDomain: 'smithlaw.com' })
    ).json();
    await t.json('/v1/api/licenses/activate', {
      licenseKey: firm.licenseKey,
      siteDomain: 'blog.smithlaw.com',
    });
    const perSeat = stripe.price('starter', { seats: '1' });
    const { subscription } = stripe.subscribe({
      customer: 'cus_seats',
      price: perSeat,
      quantity: 2,
      licenseId: firm.license.id,
      start: nowS(),
    });
    await send('customer.subscription.created', subscription);
    expect(await licenseShown(firm.license.id)).toMatchObject({ plan: 'starter', seats: 2, overSeat: false });

    const reduced = stripe.update(String(subscription.id), { quantity: 1 });
    expect((await send('customer.subscription.updated', reduced)).body.outcome).toBe('applied');
    const license = await licenseShown(firm.license.id);
    expect(license).toMatchObject({ seats: 1, seatsUsed: 2, overSeat: true });
    expect(license.next).toContain('new sites are refused until 1 is released');

    expect((await t.get('/v1/api/licenses/status', one.accessJwt)).status).toBe(200);
    const again = await t.json('/v1/api/licenses/activate', {
      licenseKey: firm.licenseKey,
      siteDomain: 'smithlaw.com',
    });
    expect(again.status).toBe(200);
    const refused = await t.json('/v1/api/licenses/activate', {
      licenseKey: firm.licenseKey,
      siteDomain: 'shop.smithlaw.com',
    });
    expect(refused.status).toBe(409);
    const status = await (await t.get('/v1/api/licenses/status', (await again.json()).accessJwt)).json();
    expect(status).toMatchObject({ overSeat: true, seats: 1, seatsUsed: 2 });

    const upgraded = stripe.update(String(subscription.id), { price: stripe.price('pro'), quantity: 1 });
    await send('customer.subscription.updated', upgraded);
    expect(await licenseShown(firm.license.id)).toMatchObject({ plan: 'pro', seats: 3, overSeat: false });
  });

  it('ignores subscriptions without a license and those of another customer (200, recorded once)', async () => {
    const orphan = stripe.subscribe({ customer: 'cus_orphan', price: stripe.price('pro'), start: nowS() });
    expect((await send('customer.subscription.created', orphan.subscription)).body).toMatchObject({
      outcome: 'ignored',
    });
    const firm = await trialFirm();
    await send(
      'customer.subscription.created',
      stripe.subscribe({
        customer: 'cus_owner',
        price: stripe.price('pro'),
        licenseId: firm.license.id,
        start: nowS(),
      }).subscription,
    );
    const intruder = stripe.subscribe({
      customer: 'cus_intruder',
      price: stripe.price('agency'),
      licenseId: firm.license.id,
      start: nowS(),
    });
    expect((await send('customer.subscription.created', intruder.subscription)).body).toMatchObject({
      outcome: 'ignored',
      reason: 'the subscription belongs to another Stripe customer',
    });
    expect((await licenseShown(firm.license.id)).plan).toBe('pro');
    const unrelated = await send('charge.succeeded', { id: 'ch_1', object: 'charge' });
    expect(unrelated.body).toMatchObject({ outcome: 'ignored', reason: 'not a subscription event' });
  });
});

describe('POST /v1/api/billing/checkout', () => {
  it('returns a Checkout URL whose subscription names the license, and its completion activates it', async () => {
    const firm = await trialFirm();
    const { apiKey } = await t.seed.apiKey(firm.account.id);
    const price = stripe.price('pro');
    const res = await t.json(
      '/v1/api/billing/checkout',
      { plan: 'pro', successUrl: 'https://smithlaw.com/paid', cancelUrl: 'https://smithlaw.com/billing' },
      { authorization: `Bearer ${apiKey}` },
    );
    expect(res.status).toBe(200);
    const { url, id } = await res.json();
    expect(url).toBe(`https://checkout.stripe.test/pay/${id}`);
    const session = stripe.sessions.get(id)!;
    expect(session).toMatchObject({
      mode: 'subscription',
      client_reference_id: firm.license.id,
      subscription_metadata: { license_id: firm.license.id },
      line_items: { price: price.id, quantity: 1 },
    });
    const customer = (await findAccountById(t.database.db, firm.account.id))?.stripeCustomerId;
    expect(session.customer).toBe(customer);

    const done = stripe.completeCheckout(id, nowS());
    expect((await send('checkout.session.completed', done.session)).body.outcome).toBe('applied');
    expect(await licenseShown(firm.license.id)).toMatchObject({ status: 'active', plan: 'pro' });
  });

  it('refuses unknown plans and licenses of other accounts', async () => {
    const firm = await trialFirm();
    const other = await trialFirm();
    const { apiKey } = await t.seed.apiKey(firm.account.id);
    const body = { plan: 'pro', successUrl: 'https://a.com/ok', cancelUrl: 'https://a.com/no' };
    const auth = { authorization: `Bearer ${apiKey}` };
    expect((await t.json('/v1/api/billing/checkout', { ...body, plan: 'gold' }, auth)).status).toBe(400);
    const foreign = await t.json('/v1/api/billing/checkout', { ...body, licenseId: other.license.id }, auth);
    expect(foreign.status).toBe(404);
  });
});

describe('without Stripe configured', () => {
  let bare: TestContext;
  beforeAll(async () => {
    bare = await createTestContext();
  });
  afterAll(async () => {
    await bare.close();
  });

  it('checkout and the webhook answer 501 BILLING_NOT_CONFIGURED in the standard shape', async () => {
    const firm = await bare.seed.firm();
    const { apiKey } = await bare.seed.apiKey(firm.account.id);
    const res = await bare.json(
      '/v1/api/billing/checkout',
      { plan: 'pro', successUrl: 'https://a.com/ok', cancelUrl: 'https://a.com/no' },
      { authorization: `Bearer ${apiKey}` },
    );
    expect(res.status).toBe(501);
    expect(await res.json()).toEqual({
      error: { code: 'BILLING_NOT_CONFIGURED', message: expect.any(String), status: 501 },
    });
    const hook = await bare.app.request('/v1/webhooks/stripe', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
    });
    expect(hook.status).toBe(501);
  });
});
