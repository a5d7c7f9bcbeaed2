import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, leads, outboxEvents } from '../../db/engine/schema.ts';
import { createEndpoint } from '../../domain/delivery/endpoints.ts';
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
  const embed = (
    await (
      await t.json('/v1/api/license/activate', { licenseKey: f.publishableKey }, { origin: ORIGIN })
    ).json()
  ).token as string;
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
  });
});
