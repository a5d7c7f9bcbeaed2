import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, leads, outboxEvents } from '../../db/engine/schema.ts';
import { createEndpoint } from '../../domain/delivery/endpoints.ts';
import { exportSubject } from '../../domain/leads/privacy.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

/** Issue 40 over REST and webhooks: value and priority, lost with its reason, notes, search and sort. */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const ORIGIN = 'https://smithlaw.com';

async function firm() {
  const f = await t.seed.firm();
  const embed = await t.embedSession(f.publishableKey, ORIGIN);
  const { apiKey } = await t.seed.apiKey(f.account.id, ['leads:read', 'leads:write']);
  return { ...f, embed, apiKey };
}

let keys = 0;
async function lead(
  f: { embed: string },
  inputs: Record<string, unknown> | null,
  person: { name?: string; email?: string } = {},
) {
  let resultId: string | undefined;
  if (inputs) {
    const res = await t.json(
      '/v1/api/calc/estimate',
      { calculator: 'estate-tax', state: inputs.state, inputs },
      { authorization: `Bearer ${f.embed}` },
    );
    expect(res.status).toBe(200);
    resultId = (await res.json()).resultId;
  }
  const res = await t.json(
    '/v1/api/leads',
    {
      calculator: 'estate-tax',
      name: person.name ?? 'Ana Ruiz',
      email: person.email ?? 'ana@example.com',
      state: (inputs?.state as string) ?? 'NY',
      consent: true,
      ...(resultId ? { resultId } : {}),
    },
    { authorization: `Bearer ${f.embed}`, 'idempotency-key': `work-${++keys}-${Date.now()}` },
  );
  expect(res.status).toBe(201);
  return (await res.json()).leadId as string;
}

describe('value and priority, rated when the lead is stored', () => {
  it('REST detail and list, and the lead.created webhook, carry the same value and priority', async () => {
    const f = await firm();
    await createEndpoint(
      { ...t.services.delivery, allowPrivateHosts: [] },
      { accountId: f.account.id, url: 'https://hooks.smithlaw.com/svc', events: ['lead.created'] },
    );
    const leadId = await lead(f, { estateValue: 12_000_000, state: 'WA', dateOfDeath: '2026-08-01' });
    const detail = await (await t.get(`/v1/api/leads/${leadId}`, f.apiKey)).json();
    expect(detail.value).toEqual({
      figure: 'totalTax',
      label: 'Total estate tax',
      amount: detail.result.outputs.totalTax,
    });
    expect(detail.priority).toEqual({
      level: 'high',
      reasons: [
        expect.stringMatching(
          /^Estate of \$12M is \$9M over Washington’s \$3M exemption; about \$[\d.]+M in state tax at stake\.$/,
        ),
        'Estate of $12M is within $3M of the $15M federal exclusion.',
      ],
      ruleVersion: 'estate-tax.1',
    });
    const [listed] = (await (await t.get('/v1/api/leads', f.apiKey)).json()).data;
    expect(listed).toMatchObject({ value: detail.value, priority: detail.priority });
    const [event] = await t.database.db.select().from(outboxEvents).where(eq(outboxEvents.leadId, leadId));
    const data = (event!.payload as { data: Record<string, unknown> }).data;
    expect(data).toMatchObject({ value: detail.value, priority: detail.priority });
    // Stored as columns (sortable), not worked out again on read.
    const [row] = await t.database.db.select().from(leads).where(eq(leads.id, leadId));
    expect(row).toMatchObject({
      priorityRank: 3,
      priorityVersion: 'estate-tax.1',
      valueAmount: detail.value.amount,
    });
  });

  it('a lead without a calculation has neither (absent: not computed)', async () => {
    const f = await firm();
    const detail = await (await t.get(`/v1/api/leads/${await lead(f, null)}`, f.apiKey)).json();
    expect(detail).not.toHaveProperty('value');
    expect(detail).not.toHaveProperty('priority');
  });
});

describe('lost, with a reason, and back', () => {
  it('needs a reason, carries it in REST and lead.updated (with the previous status), audits it', async () => {
    const f = await firm();
    await createEndpoint(
      { ...t.services.delivery, allowPrivateHosts: [] },
      { accountId: f.account.id, url: 'https://hooks.smithlaw.com/svc', events: ['lead.updated'] },
    );
    const leadId = await lead(f, null);
    const patch = (body: unknown, key = f.apiKey) =>
      t.app.request(`/v1/api/leads/${leadId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const noReason = await patch({ status: 'lost' });
    expect(noReason.status).toBe(400);
    expect((await noReason.json()).error).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
    expect((await patch({ status: 'contacted', lostReason: 'other' })).status).toBe(400);
    expect((await patch({ status: 'lost', lostReason: 'moved_away' })).status).toBe(400);
    const readOnly = (await t.seed.apiKey(f.account.id, ['leads:read'])).apiKey;
    expect((await patch({ status: 'lost', lostReason: 'went_elsewhere' }, readOnly)).status).toBe(403);
    const lost = await patch({ status: 'lost', lostReason: 'went_elsewhere' });
    expect(lost.status).toBe(200);
    expect(await lost.json()).toMatchObject({ status: 'lost', lostReason: 'went_elsewhere' });
    const [event] = await t.database.db.select().from(outboxEvents).where(eq(outboxEvents.leadId, leadId));
    expect((event!.payload as { data: Record<string, unknown> }).data).toMatchObject({
      leadId,
      status: 'lost',
      lostReason: 'went_elsewhere',
      previousStatus: 'new',
    });
    // Lost → converted is not a move; a lost lead that comes back is contacted again, reason cleared.
    expect((await patch({ status: 'converted' })).status).toBe(409);
    const back = await (await patch({ status: 'contacted' })).json();
    expect(back.status).toBe('contacted');
    expect(back).not.toHaveProperty('lostReason');
    const listed = (await (await t.get('/v1/api/leads?status=contacted', f.apiKey)).json()).data;
    expect(listed.map((l: { leadId: string }) => l.leadId)).toEqual([leadId]);
  });
});

describe('notes', () => {
  it('leads:write writes, leads:read reads, another firm sees nothing; the trail has no text', async () => {
    const f = await firm();
    const other = await firm();
    const leadId = await lead(f, null);
    const post = (text: unknown, key = f.apiKey, id = leadId) =>
      t.app.request(`/v1/api/leads/${id}/notes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text }),
      });
    const first = await post('Left a voicemail Tuesday.');
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({
      id: expect.stringMatching(/^note_/),
      text: 'Left a voicemail Tuesday.',
      author: expect.stringMatching(/^apikey:/),
    });
    t.clock.advance(60_000);
    await post('Called back; meeting on the 12th.');
    const readOnly = (await t.seed.apiKey(f.account.id, ['leads:read'])).apiKey;
    expect((await post('No.', readOnly)).status).toBe(403);
    expect((await post('')).status).toBe(400);
    expect((await post('x'.repeat(4001))).status).toBe(400);
    expect((await post('Mine now.', other.apiKey)).status).toBe(404);
    const read = await (await t.get(`/v1/api/leads/${leadId}/notes`, readOnly)).json();
    expect(read.data.map((n: { text: string }) => n.text)).toEqual([
      'Left a voicemail Tuesday.',
      'Called back; meeting on the 12th.',
    ]);
    expect((await t.get(`/v1/api/leads/${leadId}/notes`, other.apiKey)).status).toBe(404);
    const trail = JSON.stringify(
      await t.database.db.select().from(auditEvents).where(eq(auditEvents.subject, leadId)),
    );
    expect(trail).toContain('lead.note_added');
    expect(trail).not.toContain('voicemail');
    // A data-subject export holds the notes about that person's leads.
    const exported = await exportSubject(
      { db: t.database.db, clock: t.clock },
      f.account.id,
      'ANA@example.com',
    );
    expect(exported.leadNotes.map((n) => n.body)).toEqual([
      'Left a voicemail Tuesday.',
      'Called back; meeting on the 12th.',
    ]);
  });
});

describe('search, sort and month over REST', () => {
  async function seeded() {
    const f = await firm();
    const base = Date.parse('2025-12-10T12:00:00Z');
    const names = ['Ana Ruiz', 'anabel Ko', 'Bob Stone', 'Zoë Ødegård', '50%_Off Spam', 'Carl Ng'];
    const rows = Array.from({ length: 24 }, (_, i) => {
      const at = new Date(base + i * 3 * 86_400_000);
      return {
        id: `lead_sort${String(i).padStart(2, '0')}${f.account.id.slice(-6)}`,
        accountId: f.account.id,
        calculator: 'estate-tax',
        name: names[i % names.length]!,
        email: `p${i}@${i % 2 ? 'example.com' : 'Firm.Example'}`,
        state: 'NY',
        status: 'new' as const,
        consentText: 'I agree.',
        consentedAt: at,
        createdAt: at,
        updatedAt: at,
        // Ties on purpose (every third value repeats), and every fifth lead not rated.
        valueAmount: i % 5 === 4 ? null : Math.floor(i / 3) * 1000,
        priorityRank: i % 5 === 4 ? null : (i % 3) + 1,
        priorityReasons: i % 5 === 4 ? null : ['r'],
        priorityVersion: i % 5 === 4 ? null : 'estate-tax.1',
      };
    });
    await t.database.db.insert(leads).values(rows);
    return { f, rows };
  }

  async function all(apiKey: string, query: string) {
    const out: {
      leadId: string;
      createdAt: string;
      value?: { amount: number };
      priority?: { level: string };
    }[] = [];
    let cursor: string | null = null;
    let first: Record<string, unknown> | undefined;
    do {
      const res = await t.get(
        `/v1/api/leads?limit=5&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        apiKey,
      );
      expect(res.status).toBe(200);
      const page = await res.json();
      first ??= page;
      out.push(...page.data);
      cursor = page.nextCursor;
    } while (cursor);
    return { rows: out, total: first!.totalMatching };
  }

  it('sort=value and sort=priority page through every lead once, highest first, unrated last, cursors carrying the key', async () => {
    const { f, rows } = await seeded();
    const byValue = await all(f.apiKey, 'sort=value');
    const expected = [...rows]
      .sort(
        (a, b) =>
          (b.valueAmount ?? -1) - (a.valueAmount ?? -1) ||
          b.createdAt.getTime() - a.createdAt.getTime() ||
          (a.id < b.id ? 1 : -1),
      )
      .map((r) => r.id);
    expect(byValue.rows.map((r) => r.leadId)).toEqual(expected);
    expect(byValue.total).toBe(24);
    const byPriority = await all(f.apiKey, 'sort=priority');
    const ranks = byPriority.rows.map((r) => r.priority?.level ?? 'not rated');
    expect(new Set(byPriority.rows.map((r) => r.leadId)).size).toBe(24);
    expect(ranks.indexOf('medium')).toBeGreaterThan(ranks.lastIndexOf('high'));
    expect(ranks.indexOf('not rated')).toBeGreaterThan(ranks.lastIndexOf('low'));
    // A cursor of one sort does not continue another.
    const page = await (await t.get('/v1/api/leads?limit=5&sort=value', f.apiKey)).json();
    const crossed = await t.get(
      `/v1/api/leads?limit=5&sort=priority&cursor=${encodeURIComponent(page.nextCursor)}`,
      f.apiKey,
    );
    expect(crossed.status).toBe(400);
  });

  it('q matches the start of a name or an e-mail, any case; % and _ are plain characters', async () => {
    const { f } = await seeded();
    const names = async (q: string) =>
      [
        ...new Set(
          (await all(f.apiKey, `q=${encodeURIComponent(q)}`)).rows.map(
            (r) => (r as unknown as { name: string }).name,
          ),
        ),
      ].sort();
    expect(await names('ANA')).toEqual(['Ana Ruiz', 'anabel Ko']);
    expect(await names('zoë')).toEqual(['Zoë Ødegård']);
    expect(await names('ruiz')).toEqual([]);
    expect(await names('50%_')).toEqual(['50%_Off Spam']);
    expect(await names('5_%')).toEqual([]);
    // A sorted search (few matches: read through the search indexes and sorted) pages in order.
    const sorted = (await all(f.apiKey, 'q=an&sort=value')).rows;
    expect(sorted).toHaveLength(8);
    const amounts = sorted.map((r) => r.value?.amount ?? -1);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    expect((await all(f.apiKey, 'q=an&sort=priority')).rows.map((r) => r.leadId).sort()).toEqual(
      sorted.map((r) => r.leadId).sort(),
    );
    expect((await all(f.apiKey, 'q=p1@example.COM')).rows).toHaveLength(1);
    expect((await all(f.apiKey, 'q=p2@firm.')).rows).toHaveLength(1);
  });

  it('a search counts each lead once, whether its name, its e-mail or both match, exact up to 1,000', async () => {
    const f = await firm();
    const at = new Date('2026-01-05T12:00:00Z');
    const row = (i: number, name: string, email: string) => ({
      id: `lead_count${String(i).padStart(4, '0')}${f.account.id.slice(-6)}`,
      accountId: f.account.id,
      calculator: 'estate-tax',
      name,
      email,
      state: 'NY',
      status: 'new' as const,
      consentText: 'I agree.',
      consentedAt: at,
      createdAt: new Date(at.getTime() - i * 1000),
      updatedAt: at,
    });
    // 700 whose name and e-mail both start with "kim", 200 whose e-mail only, 150 whose name only,
    // 30 neither; then "kim" is 1,050 leads (capped) and "kim.both" 700 (exact, not 1,400).
    const rows = [
      ...Array.from({ length: 700 }, (_, i) => row(i, `Kim Both ${i}`, `kim.both${i}@example.com`)),
      ...Array.from({ length: 200 }, (_, i) => row(700 + i, `Lee ${i}`, `kim.mail${i}@example.com`)),
      ...Array.from({ length: 150 }, (_, i) => row(900 + i, `Kimberly ${i}`, `k${i}@example.com`)),
      ...Array.from({ length: 30 }, (_, i) => row(1050 + i, `Ola ${i}`, `ola${i}@example.com`)),
    ];
    await t.database.db.insert(leads).values(rows);
    const total = async (query: string) => {
      const page = await (await t.get(`/v1/api/leads?limit=1&${query}`, f.apiKey)).json();
      return [page.totalMatching, page.totalMatchingCapped];
    };
    expect(await total('q=kim')).toEqual([1000, true]);
    expect(await total('q=KIM.both')).toEqual([700, false]);
    expect(await total('q=kim%20both')).toEqual([700, false]);
    expect(await total('q=kim.mail')).toEqual([200, false]);
    expect(await total('q=kimb')).toEqual([150, false]);
    expect(await total('q=kim.')).toEqual([900, false]);
    expect(await total('q=o')).toEqual([30, false]);
    expect(await total('q=kimberly%201&status=contacted')).toEqual([0, false]);
    expect(await total('q=kimberly%201')).toEqual([61, false]); // 1, 10-19, 100-149
  });

  it('month=YYYY-MM takes the calendar month (UTC); with createdFrom it is refused', async () => {
    const { f, rows } = await seeded();
    const march = await all(f.apiKey, 'month=2026-02');
    expect(march.total).toBe(rows.filter((r) => r.createdAt.toISOString().startsWith('2026-02')).length);
    expect(march.rows.every((r) => r.createdAt.startsWith('2026-02'))).toBe(true);
    const refused = await t.get('/v1/api/leads?month=2026-02&createdFrom=2026-03-01', f.apiKey);
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.message).toContain('month');
    expect((await t.get('/v1/api/leads?month=2026-13', f.apiKey)).status).toBe(400);
  });
});
