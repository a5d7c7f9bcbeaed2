import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpLeadDetailSchema } from '../contracts/lead.ts';
import { newId } from '../db/engine/ids.ts';
import { apiKeys, auditEvents, leads } from '../db/engine/schema.ts';
import { insertLead } from '../db/repos/leads-repo.ts';
import { insertResult } from '../db/repos/results-repo.ts';
import { invalidateCaches } from '../domain/caches/lookup-caches.ts';
import { seedDemoLeads } from '../domain/demo/leads.ts';
import { COUNT_CAP } from '../domain/leads/lead-query.ts';
import { createTestContext, TEST_NOW, type TestContext } from '../test-support/services.ts';
import { PAGE_TEXT_BUDGET } from './tools.ts';

/**
 * Tool behaviour in process (one database for the file, frozen clock): test mode and quarantine,
 * capped counts, the page text budget, stale cursors, statistics, audit rows, scope, rate limit.
 */
const SECRET = 'mcp-tools-test-secret-key-0123456789abcdef';
let t: TestContext;
let big: { accountId: string; apiKey: string; keyId: string };
let small: { accountId: string; apiKey: string };

beforeAll(async () => {
  t = await createTestContext({ SECRET_KEY: SECRET });
  const firm = await t.seed.firm();
  const key = await t.seed.apiKey(firm.account.id);
  big = { accountId: firm.account.id, apiKey: key.apiKey, keyId: key.row.id };
  await seedDemoLeads(t.services.licensing, { accountId: big.accountId, leads: COUNT_CAP + 5, days: 60 });
  const other = await t.seed.firm();
  small = { accountId: other.account.id, apiKey: (await t.seed.apiKey(other.account.id)).apiKey };
}, 120_000);
afterAll(() => t.close());

async function call(key: string, name: string, args: Record<string, unknown>, app = t.app) {
  const res = await app.request('/v1/mcp', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  return { res, body: res.status === 200 ? await res.json() : await res.json().catch(() => null) };
}

async function ok(key: string, name: string, args: Record<string, unknown>) {
  const { res, body } = await call(key, name, args);
  expect(res.status).toBe(200);
  expect(body.result.isError, JSON.stringify(body.result.content)).toBeUndefined();
  return { structured: body.result.structuredContent, text: body.result.content[0].text as string };
}

const at = (iso: string) => new Date(iso);

async function addLead(accountId: string, createdAt: string, extra: Record<string, unknown> = {}) {
  return insertLead(t.database.db, {
    id: newId('lead'),
    accountId,
    calculator: 'rmd',
    name: 'Renée Brontë',
    email: 'renee@example.com',
    state: 'VT',
    status: 'new',
    consentText: 'I agree.',
    consentedAt: at(createdAt),
    createdAt: at(createdAt),
    updatedAt: at(createdAt),
    ...extra,
  });
}

describe('test mode and quarantine', () => {
  it('leaves test and quarantined leads out unless includeTest', async () => {
    const live = await addLead(small.accountId, '2026-02-27T10:00:00Z');
    const test = await addLead(small.accountId, '2026-02-27T11:00:00Z', { test: true });
    const held = await addLead(small.accountId, '2026-02-27T12:00:00Z', {
      quarantinedAt: at('2026-02-27T12:00:00Z'),
    });
    const ids = async (args: Record<string, unknown>) =>
      ((await ok(small.apiKey, 'get_leads', args)).structured.leads as { id: string }[]).map((l) => l.id);
    expect(await ids({})).toEqual([live.id]);
    expect(await ids({ includeTest: true })).toEqual([held.id, test.id, live.id]);
    const stats = (await ok(small.apiKey, 'get_directory_stats', {})).structured;
    expect(stats.totalLeadsAllTime).toBe(1);
    expect(stats.leadsInWindow).toBe(1);
  });
});

describe('statistics', () => {
  it('counts the window exactly, zero-fills statuses and orders calculators by count, then slug', async () => {
    const stats = (await ok(big.apiKey, 'get_directory_stats', { windowDays: 7 })).structured;
    expect(stats.windowEnd).toBe(new Date(TEST_NOW).toISOString());
    expect(stats.windowStart).toBe('2026-02-22T12:00:00.000Z');
    const [{ n: inWindow }] = (
      (await t.database.db.execute(
        sql`select count(*)::int as n from leads where account_id = ${big.accountId}
          and created_at >= ${at('2026-02-22T12:00:00Z')} and created_at <= ${at(TEST_NOW)}`,
      )) as unknown as { rows: { n: number }[] }
    ).rows as [{ n: number }];
    expect(stats.leadsInWindow).toBe(inWindow);
    expect(stats.totalLeadsAllTime).toBe(COUNT_CAP + 5);
    expect(Object.keys(stats.byStatus).sort()).toEqual(['contacted', 'converted', 'lost', 'new']);
    const top = stats.topCalculators as { slug: string; name: string; count: number }[];
    const sorted = [...top].sort((x, y) => y.count - x.count || x.slug.localeCompare(y.slug));
    expect(top).toEqual(sorted);
    expect(top.reduce((s, c) => s + c.count, 0)).toBe(inWindow);
    expect(top.find((c) => c.slug === 'estate-tax')?.name).toBe('Estate tax');
  });

  it('follows status changes, test/quarantine flags and deletes (counters kept by triggers)', async () => {
    const firm = await t.seed.firm();
    const key = (await t.seed.apiKey(firm.account.id)).apiKey;
    const stats = async () => (await ok(key, 'get_directory_stats', { windowDays: 3 })).structured;
    const one = await addLead(firm.account.id, '2026-02-28T09:00:00Z');
    const two = await addLead(firm.account.id, '2026-02-27T09:00:00Z');
    await addLead(firm.account.id, '2026-01-01T09:00:00Z');
    expect(await stats()).toMatchObject({ totalLeadsAllTime: 3, leadsInWindow: 2, byStatus: { new: 2 } });
    await t.database.db.update(leads).set({ status: 'converted' }).where(eq(leads.id, one.id));
    expect((await stats()).byStatus).toEqual({ new: 1, contacted: 0, converted: 1, lost: 0 });
    await t.database.db.update(leads).set({ test: true }).where(eq(leads.id, two.id));
    expect(await stats()).toMatchObject({ totalLeadsAllTime: 2, leadsInWindow: 1 });
    await t.database.db
      .update(leads)
      .set({ test: false, quarantinedAt: at(TEST_NOW) })
      .where(eq(leads.id, two.id));
    expect(await stats()).toMatchObject({ totalLeadsAllTime: 2, leadsInWindow: 1 });
    await t.database.db.delete(leads).where(eq(leads.id, one.id));
    expect(await stats()).toMatchObject({ totalLeadsAllTime: 1, leadsInWindow: 0, topCalculators: [] });
  });

  it('zero-fills an account without leads', async () => {
    const empty = await t.seed.firm();
    const key = (await t.seed.apiKey(empty.account.id)).apiKey;
    const stats = (await ok(key, 'get_directory_stats', {})).structured;
    expect(stats).toMatchObject({ totalLeadsAllTime: 0, leadsInWindow: 0, topCalculators: [] });
    expect(stats.byStatus).toEqual({ new: 0, contacted: 0, converted: 0, lost: 0 });
  });
});

describe('pages', () => {
  it('caps totalMatching at 1000 and keeps a page near 40 KB without losing rows', async () => {
    const seen = new Set<string>();
    let cursor: string | undefined;
    let shortPages = 0;
    for (let i = 0; i < 40; i++) {
      const { structured, text } = await ok(big.apiKey, 'get_leads', {
        limit: 100,
        ...(cursor ? { cursor } : {}),
      });
      expect(structured.totalMatching).toBe(COUNT_CAP);
      expect(structured.totalMatchingCapped).toBe(true);
      expect(text.length).toBeLessThanOrEqual(PAGE_TEXT_BUDGET);
      const leads = structured.leads as { id: string }[];
      if (structured.nextCursor && leads.length < 100) shortPages++;
      for (const l of leads) seen.add(l.id);
      cursor = structured.nextCursor;
      if (!cursor) break;
    }
    expect(shortPages).toBeGreaterThan(0);
    expect(seen.size).toBe(COUNT_CAP + 5);
  });

  it('refuses a stale cursor with a fix', async () => {
    const { structured } = await ok(big.apiKey, 'get_calculator_results', { limit: 3 });
    const clock = t.clock as unknown as { advance(ms: number): void; set(at: string): void };
    clock.advance(25 * 3_600_000);
    try {
      const { body } = await call(big.apiKey, 'get_calculator_results', {
        limit: 3,
        cursor: structured.nextCursor,
      });
      expect(body.result.isError).toBe(true);
      expect(body.result.content[0].text).toMatch(/expired/);
    } finally {
      clock.set(TEST_NOW);
    }
  });

  it('filters by creation date, from inclusive and to exclusive', async () => {
    const a = await addLead(small.accountId, '2026-01-10T00:00:00Z');
    const b = await addLead(small.accountId, '2026-01-11T00:00:00Z');
    const ids = (
      (await ok(small.apiKey, 'get_leads', { createdFrom: '2026-01-10', createdTo: '2026-01-11' })).structured
        .leads as { id: string }[]
    ).map((l) => l.id);
    expect(ids).toEqual([a.id]);
    expect(ids).not.toContain(b.id);
  });
});

describe('audit, scope and rate limit', () => {
  it('writes one audit row per call: key id, tool, filters (no cursor value), rows, duration', async () => {
    const { structured } = await ok(big.apiKey, 'get_leads', { status: 'new', limit: 2 });
    await ok(big.apiKey, 'get_leads', { status: 'new', limit: 2, cursor: structured.nextCursor });
    const rows = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.actor, `apikey:${big.keyId}`), eq(auditEvents.action, 'mcp.tool_call')));
    const mine = rows.filter((r) => (r.data as { args: { status?: string } }).args.status === 'new');
    expect(mine).toHaveLength(2);
    const paged = mine.find((r) => (r.data as { args: { cursor?: unknown } }).args.cursor === true)!;
    expect(paged.accountId).toBe(big.accountId);
    expect(paged.subject).toBe('get_leads');
    expect(paged.data).toMatchObject({ tool: 'get_leads', rows: 2, outcome: 'ok' });
    expect((paged.data as { args: Record<string, unknown> }).args).toEqual({
      status: 'new',
      limit: 2,
      includeTest: false,
      cursor: true,
    });
    expect(typeof (paged.data as { durationMs: unknown }).durationMs).toBe('number');
    expect(JSON.stringify(rows)).not.toContain(structured.nextCursor);
    expect(JSON.stringify(rows)).not.toMatch(/@example\.com/);
  });

  it('keeps only validated arguments in the audit row: free text given as a date is not stored', async () => {
    const free = 'someone.private@example.org';
    const { body } = await call(big.apiKey, 'get_leads', { createdFrom: free, createdTo: '2026-01-11' });
    expect(JSON.stringify(body)).toContain('isError');
    const rows = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.actor, `apikey:${big.keyId}`), eq(auditEvents.action, 'mcp.tool_call')));
    expect(JSON.stringify(rows)).not.toContain(free);
    const refused = rows.find(
      (r) =>
        (r.data as { args: { createdTo?: string } }).args.createdTo === '2026-01-11' &&
        (r.data as { outcome: string }).outcome === 'refused',
    )!;
    expect((refused.data as { args: Record<string, unknown> }).args).toMatchObject({
      createdFrom: 'invalid',
      createdTo: '2026-01-11',
    });
  });

  it('refuses a key without leads:read with 403', async () => {
    const firm = await t.seed.firm();
    const { apiKey, row } = await t.seed.apiKey(firm.account.id);
    // Scopes have no write path of their own: written here, the caches are told as a write path would.
    await t.database.db.update(apiKeys).set({ scopes: 'billing' }).where(eq(apiKeys.id, row.id));
    await invalidateCaches(t.services);
    const { res, body } = await call(apiKey, 'get_leads', {});
    expect(res.status).toBe(403);
    expect(body.error).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    await t.database.db.update(apiKeys).set({ scopes: 'leads:read' }).where(eq(apiKeys.id, row.id));
    await invalidateCaches(t.services);
    expect((await call(apiKey, 'get_leads', {})).res.status).toBe(200);
  });

  it('counts calls per key in the default group', async () => {
    const limited = await createTestContext({ RATE_LIMIT_SCALE: '0.05', SECRET_KEY: SECRET }, t.database);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await call(small.apiKey, 'get_directory_stats', {}, limited.app)).res.status);
    expect(statuses.slice(0, 6)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(statuses[6]).toBe(429);
    expect((await call(big.apiKey, 'get_directory_stats', {}, limited.app)).res.status).toBe(200);
  });
});

describe('the lead in get_leads (lean) and get_lead (in full) (issues 20, 43)', () => {
  it('lists the lean lead and gives it in full with its figures once and the consent as stored', async () => {
    const firm = await t.seed.firm();
    const apiKey = (await t.seed.apiKey(firm.account.id)).apiKey;
    const result = await insertResult(t.database.db, {
      id: newId('res'),
      accountId: firm.account.id,
      calculator: 'rmd',
      state: 'VT',
      inputs: { balance: 500_000, age: 75 },
      outputs: { rmd: 20_325.2, factor: 24.6, balance: 500_000 },
      lineItems: [],
      notes: [],
      ruleSet: {},
      disclaimer: 'Not legal advice.',
      createdAt: at('2026-02-27T09:00:00Z'),
    });
    const stored = await addLead(firm.account.id, '2026-02-27T10:00:00Z', {
      resultId: result.id,
      page: 'https://smithlaw.com/retirement',
      phone: '+1 802 555 0100',
    });
    const [lead] = (await ok(apiKey, 'get_leads', {})).structured.leads;
    expect(lead).toEqual({
      id: stored.id,
      name: 'Renée Brontë',
      email: 'renee@example.com',
      phone: '+1 802 555 0100',
      calculatorSlug: 'rmd',
      calculatorName: 'Required minimum distribution',
      state: 'VT',
      status: 'new',
      createdAt: '2026-02-27T10:00:00.000Z',
      headline: 'Required minimum distribution: $20,325.20',
      // Issue 40's value, listed as its amount (the headline says its label).
      value: 20_325.2,
      consent: { given: true, versionId: null, agreedAt: '2026-02-27T10:00:00.000Z' },
      portalUrl: `http://localhost:8787/portal/leads/${stored.id}`,
    });
    const { lead: full } = (await ok(apiKey, 'get_lead', { id: stored.id })).structured;
    expect(McpLeadDetailSchema.parse(full)).toEqual(full);
    expect(full.result).toEqual({
      id: result.id,
      calculatorSlug: 'rmd',
      state: 'VT',
      metadata: { balance: 500_000, age: 75, rmd: 20_325.2, factor: 24.6 },
    });
    expect(full).not.toHaveProperty('result.inputs');
    expect(full.consent).toEqual({
      given: true,
      versionId: null,
      text: 'I agree.',
      sha256: createHash('sha256').update('I agree.').digest('hex'),
      agreedAt: '2026-02-27T10:00:00.000Z',
      page: 'https://smithlaw.com/retirement',
      // Written straight into the row, not through intake's origin check.
      pageVerified: null,
      assumed: false,
      language: 'en',
    });
    expect(full).toMatchObject({ test: false, quarantined: false, portalUrl: lead.portalUrl });
  });
});
