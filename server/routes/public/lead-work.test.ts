import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads, outboxEvents } from '../../db/engine/schema.ts';
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
