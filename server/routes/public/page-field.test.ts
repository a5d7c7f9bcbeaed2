import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculationResults, leads } from '../../db/engine/schema.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const ORIGIN = 'https://smithlaw.com';

async function embedToken(origin = ORIGIN) {
  const f = await t.seed.firm();
  return (
    await (await t.json('/v1/api/license/activate', { licenseKey: f.publishableKey }, { origin })).json()
  ).token as string;
}

const lead = (page: unknown) => ({
  calculator: 'estate-tax',
  name: 'Zoë Ødegård',
  email: 'zoe@example.com',
  state: 'NY',
  consent: true,
  ...(page === undefined ? {} : { page }),
});
const estimate = (page: unknown) => ({
  calculator: 'estate-tax',
  inputs: { estateValue: 8_000_000, state: 'NY' },
  ...(page === undefined ? {} : { page }),
});

describe('`page` on calculations and leads: where the widget sat, as the page reported it', () => {
  it.each([
    ['https://smithlaw.com/estate-planning', 'https://smithlaw.com/estate-planning', ORIGIN],
    [
      'https://smithlaw.com/estate?utm_source=mail&email=zoe@example.com#calc',
      'https://smithlaw.com/estate',
      ORIGIN,
    ],
    ['http://smithlaw.com:8080/', 'http://smithlaw.com:8080/', 'http://smithlaw.com:8080'],
    [undefined, null, ORIGIN],
  ])('stores %s as %s on the result and on the lead (session on %s)', async (page, stored, origin) => {
    const embed = await embedToken(origin);
    const auth = { authorization: `Bearer ${embed}` };
    const calc = await t.json('/v1/api/calc/estimate', estimate(page), auth);
    expect(calc.status).toBe(200);
    const { resultId } = await calc.json();
    const [result] = await t.database.db
      .select({ page: calculationResults.page })
      .from(calculationResults)
      .where(eq(calculationResults.id, resultId));
    expect(result?.page).toBe(stored);

    const res = await t.json('/v1/api/leads', lead(page), {
      ...auth,
      'idempotency-key': `page-${resultId}`,
    });
    expect(res.status).toBe(201);
    const { leadId } = await res.json();
    const [row] = await t.database.db.select({ page: leads.page }).from(leads).where(eq(leads.id, leadId));
    expect(row?.page).toBe(stored);
  });

  it.each([
    ['javascript:alert(1)'],
    ['not a url'],
    ['ftp://smithlaw.com/file'],
    [`https://smithlaw.com/${'a'.repeat(2048)}`],
    [42],
  ])('refuses page %s with 400 INVALID_REQUEST on both routes', async (page) => {
    const embed = await embedToken();
    const auth = { authorization: `Bearer ${embed}` };
    const calc = await t.json('/v1/api/calc/estimate', estimate(page), auth);
    expect(calc.status).toBe(400);
    expect((await calc.json()).error).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
    const res = await t.json('/v1/api/leads', lead(page), { ...auth, 'idempotency-key': 'page-refused-1' });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
  });
});

describe('`page` must be on the embed session’s origin: consent evidence bound to its page', () => {
  it.each([
    ['another firm’s site', 'https://competitor-firm.example/estate-planning'],
    ['another scheme', 'http://smithlaw.com/estate-planning'],
    ['another port', 'https://smithlaw.com:8443/estate-planning'],
    ['a subdomain', 'https://evil.smithlaw.com/estate-planning'],
    ['a look-alike host', 'https://smithlaw.com.competitor-firm.example/estate-planning'],
  ])('drops %s from the result and the lead, and the lead says so (pageVerified: false)', async (_, page) => {
    const f = await t.seed.firm();
    const embed = await t.embedSession(f.publishableKey, ORIGIN);
    const { apiKey } = await t.seed.apiKey(f.account.id);
    const auth = { authorization: `Bearer ${embed}` };
    const calc = await t.json('/v1/api/calc/estimate', estimate(page), auth);
    expect(calc.status).toBe(200);
    const { resultId } = await calc.json();
    const [result] = await t.database.db
      .select({ page: calculationResults.page })
      .from(calculationResults)
      .where(eq(calculationResults.id, resultId));
    expect(result?.page).toBeNull();

    const res = await t.json('/v1/api/leads', lead(page), {
      ...auth,
      'idempotency-key': `foreign-${resultId}`,
    });
    expect(res.status).toBe(201);
    const { leadId } = await res.json();
    const view = await (await t.get(`/v1/api/leads/${leadId}`, apiKey)).json();
    expect(view.consent.page).toBeNull();
    expect(view.consent.pageVerified).toBe(false);
  });

  it('keeps a page on the session’s origin (pageVerified: true), and says null when none was reported', async () => {
    const f = await t.seed.firm();
    const embed = await t.embedSession(f.publishableKey, ORIGIN);
    const { apiKey } = await t.seed.apiKey(f.account.id);
    const auth = { authorization: `Bearer ${embed}`, 'idempotency-key': 'own-page-1' };
    const own = await t.json('/v1/api/leads', lead('https://smithlaw.com/estate-planning'), auth);
    const ownView = await (await t.get(`/v1/api/leads/${(await own.json()).leadId}`, apiKey)).json();
    expect(ownView.consent).toMatchObject({
      page: 'https://smithlaw.com/estate-planning',
      pageVerified: true,
    });
    const none = await t.json('/v1/api/leads', lead(undefined), { ...auth, 'idempotency-key': 'own-page-2' });
    const noneView = await (await t.get(`/v1/api/leads/${(await none.json()).leadId}`, apiKey)).json();
    expect(noneView.consent).toMatchObject({ page: null, pageVerified: null });
  });
});
