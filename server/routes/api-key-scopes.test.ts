import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../db/engine/ids.ts';
import { insertLead } from '../db/repos/leads-repo.ts';
import { createApiKey } from '../domain/accounts/api-keys.ts';
import type { ApiKeyScope } from '../domain/credentials/scopes.ts';
import { createTestContext, type TestContext } from '../test-support/services.ts';
import { createAdminRoutes } from './admin/index.ts';

let t: TestContext;
const ADMIN = 'admin-token-for-scope-tests-0123456789abcdef';
beforeAll(async () => {
  t = await createTestContext();
  t.app.route('/', createAdminRoutes(t.services, ADMIN));
});
afterAll(() => t.close());

async function firmWithLead() {
  const firm = await t.seed.firm();
  const now = t.clock.now();
  const lead = await insertLead(t.database.db, {
    id: newId('lead'),
    accountId: firm.account.id,
    licenseId: firm.license.id,
    calculator: 'estate-tax',
    name: 'Ada',
    email: 'ada@example.com',
    state: 'NY',
    status: 'new',
    consentText: 'ok',
    consentedAt: now,
    createdAt: now,
    updatedAt: now,
  });
  const key = async (...scopes: ApiKeyScope[]) => (await t.seed.apiKey(firm.account.id, scopes)).apiKey;
  return { ...firm, lead, key };
}

const call = (method: string, path: string, token: string, body?: unknown) =>
  t.app.request(path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const readLeads = (key: string) => call('GET', '/v1/api/leads', key);
const moveLead = (key: string, id: string) =>
  call('PATCH', `/v1/api/leads/${id}`, key, { status: 'contacted' });
const billing = (key: string) =>
  call('POST', '/v1/api/billing/customer-portal', key, { returnUrl: 'https://smithlaw.com/' });

async function expectForbidden(res: Response, scope: string) {
  const body = await res.json();
  expect({ status: res.status, code: body.error.code }).toEqual({ status: 403, code: 'FORBIDDEN' });
  expect(body.error.message).toContain(`"${scope}"`);
}

describe('scoped API keys', () => {
  it('defaults to leads:read: reads leads, may not change them or open billing', async () => {
    const firm = await firmWithLead();
    const { apiKey, row } = await createApiKey(t.services.licensing, {
      accountId: firm.account.id,
      name: 'AI',
    });
    expect(row.scopes).toBe('leads:read');
    expect((await readLeads(apiKey)).status).toBe(200);
    await expectForbidden(await moveLead(apiKey, firm.lead.id), 'leads:write');
    await expectForbidden(await billing(apiKey), 'billing');
  });

  it('leads:write updates leads; billing opens the billing portal; each needs its own scope', async () => {
    const firm = await firmWithLead();
    const writer = await firm.key('leads:write');
    expect((await moveLead(writer, firm.lead.id)).status).toBe(200);
    await expectForbidden(await readLeads(writer), 'leads:read');
    const payer = await firm.key('billing');
    expect((await billing(payer)).status).toBe(200);
    await expectForbidden(await readLeads(payer), 'leads:read');
  });

  it('admin (what keys made before scopes carry) may do everything', async () => {
    const firm = await firmWithLead();
    const all = await firm.key('admin');
    expect((await readLeads(all)).status).toBe(200);
    expect((await moveLead(all, firm.lead.id)).status).toBe(200);
    expect((await billing(all)).status).toBe(200);
  });

  it('admin API and CLI body: scopes are chosen at creation and listed', async () => {
    const firm = await firmWithLead();
    const res = await call('POST', '/admin/v1/api-keys', ADMIN, {
      accountId: firm.account.id,
      name: 'Zapier',
      scopes: ['leads:read', 'leads:write'],
    });
    const created = await res.json();
    expect(created.scopes).toEqual(['leads:read', 'leads:write']);
    const bad = await call('POST', '/admin/v1/api-keys', ADMIN, {
      accountId: firm.account.id,
      name: 'x',
      scopes: ['root'],
    });
    expect(bad.status).toBe(400);
    const list = await (await call('GET', `/admin/v1/accounts/${firm.account.id}/api-keys`, ADMIN)).json();
    expect(list.apiKeys.find((k: { id: string }) => k.id === created.id).scopes).toEqual([
      'leads:read',
      'leads:write',
    ]);
  });

  it('revoking another account’s key, an unknown key or a revoked key reports 404, not revoked:true', async () => {
    const mine = await firmWithLead();
    const theirs = await firmWithLead();
    const { row } = await t.seed.apiKey(theirs.account.id);
    const revoke = (accountId: string, keyId: string) =>
      call('POST', `/admin/v1/accounts/${accountId}/api-keys/${keyId}/revoke`, ADMIN);
    const foreign = await revoke(mine.account.id, row.id);
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error.code).toBe('NOT_FOUND');
    expect((await revoke(mine.account.id, 'key_unknown')).status).toBe(404);
    const own = await revoke(theirs.account.id, row.id);
    expect(await own.json()).toEqual({ revoked: true });
    expect((await revoke(theirs.account.id, row.id)).status).toBe(404);
  });
});
