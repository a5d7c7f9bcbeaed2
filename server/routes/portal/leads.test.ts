import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCalculator } from '../../../calculators/index.ts';
import { newId } from '../../db/engine/ids.ts';
import { findLead, insertLead } from '../../db/repos/leads-repo.ts';
import { insertResult } from '../../db/repos/results-repo.ts';
import { inviteMember } from '../../domain/accounts/members.ts';
import { createTestContext, TEST_NOW, type TestContext } from '../../test-support/services.ts';

let ctx: TestContext;
let origin: string;
let counter = 0;

beforeAll(async () => {
  ctx = await createTestContext();
  origin = ctx.services.config.publicPortalUrl;
});
afterAll(() => ctx.close());

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are read loosely in tests
type Json = Record<string, any>;
type Call = (method: string, path: string, body?: unknown, csrf?: boolean) => Promise<Response>;

/** A signed-in member of `accountId` calling `/v1/portal/...` with cookie, origin and CSRF token. */
async function member(accountId: string, role: 'owner' | 'admin' | 'viewer'): Promise<Call> {
  const invited = await inviteMember(ctx.services.portal, {
    accountId,
    email: `m${++counter}@firm.example`,
    role,
    invitedBy: null,
  });
  const token = new URL(invited.link).hash.replace('#token=', '');
  const signIn = await ctx.app.request('/v1/portal/auth/link', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ token }),
  });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  const session = (await (await ctx.app.request('/v1/portal/session', { headers: { cookie } })).json()) as {
    csrfToken: string;
  };
  return async (method, path, body, csrf = true) =>
    ctx.app.request(`/v1/portal/${path}`, {
      method,
      headers: {
        cookie,
        origin,
        'content-type': 'application/json',
        ...(csrf ? { 'x-csrf-token': session.csrfToken } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
}

async function addLead(accountId: string, createdAt: string, extra: Record<string, unknown> = {}) {
  const at = new Date(createdAt);
  return insertLead(ctx.database.db, {
    id: newId('lead'),
    accountId,
    calculator: 'estate-tax',
    name: 'Renée Brontë',
    email: 'renee@example.com',
    state: 'NY',
    status: 'new',
    consentText: 'I agree.',
    consentedAt: at,
    createdAt: at,
    updatedAt: at,
    ...extra,
  });
}

async function addResult(accountId: string) {
  const outcome = runCalculator('estate-tax', { estateValue: 8_200_000, state: 'NY' }, { now: new Date() });
  if (!outcome.ok) throw new Error('estate-tax refused the sample inputs');
  return insertResult(ctx.database.db, {
    id: newId('res'),
    accountId,
    calculator: 'estate-tax',
    state: 'NY',
    inputs: { estateValue: 8_200_000, state: 'NY' },
    outputs: outcome.result.outputs,
    lineItems: outcome.result.lineItems,
    notes: outcome.result.notes,
    ruleSet: outcome.result.ruleSet as unknown as Record<string, unknown>,
    disclaimer: outcome.result.disclaimer,
    createdAt: new Date('2026-02-20T10:00:00Z'),
  });
}

const json = async (res: Response) => (await res.json()) as Json;
const names = async (call: Call, query: string) =>
  ((await json(await call('GET', `leads?${query}`))).data as { name: string }[]).map((l) => l.name);

/** The CSV's data rows, each as its fields (the export quotes every field). */
async function csvRows(call: Call, query: string) {
  const res = await call('GET', `leads/export.csv?${query}`);
  expect(res.status).toBe(200);
  const text = (await res.text()).replace(/^\uFEFF/, '');
  const [header, ...rows] = text.trim().split('\r\n');
  const columns = header!.split(',');
  return rows.map((row) => {
    // Every field is quoted: split on the commas between closing and opening quotes only.
    const fields = [...row.matchAll(/"((?:[^"]|"")*)"(?:,|$)/g)].map((m) => m[1]!.replace(/""/g, '"'));
    return Object.fromEntries(columns.map((c, i) => [c, fields[i]]));
  });
}

/** Actions a second apart, so the trail's order is the order they happened in. */
const tick = () => ctx.clock.advance(1000);

describe('leads filters (through lead-query) on the list and the CSV export', () => {
  let call: Call;
  beforeAll(async () => {
    const { account } = await ctx.seed.firm();
    call = await member(account.id, 'owner');
    const a = account.id;
    await addLead(a, '2026-02-10T09:00:00Z', { name: 'Ana NY estate', state: 'NY' });
    await addLead(a, '2026-02-15T09:00:00Z', {
      name: 'Björn CA probate',
      state: 'CA',
      calculator: 'probate-fees',
    });
    await addLead(a, '2026-02-20T23:30:00Z', {
      name: 'Chloé PA inheritance',
      state: 'PA',
      calculator: 'inheritance-tax',
    });
    await addLead(a, '2026-02-21T00:30:00Z', { name: 'Dāvis NY estate', state: 'NY', status: 'contacted' });
    await addLead(a, '2026-02-22T09:00:00Z', { name: 'Inés test', test: true });
    await addLead(a, '2026-02-23T09:00:00Z', {
      name: '=HYPERLINK("http://evil.example","Held")',
      quarantinedAt: new Date('2026-02-23T09:00:00Z'),
    });
  });

  it.each([
    ['', ['Dāvis NY estate', 'Chloé PA inheritance', 'Björn CA probate', 'Ana NY estate']],
    ['calculator=estate-tax', ['Dāvis NY estate', 'Ana NY estate']],
    ['state=ny', ['Dāvis NY estate', 'Ana NY estate']],
    ['status=contacted', ['Dāvis NY estate']],
    // Inclusive days in UTC: "to 2026-02-20" keeps 23:30 that day and leaves 00:30 the next out.
    ['from=2026-02-15&to=2026-02-20', ['Chloé PA inheritance', 'Björn CA probate']],
    ['test=include&calculator=estate-tax&from=2026-02-21', ['Inés test', 'Dāvis NY estate']],
    ['quarantined=only', ['=HYPERLINK("http://evil.example","Held")']],
    ['quarantined=include&from=2026-02-21', ['=HYPERLINK("http://evil.example","Held")', 'Dāvis NY estate']],
  ])('?%s', async (query, expected) => {
    expect(await names(call, query)).toEqual(expected);
    const rows = await csvRows(call, query);
    // The CSV holds exactly the filtered set, formula cells neutralised with a leading apostrophe.
    expect(rows.map((r) => r.name!.replace(/^'(?=[=+\-@])/, ''))).toEqual(expected);
  });

  it('says how many test leads the list hides, as REST’s hiddenTest does', async () => {
    expect((await json(await call('GET', 'leads?'))).hiddenTest).toBe(1);
    expect((await json(await call('GET', 'leads?status=contacted'))).hiddenTest).toBe(0);
    expect((await json(await call('GET', 'leads?test=include'))).hiddenTest).toBe(0);
    expect((await json(await call('GET', 'overview'))).leads.hiddenTest).toBe(1);
  });

  it('the CSV carries the main figures and the consent as columns (issue 20)', async () => {
    const { account } = await ctx.seed.firm();
    const owner = await member(account.id, 'owner');
    const result = await addResult(account.id);
    await addLead(account.id, '2026-02-25T09:00:00Z', { name: 'Figures NY', resultId: result.id });
    const [row] = await csvRows(owner, '');
    expect(row).toMatchObject({
      name: 'Figures NY',
      result_id: result.id,
      result_state: 'NY',
      result_headline: expect.stringMatching(/^Total estate tax: \$[\d,]+/),
      estate_value: '8200000',
      state_tax: String(result.outputs.stateTax),
      federal_tax: String(result.outputs.federalTax),
      total_tax: String(result.outputs.totalTax),
      rmd: '',
      consent_assumed: 'false',
      consent_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('the CSV quotes every field, doubles quotes and keeps a formula as text', async () => {
    const res = await call('GET', 'leads/export.csv?quarantined=only');
    expect(res.headers.get('content-type')).toContain('text/csv');
    const text = await res.text();
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""Held"")"`);
    expect(text).toContain('"true"\r\n'.replace('\r\n', '')); // the quarantined column
  });

  it('a bad filter is a 400 in the error shape, before any CSV is sent', async () => {
    for (const query of [
      'state=New%20York',
      'from=2026-02-31',
      'from=2026-02-20&to=2026-02-10',
      'quarantined=maybe',
    ]) {
      for (const path of ['leads', 'leads/export.csv']) {
        const res = await call('GET', `${path}?${query}`);
        expect(res.status, `${path}?${query}`).toBe(400);
        expect((await json(res)).error.code).toBe('INVALID_REQUEST');
      }
    }
    const unknown = await call('GET', 'leads?calculator=lottery');
    expect(unknown.status).toBe(400);
  });

  it('the list reports how many match the filter', async () => {
    const body = await json(await call('GET', 'leads?state=NY'));
    expect(body.total).toBe(2);
  });
});

describe('lead detail, status, release, delete and export of one person', () => {
  it('detail: the linked result in words and only the allowed next statuses', async () => {
    const { account } = await ctx.seed.firm();
    const call = await member(account.id, 'admin');
    const result = await addResult(account.id);
    const lead = await addLead(account.id, '2026-02-20T10:00:00Z', { resultId: result.id });
    const body = await json(await call('GET', `leads/${lead.id}`));
    expect(body.lead.leadId).toBe(lead.id);
    expect(body.nextStatuses).toEqual(['contacted', 'converted', 'lost']);
    expect(body.result.inputs).toContainEqual({ label: expect.any(String), value: '$8,200,000.00' });
    const total = (body.result.outputs as { label: string; value: string }[]).find((f) =>
      /total/i.test(f.label),
    );
    expect(total?.value).toMatch(/^\$[\d,]+\.\d\d$/);

    expect((await call('PATCH', `leads/${lead.id}`, { status: 'contacted' })).status).toBe(200);
    expect((await json(await call('GET', `leads/${lead.id}`))).nextStatuses).toEqual(['converted', 'lost']);
    const back = await call('PATCH', `leads/${lead.id}`, { status: 'new' });
    expect(back.status).toBe(409);
    expect((await json(back)).error.code).toBe('INVALID_TRANSITION');
  });

  it('release takes a lead out of quarantine once; the audit names the member', async () => {
    const { account } = await ctx.seed.firm();
    const call = await member(account.id, 'owner');
    const held = await addLead(account.id, '2026-02-25T10:00:00Z', { quarantinedAt: new Date() });
    const res = await call('POST', `leads/${held.id}/release`);
    expect(res.status).toBe(200);
    expect((await json(res)).lead.quarantined).toBe(false);
    expect((await call('POST', `leads/${held.id}/release`)).status).toBe(404);
    const activity = await json(await call('GET', 'activity?kind=leads'));
    expect(activity.data[0]).toMatchObject({ action: 'lead.released', subject: held.id });
    expect(activity.data[0].actorLabel).toMatch(/@firm\.example$/);
  });

  it('the held-leads banner: count, reasons, newest first, firm-scoped; empty when none', async () => {
    const { account } = await ctx.seed.firm();
    const other = await ctx.seed.firm();
    const call = await member(account.id, 'viewer');
    expect(await json(await call('GET', 'leads/held'))).toEqual({ total: 0, byReason: {}, latest: [] });
    await addLead(other.account.id, '2026-02-25T10:00:00Z', {
      quarantinedAt: new Date('2026-02-25T10:00:00Z'),
      quarantineReasons: ['network_burst'],
    });
    const first = await addLead(account.id, '2026-02-25T10:00:00Z', {
      name: 'Win at https://spam.example',
      quarantinedAt: new Date('2026-02-25T10:00:00Z'),
      quarantineReasons: ['link_in_name', 'network_burst'],
    });
    const second = await addLead(account.id, '2026-02-25T11:00:00Z', {
      quarantinedAt: new Date('2026-02-25T11:00:00Z'),
      quarantineReasons: ['disposable_email'],
    });
    await addLead(account.id, '2026-02-25T12:00:00Z'); // live
    const held = await json(await call('GET', 'leads/held'));
    expect(held.total).toBe(2);
    expect(held.byReason).toEqual({ link_in_name: 1, network_burst: 1, disposable_email: 1 });
    expect(held.latest.map((l: Json) => [l.leadId, l.reasons])).toEqual([
      [second.id, ['disposable_email']],
      [first.id, ['link_in_name', 'network_burst']],
    ]);
    // A viewer reads the banner but cannot release.
    expect((await call('POST', `leads/${first.id}/release`)).status).toBe(403);
  });

  it('delete erases the lead and its result; export returns every lead of that e-mail', async () => {
    const { account } = await ctx.seed.firm();
    const call = await member(account.id, 'admin');
    const result = await addResult(account.id);
    const lead = await addLead(account.id, '2026-02-20T10:00:00Z', {
      resultId: result.id,
      email: 'Zoe@Example.com',
    });
    await addLead(account.id, '2026-02-21T10:00:00Z', { email: 'zoe@example.com', calculator: 'rmd' });
    const exported = await call('GET', `leads/${lead.id}/person.json`);
    tick();
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toContain(`person-${lead.id}.json`);
    const data = await json(exported);
    expect(data.leads).toHaveLength(2);
    expect(data.results.map((r: { id: string }) => r.id)).toEqual([result.id]);

    const deleted = await call('DELETE', `leads/${lead.id}`);
    expect(deleted.status).toBe(200);
    expect(await json(deleted)).toMatchObject({ deleted: true, leadId: lead.id, resultDeleted: result.id });
    expect(await findLead(ctx.database.db, account.id, lead.id)).toBeUndefined();
    expect((await call('GET', `leads/${lead.id}`)).status).toBe(404);
    const actions = (await json(await call('GET', 'activity?kind=leads'))).data.map(
      (e: { action: string }) => e.action,
    );
    expect(actions.slice(0, 2)).toEqual(['lead.deleted', 'subject.exported']);
  });

  it('viewers read a lead but cannot release, delete or export it; writes need the CSRF token', async () => {
    const { account } = await ctx.seed.firm();
    const viewer = await member(account.id, 'viewer');
    const admin = await member(account.id, 'admin');
    const lead = await addLead(account.id, '2026-02-20T10:00:00Z', { quarantinedAt: new Date() });
    expect((await viewer('GET', `leads/${lead.id}`)).status).toBe(200);
    for (const [method, path] of [
      ['POST', `leads/${lead.id}/release`],
      ['DELETE', `leads/${lead.id}`],
      ['GET', `leads/${lead.id}/person.json`],
      ['PATCH', `leads/${lead.id}`],
    ] as const) {
      const res = await viewer(method, path, method === 'PATCH' ? { status: 'contacted' } : undefined);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect((await admin('DELETE', `leads/${lead.id}`, undefined, false)).status).toBe(403);
    expect((await admin('POST', `leads/${lead.id}/release`, undefined, false)).status).toBe(403);
    expect(await findLead(ctx.database.db, account.id, lead.id)).toBeDefined();
  });

  it("another firm's lead ids are 404 on every lead endpoint, and nothing changes", async () => {
    const mine = await ctx.seed.firm();
    const theirs = await ctx.seed.firm();
    const call = await member(mine.account.id, 'owner');
    const foreign = await addLead(theirs.account.id, '2026-02-20T10:00:00Z', { quarantinedAt: new Date() });
    for (const [method, path, body] of [
      ['GET', `leads/${foreign.id}`, undefined],
      ['PATCH', `leads/${foreign.id}`, { status: 'contacted' }],
      ['POST', `leads/${foreign.id}/release`, undefined],
      ['DELETE', `leads/${foreign.id}`, undefined],
      ['GET', `leads/${foreign.id}/person.json`, undefined],
    ] as const) {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect((await json(res)).error.code).toBe('NOT_FOUND');
    }
    const still = await findLead(ctx.database.db, theirs.account.id, foreign.id);
    expect(still?.status).toBe('new');
    expect(still?.quarantinedAt).not.toBeNull();
    expect(await names(call, 'quarantined=include&test=include')).toEqual([]);
  });
});

describe('chart and activity', () => {
  it('leads per week and calculator over the last 90 days, live leads only', async () => {
    const { account } = await ctx.seed.firm();
    const call = await member(account.id, 'viewer');
    // The test clock stands at 2026-03-01 (a Sunday); the window starts 89 days earlier.
    await addLead(account.id, '2026-02-23T10:00:00Z'); // Monday of the last week
    await addLead(account.id, '2026-03-01T08:00:00Z', { calculator: 'rmd' });
    await addLead(account.id, '2026-03-01T09:00:00Z');
    await addLead(account.id, '2026-02-24T09:00:00Z', { test: true });
    await addLead(account.id, '2026-02-24T09:00:00Z', { quarantinedAt: new Date() });
    await addLead(account.id, '2025-11-01T09:00:00Z'); // before the window
    const chart = await json(await call('GET', 'leads/chart'));
    expect(chart.to).toBe('2026-03-01');
    expect(chart.from).toBe('2025-12-02');
    expect(chart.calculators).toEqual(['estate-tax', 'rmd']);
    const last = chart.weeks.at(-1);
    expect(last).toEqual({
      from: '2026-02-23',
      to: '2026-03-01',
      counts: { 'estate-tax': 2, rmd: 1 },
      total: 3,
    });
    expect(chart.weeks[0]).toMatchObject({ from: '2025-12-02', to: '2025-12-07' });
    expect(chart.weeks).toHaveLength(13);
    expect(chart.weeks.reduce((n: number, w: { total: number }) => n + w.total, 0)).toBe(3);
  });

  it('follows the list’s filters: the leads the list shows, over the filter’s period', async () => {
    const { account } = await ctx.seed.firm();
    const call = await member(account.id, 'viewer');
    await addLead(account.id, '2026-02-23T10:00:00Z', { status: 'converted' });
    await addLead(account.id, '2026-02-24T23:30:00Z', {
      status: 'converted',
      calculator: 'rmd',
      state: 'CA',
    });
    await addLead(account.id, '2026-02-25T09:00:00Z', { name: 'Zoë Adams', email: 'zoe@example.com' });
    await addLead(account.id, '2026-02-02T09:00:00Z', { status: 'converted', test: true });
    await addLead(account.id, '2026-01-15T09:00:00Z', { status: 'converted' });
    const chart = async (query: string) => json(await call('GET', `leads/chart?${query}`));
    const total = (c: Json) => (c.weeks as { total: number }[]).reduce((n, w) => n + w.total, 0);
    const list = async (query: string) => (await json(await call('GET', `leads?${query}`))).data.length;

    for (const query of [
      'status=converted',
      'status=converted&calculator=rmd',
      'state=CA',
      'q=zo',
      'status=converted&test=include',
      'month=2026-01',
      'from=2026-02-24&to=2026-02-24',
      'status=converted&sort=value',
    ]) {
      const c = await chart(query);
      expect(c.filtered, query).toBe(true);
      expect(total(c), query).toBe(await list(query));
    }
    const byStatus = await chart('status=converted');
    expect([byStatus.from, byStatus.to]).toEqual(['2025-12-02', '2026-03-01']);
    expect(byStatus.calculators).toEqual(['estate-tax', 'rmd']);
    expect(byStatus.weeks.at(-1).counts).toEqual({ 'estate-tax': 1, rmd: 1 });
    const january = await chart('month=2026-01');
    expect([january.from, january.to, total(january)]).toEqual(['2026-01-01', '2026-01-31', 1]);
    expect(january.weeks[0]).toMatchObject({ from: '2026-01-01', to: '2026-01-04' });
    // Unfiltered (sort only orders the list): the daily counters' 90 days, as before.
    const plain = await chart('sort=value');
    expect([plain.filtered, total(plain)]).toEqual([false, 4]);
    const bad = await call('GET', 'leads/chart?from=2026-02-30');
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.code).toBe('INVALID_REQUEST');
  });

  it('status changes are audited whichever door they come through (portal, REST API key)', async () => {
    const { account } = await ctx.seed.firm();
    const call = await member(account.id, 'owner');
    const { apiKey } = await ctx.seed.apiKey(account.id, ['leads:read', 'leads:write']);
    const a = await addLead(account.id, '2026-02-20T10:00:00Z');
    const b = await addLead(account.id, '2026-02-20T11:00:00Z');
    expect((await call('PATCH', `leads/${a.id}`, { status: 'contacted' })).status).toBe(200);
    tick();
    const rest = await ctx.app.request(`/v1/api/leads/${b.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'converted' }),
    });
    expect(rest.status).toBe(200);
    const events = (await json(await call('GET', 'activity?kind=leads'))).data as Json[];
    expect(events.map((e) => [e.subject, e.data.from, e.data.status, e.actorLabel])).toEqual([
      [b.id, 'new', 'converted', 'API key “test key”'],
      [a.id, 'new', 'contacted', expect.stringMatching(/@firm\.example$/)],
    ]);
    const keys = (await json(await call('GET', 'activity?kind=api-keys'))).data as Json[];
    expect(keys.map((e) => [e.action, e.actorLabel])).toEqual([['apikey.created', 'Operator']]);
    const signIns = (await json(await call('GET', 'activity?kind=sign-ins'))).data as Json[];
    expect(signIns.map((e) => e.action)).toEqual(['portal.signed_in']);
    expect((await call('GET', 'activity?kind=everything')).status).toBe(400);
  });

  it('signing out is on the trail under sign-ins', async () => {
    const { account } = await ctx.seed.firm();
    const leaving = await member(account.id, 'admin');
    tick();
    expect((await leaving('POST', 'session/sign-out')).status).toBe(200);
    tick();
    const reader = await member(account.id, 'viewer');
    const events = (await json(await reader('GET', 'activity?kind=sign-ins'))).data as Json[];
    expect(events.map((e) => e.action)).toEqual([
      'portal.signed_in',
      'portal.signed_out',
      'portal.signed_in',
    ]);
    expect(events[1]!.data).toEqual({ device: 'this' });
  });

  it('activity pages with a cursor inside the chosen kind', async () => {
    const { account } = await ctx.seed.firm();
    const call = await member(account.id, 'owner');
    for (let i = 0; i < 3; i++) {
      await call('POST', 'api-keys', { name: `k${i}`, scopes: ['leads:read'] });
      tick();
    }
    const first = await json(await call('GET', 'activity?kind=api-keys&limit=2'));
    expect(first.data.map((e: { data: { name: string } }) => e.data.name)).toEqual(['k2', 'k1']);
    const second = await json(
      await call('GET', `activity?kind=api-keys&limit=2&cursor=${encodeURIComponent(first.nextCursor)}`),
    );
    expect(second.data.map((e: { data: { name: string } }) => e.data.name)).toEqual(['k0']);
    expect(second.nextCursor).toBeNull();
  });
});

describe('Overview compares like with like', () => {
  it('this month so far against last month up to the same day and time, not against all of it', async () => {
    const { account } = await ctx.seed.firm();
    // A session signed in at that moment (one from the suite's frozen day would have expired by June).
    const overviewAt = async (at: string) => {
      ctx.clock.set(at);
      return (await json(await (await member(account.id, 'owner'))('GET', 'overview'))).leads;
    };
    await addLead(account.id, '2026-04-03T08:00:00Z', { name: 'April, early' });
    await addLead(account.id, '2026-05-02T09:00:00Z', { name: 'May, day 2' });
    await addLead(account.id, '2026-05-03T11:00:00Z', { name: 'May, day 3 before the hour' });
    await addLead(account.id, '2026-05-20T10:00:00Z', { name: 'May, later' });
    await addLead(account.id, '2026-06-02T10:00:00Z', { name: 'June, day 2' });
    try {
      // June 1–3 noon against May 1–3 noon: 1 against 2, the lead of May 20 not yet comparable.
      expect(await overviewAt('2026-06-03T12:00:00Z')).toMatchObject({ thisMonth: 1, lastMonth: 2 });
      // May 31 against April: April has 30 days, so its stretch stops at its end.
      expect(await overviewAt('2026-05-31T23:00:00Z')).toMatchObject({ thisMonth: 3, lastMonth: 1 });
    } finally {
      ctx.clock.set(TEST_NOW);
    }
  });
});
