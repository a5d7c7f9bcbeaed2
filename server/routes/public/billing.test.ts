import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test-support/db.ts';
import { type FakeStripe, startFakeStripe } from '../../test-support/fake-stripe.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

const portal = (t: TestContext, token: string, body: unknown = {}) =>
  t.json('/v1/api/billing/customer-portal', body, { authorization: `Bearer ${token}` });

describe('billing portal without Stripe (built-in page)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('gives an admin a signed link to a server-rendered page; site tokens are refused', async () => {
    const firm = await t.seed.firm({ seats: 3 });
    const site = await (
      await t.json('/v1/api/licenses/activate', { licenseKey: firm.licenseKey, siteDomain: 'smithlaw.com' })
    ).json();
    const refused = await portal(t, site.accessJwt);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe('FORBIDDEN');

    const { apiKey } = await t.seed.apiKey(firm.account.id);
    const res = await portal(t, apiKey, { returnUrl: 'https://smithlaw.com/admin' });
    expect(res.status).toBe(200);
    const { url } = await res.json();
    const link = new URL(url);
    expect(link.pathname).toBe('/billing/portal');
    const page = await t.app.request(link.pathname + link.search);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Smith &amp; Søn Estate Law');
    expect(html).toContain('active');
    expect(html).toContain('2026-12-31');
    expect(html).toContain(
      'Paid through 2026-12-31; unless renewed, grace ends 2027-01-07 and widgets stop then.',
    );
    expect(html).toContain('https://smithlaw.com/admin');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");

    t.clock.advance(11 * 60_000);
    expect((await t.app.request(link.pathname + link.search)).status).toBe(401);
    expect((await t.app.request('/billing/portal?token=forged')).status).toBe(401);
  });

  it('refuses a return URL that is not http(s)', async () => {
    const firm = await t.seed.firm();
    const { apiKey } = await t.seed.apiKey(firm.account.id);
    expect((await portal(t, apiKey, { returnUrl: 'javascript:alert(1)' })).status).toBe(400);
  });
});

describe('billing portal with Stripe', () => {
  let t: TestContext;
  let stripe: FakeStripe;
  beforeAll(async () => {
    stripe = await startFakeStripe();
    t = await createTestContext(
      { STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_API_BASE: stripe.url },
      await createTestDatabase(),
    );
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  it('creates the customer once, then a portal session for it', async () => {
    const firm = await t.seed.firm();
    const { apiKey } = await t.seed.apiKey(firm.account.id);
    const res = await portal(t, apiKey, { returnUrl: 'https://smithlaw.com/admin' });
    expect(res.status).toBe(200);
    const { url } = await res.json();
    expect(url).toMatch(/^https:\/\/billing\.stripe\.test\/session\/bps_/);
    expect(stripe.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /v1/customers',
      'POST /v1/billing_portal/sessions',
    ]);
    expect(stripe.seen[0]!.auth).toBe('Bearer sk_test_fake');
    expect(stripe.seen[0]!.body.get('metadata[svc_account_id]')).toBe(firm.account.id);
    const [customerId] = [...stripe.customers.keys()];
    expect(stripe.seen[1]!.body.get('customer')).toBe(customerId);
    expect(stripe.seen[1]!.body.get('return_url')).toBe('https://smithlaw.com/admin');

    await portal(t, apiKey);
    expect(stripe.seen.map((s) => s.path).filter((p) => p === '/v1/customers')).toHaveLength(1);
  });
});
