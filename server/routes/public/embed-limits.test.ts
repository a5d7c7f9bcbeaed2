import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

// RATE_LIMIT_SCALE=0.1: calculations 6/min, leads 1/min, default 12/min, tight 1/min.
// The pro plan's ceilings are lowered so tests cross them quickly.
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({
    RATE_LIMIT_SCALE: '0.1',
    TRUST_PROXY: 'true',
    PLANS: JSON.stringify({ pro: { sessionsPerMinute: 4, leadsPerDay: 2 } }),
  });
});
afterAll(() => t.close());

const ORIGIN = 'https://smithlaw.com';
let ipCounter = 0;
const freshIp = () => `198.18.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;
const from = (ip: string, extra: Record<string, string> = {}) => ({ 'x-forwarded-for': ip, ...extra });

const openSession = (publishableKey: string, ip: string) =>
  t.json('/v1/api/license/activate', { licenseKey: publishableKey }, from(ip, { origin: ORIGIN }));
const tokenFrom = async (publishableKey: string, ip: string) => {
  const res = await openSession(publishableKey, ip);
  expect(res.status).toBe(200);
  return (await res.json()).token as string;
};
const calc = (token: string, ip: string) =>
  t.json(
    '/v1/api/calc/estimate',
    { calculator: 'rmd', inputs: { balance: 100_000, age: 80 } },
    from(ip, { authorization: `Bearer ${token}` }),
  );
const audits = async (action: string, subject: string) =>
  (
    (await t.database.db.execute(
      `select id from audit_events where action = '${action}' and subject = '${subject}'`,
    )) as unknown as { rows: unknown[] }
  ).rows.length;

describe('embed limits keyed by license and client IP', () => {
  it('attack: minting a new token for every calculation buys nothing', async () => {
    const firm = await t.seed.firm({ plan: 'agency' });
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const token = await tokenFrom(firm.publishableKey, freshIp());
      statuses.push((await calc(token, ip)).status);
    }
    expect(statuses.slice(0, 6).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(6)).toEqual([429, 429]);
    // Another visitor of the same firm keeps a budget of their own.
    expect((await calc(await tokenFrom(firm.publishableKey, freshIp()), freshIp())).status).toBe(200);
  });

  it('counts a whole IPv6 /64 as one client', async () => {
    const firm = await t.seed.firm({ plan: 'agency' });
    const token = await tokenFrom(firm.publishableKey, freshIp());
    const statuses: number[] = [];
    for (let i = 1; i <= 7; i++) statuses.push((await calc(token, `2001:db8:7:7::${i.toString(16)}`)).status);
    expect(statuses.at(-1)).toBe(429);
    expect((await calc(token, '2001:db8:7:8::1')).status).toBe(200);
  });
});

describe('per-license plan ceilings', () => {
  it('crossing sessions per minute tightens per-IP limits for that license only, and writes one alert', async () => {
    const firm = await t.seed.firm();
    const other = await t.seed.firm();
    for (let i = 0; i < 4; i++) expect((await openSession(firm.publishableKey, freshIp())).status).toBe(200);
    // Over the ceiling: a new visitor still gets a session (never locked out)…
    const visitor = freshIp();
    const first = await openSession(firm.publishableKey, visitor);
    expect(first.status).toBe(200);
    const token = (await first.json()).token as string;
    expect((await calc(token, visitor)).status).toBe(429);
    // …but a second one from the same IP this minute is refused, and its calculations are tight too.
    expect((await openSession(firm.publishableKey, visitor)).status).toBe(429);
    expect(await audits('ceiling.sessions_per_minute', firm.license.id)).toBe(1);
    expect((await openSession(other.publishableKey, visitor)).status).toBe(200);
  });

  it('leads over the daily quota stay live (alerts grouped); spam signals hold a lead, releasable; one alert', async () => {
    const firm = await t.seed.firm();
    const { apiKey } = await t.seed.apiKey(firm.account.id);
    const ids: string[] = [];
    const names = ['Visitor 0', 'Visitor 1', 'Visitor 2', 'Visit https://spam.example'];
    for (let i = 0; i < names.length; i++) {
      const ip = freshIp();
      const token = await tokenFrom(firm.publishableKey, ip);
      const res = await t.json(
        '/v1/api/leads',
        { calculator: 'rmd', name: names[i], email: `v${i}@example.com`, state: 'NY', consent: true },
        from(ip, {
          authorization: `Bearer ${token}`,
          'idempotency-key': `quota-key-${firm.license.id}-${i}`,
        }),
      );
      expect(res.status).toBe(201);
      ids.push((await res.json()).leadId);
    }
    // Past the daily figure a lead is still live; only the one with a link in its name is held.
    const live = await (await t.get('/v1/api/leads', apiKey)).json();
    expect(live.data.map((l: { leadId: string }) => l.leadId).sort()).toEqual(ids.slice(0, 3).sort());
    const list = await (await t.get('/v1/api/leads?includeTest=true', apiKey)).json();
    const byId = new Map(
      list.data.map((l: { leadId: string; quarantineReasons: string[] }) => [l.leadId, l.quarantineReasons]),
    );
    // (freshIp's addresses share one /24, so the fourth is also that network's fourth this hour.)
    expect(ids.map((id) => byId.get(id))).toEqual([[], [], [], ['network_burst', 'link_in_name']]);
    expect(await audits('ceiling.leads_per_day', firm.license.id)).toBe(1);
    const held = ids[3];

    const released = await t.app.request(`/v1/api/leads/${held}/release`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(released.status).toBe(200);
    expect((await released.json()).quarantined).toBe(false);
    const again = await t.app.request(`/v1/api/leads/${held}/release`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(again.status).toBe(404);
  });
});
