import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculationResults, leads } from '../../db/engine/schema.ts';
import { seedDemo } from '../../domain/demo/seed.ts';
import { createTestDatabase } from '../../test-support/db.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
let keyCounter = 0;

async function sessionAt(publishableKey: string, origin: string) {
  return (await (await t.json('/v1/api/license/activate', { licenseKey: publishableKey }, { origin })).json())
    .token as string;
}

async function submit(token: string, name: string) {
  const res = await t.json(
    '/v1/api/leads',
    { calculator: 'rmd', name, email: 'v@example.com', state: 'NY', consent: true },
    { ...bearer(token), 'idempotency-key': `test-mode-key-${keyCounter++}` },
  );
  expect(res.status).toBe(201);
  return (await res.json()).leadId as string;
}

describe('test mode', () => {
  it('attack: leads from a development host (Origin: http://spam.localhost) stay out of the firm’s lead list', async () => {
    const firm = await t.seed.firm();
    const spam = await sessionAt(firm.publishableKey, 'http://spam.localhost');
    const live = await sessionAt(firm.publishableKey, 'https://smithlaw.com');
    const result = await (
      await t.json(
        '/v1/api/calc/estimate',
        { calculator: 'rmd', inputs: { balance: 500_000, age: 75 } },
        bearer(spam),
      )
    ).json();
    const [row] = await t.database.db
      .select()
      .from(calculationResults)
      .where(eq(calculationResults.id, result.resultId));
    expect(row).toMatchObject({ test: true });
    for (let i = 0; i < 3; i++) await submit(spam, `Spam ${i}`);
    const realId = await submit(live, 'Real Visitor');

    const { apiKey } = await t.seed.apiKey(firm.account.id, ['leads:read']);
    const list = await (await t.get('/v1/api/leads', apiKey)).json();
    expect(list.data.map((l: { leadId: string }) => l.leadId)).toEqual([realId]);
    expect(list.hiddenTest).toBe(3);
    const all = await (await t.get('/v1/api/leads?includeTest=true', apiKey)).json();
    expect(all.data).toHaveLength(4);
    expect(all.data.filter((l: { test: boolean }) => l.test)).toHaveLength(3);
    expect(all.hiddenTest).toBe(0);
  });

  it('the demo data that npm start seeds is live data', async () => {
    const database = await createTestDatabase();
    try {
      const ctx = await createTestContext({}, database);
      await seedDemo(ctx.services.licensing, ctx.services.secretKey);
      const rows = await database.db.select().from(leads);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.test === false && r.quarantinedAt === null)).toBe(true);
    } finally {
      await database.close();
    }
  });
});
