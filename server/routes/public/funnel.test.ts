import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoLeads } from '../../domain/demo/leads.ts';
import { createFunnelCounter } from '../../domain/funnel/counter.ts';
import { funnelPage, OTHER_PAGES, PAGES_PER_DAY } from '../../domain/funnel/pages.ts';
import { funnelPeriod } from '../../domain/funnel/report.ts';
import { createTestDatabase } from '../../test-support/db.ts';
import { needs } from '../../test-support/needs.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

/**
 * The funnel end to end in process: scripted traffic from a firm's allowed pages, a second page,
 * test traffic from a development host, a held lead, a lead marked converted; then the same counts
 * from REST and from MCP's get_directory_stats (the portal's Overview reads the same report).
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
let keys = 0;

async function sessionAt(publishableKey: string, origin: string) {
  const res = await t.json('/v1/api/license/activate', { licenseKey: publishableKey }, { origin });
  expect(res.status).toBe(200);
  return (await res.json()).token as string;
}

const view = (token: string, calculator: string, page?: string) =>
  t.json('/v1/api/views', { calculator, ...(page ? { page } : {}) }, bearer(token));

async function calculate(token: string, page: string) {
  const res = await t.json(
    '/v1/api/calc/estimate',
    { calculator: 'rmd', inputs: { balance: 500_000, age: 75 }, page },
    bearer(token),
  );
  expect(res.status).toBe(200);
  return (await res.json()).resultId as string;
}

async function lead(token: string, page: string, extra: Record<string, unknown> = {}) {
  const res = await t.json(
    '/v1/api/leads',
    {
      calculator: 'rmd',
      name: 'Ada Visitor',
      email: 'ada@example.com',
      state: 'NY',
      consent: true,
      page,
      ...extra,
    },
    { ...bearer(token), 'idempotency-key': `funnel-key-${keys++}` },
  );
  expect(res.status).toBe(201);
  return (await res.json()).leadId as string;
}

async function mcpStats(apiKey: string) {
  const res = await t.app.request('/v1/mcp', {
    method: 'POST',
    headers: { ...bearer(apiKey), 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_directory_stats', arguments: { windowDays: 30 } },
    }),
  });
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.result.isError, JSON.stringify(body.result.content)).toBeUndefined();
  return body.result.structuredContent;
}

describe('the funnel', () => {
  it('counts scripted traffic exactly, pages and test traffic apart, the same in REST and MCP', async () => {
    const firm = await t.seed.firm();
    const other = await t.seed.firm();
    const live = await sessionAt(firm.publishableKey, 'https://smithlaw.com');
    const dev = await sessionAt(firm.publishableKey, 'http://spam.localhost');
    const stranger = await sessionAt(other.publishableKey, 'https://smithlaw.com');
    const estate = 'https://smithlaw.com/estate-planning';
    const contact = 'https://smithlaw.com/contact';

    // Page one: 3 visitors' views, 2 calculations, 2 leads (one then converted); page two: 1 view,
    // 1 calculation, 1 lead.
    const visitors = [
      live,
      ...(await Promise.all([1, 2].map(() => sessionAt(firm.publishableKey, 'https://smithlaw.com')))),
    ];
    for (const [i, visitor] of visitors.entries())
      expect((await view(visitor, 'rmd', `${estate}?utm=${i}#x`)).status).toBe(204);
    expect((await view(live, 'rmd', contact)).status).toBe(204);
    // The same widget signalling again (a retry, a reloaded iframe, another query string): 204, not counted.
    expect((await view(live, 'rmd', `${estate}?again`)).status).toBe(204);
    expect((await view(live, 'rmd', contact)).status).toBe(204);
    await calculate(live, estate);
    await calculate(live, estate);
    await calculate(live, contact);
    const won = await lead(live, estate);
    await lead(live, estate);
    await lead(live, contact);
    // A foreign page is counted without a page; a lead without proof of work is held, apart.
    expect((await view(live, 'rmd', 'https://evil.example/x')).status).toBe(204);
    await lead(live, contact, { altcha: undefined });
    // Test traffic (a development host): apart.
    await view(dev, 'rmd', 'http://spam.localhost/');
    await calculate(dev, 'http://spam.localhost/');
    await lead(dev, 'http://spam.localhost/');
    // Another firm's traffic never shows.
    await view(stranger, 'rmd', estate);

    const { apiKey } = await t.seed.apiKey(firm.account.id, ['leads:read', 'leads:write']);
    const patched = await t.app.request(`/v1/api/leads/${won}`, {
      method: 'PATCH',
      headers: { ...bearer(apiKey), 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'converted' }),
    });
    expect(patched.status).toBe(200);

    const rest = await (await t.get('/v1/api/funnel', apiKey)).json();
    expect(rest.totals).toMatchObject({
      views: 5,
      calculations: 3,
      leads: 3,
      heldLeads: 1,
      contacted: 1,
      converted: 1,
      lost: 0,
      calculationRate: 0.6,
      leadRate: 1,
      conversionRate: 0.3333,
    });
    expect(rest.test).toEqual({ views: 1, calculations: 1, leads: 1 });
    const byPage = Object.fromEntries(rest.byPage.map((p: { page: string }) => [p.page, p]));
    expect(byPage[estate]).toMatchObject({ views: 3, calculations: 2, leads: 2, converted: 1 });
    expect(byPage[contact]).toMatchObject({
      views: 1,
      calculations: 1,
      leads: 1,
      heldLeads: 1,
      converted: 0,
    });
    expect(byPage['']).toMatchObject({ views: 1, calculations: 0, leads: 0 });
    expect(rest.byCalculator).toEqual([
      expect.objectContaining({
        calculator: 'rmd',
        name: expect.any(String),
        views: 5,
        leads: 3,
        converted: 1,
      }),
    ]);

    const mcp = await mcpStats(apiKey);
    expect(mcp.leadsInWindow).toBe(3);
    expect(mcp.funnel).toEqual(rest);

    // The other firm sees its own view only.
    const otherKey = (await t.seed.apiKey(other.account.id, ['leads:read'])).apiKey;
    const theirs = await (await t.get('/v1/api/funnel', otherKey)).json();
    expect(theirs.totals).toMatchObject({ views: 1, calculations: 0, leads: 0 });
  });

  it('answers a period by month or by dates, and refuses a bad one in the error shape', async () => {
    const firm = await t.seed.firm();
    const { apiKey } = await t.seed.apiKey(firm.account.id, ['leads:read']);
    const march = await (await t.get('/v1/api/funnel?month=2026-02', apiKey)).json();
    expect([march.from, march.to]).toEqual(['2026-02-01', '2026-02-28']);
    const range = await (
      await t.get('/v1/api/funnel?createdFrom=2026-01-01&createdTo=2026-02-01', apiKey)
    ).json();
    expect([range.from, range.to]).toEqual(['2026-01-01', '2026-01-31']);
    const bad = await t.get('/v1/api/funnel?month=2026-13', apiKey);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
    const scopeless = (await t.seed.apiKey(firm.account.id, ['webhooks:write' as never])).apiKey;
    expect((await t.get('/v1/api/funnel', scopeless)).status).toBe(403);
    const live = await sessionAt(firm.publishableKey, 'https://smithlaw.com');
    expect((await view(live, 'no-such-calculator')).status).toBe(400);
    expect((await t.get('/v1/api/funnel', live)).status).toBe(401);
  });

  it('masks visitor data in pages and caps a day at 200 pages per license', async () => {
    expect(funnelPage('https://firm.example/u/jane%40x.com/88123456/a1b2c3d4e5f6g7h8i9?q=1#f')).toBe(
      'https://firm.example/u/:email/:number/:token',
    );
    for (const kept of [
      'https://firm.example/estate-planning/new-york',
      'https://firm.example/blog/2026-estate-tax-changes',
      'https://firm.example/2026/03/01/probate',
    ])
      expect(funnelPage(kept)).toBe(kept);
    expect(
      funnelPage('https://firm.example/r/3f2b8c1e-9d4a-4b7e-8a1f-0c2d3e4f5a6b/x_Zk8Qp2Lm9Rt4Vw7Yb'),
    ).toBe('https://firm.example/r/:token/:token');
    expect(funnelPage('javascript:alert(1)')).toBe('');
    const firm = await t.seed.firm();
    const live = await sessionAt(firm.publishableKey, 'https://smithlaw.com');
    for (let i = 0; i < PAGES_PER_DAY + 5; i++) await view(live, 'rmd', `https://smithlaw.com/p${i}`);
    const { apiKey } = await t.seed.apiKey(firm.account.id, ['leads:read']);
    const funnel = await (await t.get('/v1/api/funnel', apiKey)).json();
    expect(funnel.byPage).toHaveLength(PAGES_PER_DAY + 1);
    expect(funnel.byPage.find((p: { page: string }) => p.page === OTHER_PAGES).views).toBe(5);
    expect(funnel.totals.views).toBe(PAGES_PER_DAY + 5);
  });

  it('demo seed: believable traffic, views above calculations above leads, pages that differ', async () => {
    const firm = await t.seed.firm();
    await seedDemoLeads(t.services.licensing, { accountId: firm.account.id, leads: 300, days: 30 });
    const { apiKey } = await t.seed.apiKey(firm.account.id, ['leads:read']);
    const { totals, byPage } = await (await t.get('/v1/api/funnel?createdFrom=2026-01-01', apiKey)).json();
    expect(totals.leads).toBe(300);
    expect(totals.calculations).toBeGreaterThan(2 * totals.leads);
    expect(totals.views).toBeGreaterThan(2 * totals.calculations);
    expect(totals.converted).toBeGreaterThan(0);
    expect(totals.contacted).toBeGreaterThan(totals.converted);
    expect(totals.conversionRate).toBeLessThan(1);
    const rates = byPage.map((p: { leads: number; views: number }) => p.leads / p.views);
    expect(byPage).toHaveLength(4);
    expect(Math.max(...rates)).toBeGreaterThan(3 * Math.min(...rates));
  });

  it('keeps counts a failed write could not store, and adds them at the next flush', async () => {
    const firm = await t.seed.firm();
    let broken = true;
    const db = new Proxy(t.database.db, {
      get(target, prop, receiver) {
        if (broken && prop === 'insert') throw new Error('database unreachable');
        return Reflect.get(target, prop, receiver);
      },
    });
    const counter = createFunnelCounter({ db, clock: t.clock });
    const event = {
      accountId: firm.account.id,
      licenseId: firm.license.id,
      calculator: 'rmd',
      page: null,
      test: false,
    };
    counter.add({ kind: 'view', ...event });
    counter.add({ kind: 'calculation', ...event });
    await expect(counter.flush()).rejects.toThrow(/unreachable/);
    counter.add({ kind: 'view', ...event });
    broken = false;
    await counter.stop();
    const { apiKey } = await t.seed.apiKey(firm.account.id, ['leads:read']);
    const funnel = await (await t.get('/v1/api/funnel', apiKey)).json();
    expect(funnel.totals).toMatchObject({ views: 2, calculations: 1, leads: 0 });
  });

  it('reads periods as whole UTC days', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    expect(funnelPeriod(now, {})).toEqual({ from: '2026-01-31', to: '2026-03-01' });
    expect(
      funnelPeriod(now, { createdFrom: '2026-02-10T23:00:00Z', createdTo: '2026-02-12T00:00:01Z' }),
    ).toEqual({
      from: '2026-02-10',
      to: '2026-02-12',
    });
    expect(() => funnelPeriod(now, { month: '2026-02', createdFrom: '2026-01-01' })).toThrow();
    expect(() => funnelPeriod(now, { createdFrom: '2024-01-01' })).toThrow(/366/);
  });
});

needs('redis').describe('one view per widget across instances sharing Redis (Redis)', () => {
  const redis = new Redis(process.env.REDIS_URL ?? '', { lazyConnect: true, maxRetriesPerRequest: 1 });
  const prefix = `svc-funnel-${randomBytes(6).toString('hex')}:`;
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('a widget signalling on both instances counts once; another widget of the session counts', async () => {
    // Two instances of the API on one database and one Redis (as behind a load balancer).
    const env = { REDIS_KEY_PREFIX: prefix, SECRET_KEY: randomBytes(32).toString('hex') };
    const database = await createTestDatabase();
    const a = await createTestContext(env, database, { redis });
    const b = await createTestContext(env, database, { redis });
    const firm = await a.seed.firm();
    const res = await a.json(
      '/v1/api/license/activate',
      { licenseKey: firm.publishableKey },
      { origin: 'https://smithlaw.com' },
    );
    const token = (await res.json()).token as string;
    const signal = (on: TestContext, calculator: string) =>
      on.json('/v1/api/views', { calculator, page: 'https://smithlaw.com/estate' }, bearer(token));
    for (const on of [a, b, b, a]) expect((await signal(on, 'rmd')).status).toBe(204);
    expect((await signal(b, 'estate-tax')).status).toBe(204);
    await b.services.licensing.funnel!.flush();
    const { apiKey } = await a.seed.apiKey(firm.account.id, ['leads:read']);
    const funnel = await (await a.get('/v1/api/funnel', apiKey)).json();
    expect(funnel.totals.views).toBe(2);
    expect(funnel.byCalculator.map((c: { views: number }) => c.views)).toEqual([1, 1]);
    await database.close();
  });
});
