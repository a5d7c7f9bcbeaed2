import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectCode, pkceChallenge } from '../../domain/activation/connect-codes.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const ORIGIN = 'https://smithlaw.com';

async function firmWithTokens() {
  const firm = await t.seed.firm();
  const embed = await t.embedSession(firm.publishableKey, ORIGIN);
  const site = await (
    await t.json('/v1/api/licenses/activate', { licenseKey: firm.licenseKey, siteDomain: 'smithlaw.com' })
  ).json();
  const verifier = 'v'.repeat(50);
  const { code } = await createConnectCode(t.services.licensing, {
    licenseId: firm.license.id,
    redirectUri: 'https://smithlaw.com/cb',
    codeChallenge: pkceChallenge(verifier),
    siteDomain: 'blog.smithlaw.com',
  });
  const admin = await (
    await t.json('/v1/api/licenses/exchange', {
      code,
      codeVerifier: verifier,
      redirectUri: 'https://smithlaw.com/cb',
      siteDomain: 'blog.smithlaw.com',
    })
  ).json();
  const { apiKey } = await t.seed.apiKey(firm.account.id);
  return { ...firm, embed, site: site.accessJwt as string, admin: admin.accessJwt as string, apiKey };
}

const lead = (overrides: Record<string, unknown> = {}) => ({
  calculator: 'estate-tax',
  name: 'Zoë Ødegård',
  email: 'zoe@example.com',
  phone: '+1 (555) 010-2030',
  state: 'NY',
  consent: true,
  consentText: 'I agree that Smith & Søn may contact me about my estate plan.',
  ...overrides,
});

const postLead = (token: string, key: string | undefined, body: unknown) =>
  t.json('/v1/api/leads', body, {
    authorization: `Bearer ${token}`,
    ...(key ? { 'idempotency-key': key } : {}),
  });

const listLeads = (token: string, query = '') => t.get(`/v1/api/leads${query}`, token);

describe('POST /v1/api/leads', () => {
  it('stores a lead once per idempotency key and replays the first answer', async () => {
    const f = await firmWithTokens();
    const first = await postLead(f.embed, 'key-00000001', lead());
    expect(first.status).toBe(201);
    const body = await first.json();
    expect(body).toMatchObject({ status: 'new', createdAt: '2026-03-01T12:00:00.000Z' });
    expect(body.leadId).toMatch(/^lead_/);
    const again = await postLead(f.embed, 'key-00000001', lead());
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(body);
    const page = await (await listLeads(f.apiKey)).json();
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).toMatchObject({
      leadId: body.leadId,
      name: 'Zoë Ødegård',
      email: 'zoe@example.com',
      status: 'new',
    });
  });

  it('refuses the same key with another body', async () => {
    const f = await firmWithTokens();
    await postLead(f.embed, 'key-00000002', lead());
    const res = await postLead(f.embed, 'key-00000002', lead({ name: 'Someone Else' }));
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe('IDEMPOTENCY_CONFLICT');
  });

  it('stores one lead when the same key races', async () => {
    const f = await firmWithTokens();
    const results = await Promise.all([1, 2, 3].map(() => postLead(f.embed, 'key-00000003', lead())));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    const ids = new Set(await Promise.all(results.map(async (r) => (await r.json()).leadId)));
    expect(ids.size).toBe(1);
    expect((await (await listLeads(f.apiKey)).json()).data).toHaveLength(1);
  });

  it('keeps keys 24 hours', async () => {
    const f = await firmWithTokens();
    const first = await (await postLead(f.embed, 'key-00000004', lead())).json();
    const start = t.clock.now();
    t.clock.advance(23 * 3_600_000);
    const fresh = (
      await (
        await t.json('/v1/api/license/activate', { licenseKey: f.publishableKey }, { origin: ORIGIN })
      ).json()
    ).token;
    expect((await (await postLead(fresh, 'key-00000004', lead())).json()).leadId).toBe(first.leadId);
    // After the 24 hours the key is free again: a new submission makes a new lead.
    t.clock.advance(2 * 3_600_000);
    const later = (
      await (
        await t.json('/v1/api/license/activate', { licenseKey: f.publishableKey }, { origin: ORIGIN })
      ).json()
    ).token;
    expect((await (await postLead(later, 'key-00000004', lead())).json()).leadId).not.toBe(first.leadId);
    t.clock.set(start);
  });

  it.each([
    ['no idempotency key', undefined, lead()],
    ['a bad email', 'key-00000005', lead({ email: 'not-an-email' })],
    ['no consent', 'key-00000006', lead({ consent: false })],
    ['no name', 'key-00000007', lead({ name: '' })],
    ['a bad state', 'key-00000008', lead({ state: 'New York' })],
  ])('refuses %s with 400', async (_name, key, body) => {
    const f = await firmWithTokens();
    const res = await postLead(f.embed, key, body);
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('INVALID_REQUEST');
  });

  it('drops honeypot submissions silently', async () => {
    const f = await firmWithTokens();
    const res = await postLead(f.embed, 'key-00000009', lead({ website: 'http://spam.example' }));
    expect(res.status).toBe(201);
    expect((await (await listLeads(f.apiKey)).json()).data).toHaveLength(0);
  });

  it('takes only embed tokens', async () => {
    const f = await firmWithTokens();
    for (const token of [f.site, f.admin, f.apiKey]) {
      expect((await postLead(token, 'key-00000010', lead())).status).toBe(401);
    }
  });
});

describe('GET and PATCH /v1/api/leads', () => {
  it('are for admin credentials only, and only the firm’s own leads', async () => {
    const f = await firmWithTokens();
    const other = await firmWithTokens();
    await postLead(f.embed, 'key-00000011', lead());
    await postLead(other.embed, 'key-00000011', lead({ name: 'Other Firm Lead' }));
    expect((await listLeads(f.site)).status).toBe(403);
    expect((await listLeads(f.embed)).status).toBe(401);
    const viaConnect = await (await listLeads(f.admin)).json();
    const viaKey = await (await listLeads(f.apiKey)).json();
    expect(viaConnect.data.map((l: { name: string }) => l.name)).toEqual(['Zoë Ødegård']);
    expect(viaKey).toEqual(viaConnect);
    const foreign = (await (await listLeads(other.apiKey)).json()).data[0].leadId;
    const res = await t.app.request(`/v1/api/leads/${foreign}`, {
      method: 'PATCH',
      body: JSON.stringify({ status: 'contacted' }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${f.apiKey}` },
    });
    expect(res.status).toBe(404);
  });

  it('paginates newest first', async () => {
    const f = await firmWithTokens();
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1000);
      await postLead(f.embed, `key-page-${i}0000`, lead({ name: `Lead ${i}` }));
    }
    const first = await (await listLeads(f.apiKey, '?limit=2')).json();
    expect(first.data.map((l: { name: string }) => l.name)).toEqual(['Lead 4', 'Lead 3']);
    const second = await (await listLeads(f.apiKey, `?limit=2&cursor=${first.nextCursor}`)).json();
    expect(second.data.map((l: { name: string }) => l.name)).toEqual(['Lead 2', 'Lead 1']);
    const third = await (await listLeads(f.apiKey, `?limit=2&cursor=${second.nextCursor}`)).json();
    expect(third.data.map((l: { name: string }) => l.name)).toEqual(['Lead 0']);
    expect(third.nextCursor).toBeNull();
    expect((await listLeads(f.apiKey, '?cursor=garbage')).status).toBe(400);
  });

  it.each([
    [
      ['contacted', 'converted'],
      [200, 200],
    ],
    [['converted'], [200]],
    [
      ['converted', 'contacted'],
      [200, 409],
    ],
    [
      ['contacted', 'new'],
      [200, 409],
    ],
    [
      ['contacted', 'contacted'],
      [200, 409],
    ],
  ])('walks %j → %j', async (steps, statuses) => {
    const f = await firmWithTokens();
    const { leadId } = await (await postLead(f.embed, 'key-walk-000', lead())).json();
    const seen = [];
    for (const status of steps) {
      const res = await t.app.request(`/v1/api/leads/${leadId}`, {
        method: 'PATCH',
        body: JSON.stringify({ status }),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${f.admin}` },
      });
      seen.push(res.status);
      if (res.status === 409) expect((await res.json()).error.code).toBe('INVALID_TRANSITION');
    }
    expect(seen).toEqual(statuses);
  });
});
