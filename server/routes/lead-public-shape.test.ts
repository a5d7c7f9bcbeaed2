import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads } from '../db/schema.ts';
import { createTestContext, type TestContext } from '../test-support/services.ts';

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
  const { apiKey } = await t.seed.apiKey(f.account.id);
  return { ...f, embed, apiKey };
}

const leadBody = (overrides: Record<string, unknown> = {}) => ({
  calculator: 'estate-tax',
  name: 'Zoë Ødegård',
  email: 'zoe@example.com',
  state: 'NY',
  consent: true,
  ...overrides,
});

async function postLead(embed: string, key: string, body: unknown) {
  const res = await t.json('/v1/api/leads', body, {
    authorization: `Bearer ${embed}`,
    'idempotency-key': key,
  });
  expect(res.status).toBe(201);
  return (await res.json()).leadId as string;
}

describe('the lead’s public shape (REST)', () => {
  it('carries its consent: version, exact text, SHA-256 of the text, when, and the page', async () => {
    const f = await firm();
    const leadId = await postLead(f.embed, 'shape-consent-1', leadBody());
    // The page is written by the lead submission (the loader reports it); here straight into the row.
    await t.database.db
      .update(leads)
      .set({ page: 'https://smithlaw.com/estate-planning' })
      .where(eq(leads.id, leadId));
    const [view] = (await (await t.get('/v1/api/leads', f.apiKey)).json()).data;
    expect(view.consent).toEqual({
      versionId: view.consentVersionId,
      text: view.consentText,
      sha256: createHash('sha256').update(view.consentText, 'utf8').digest('hex'),
      agreedAt: view.consentedAt,
      page: 'https://smithlaw.com/estate-planning',
    });
    expect(view.consent.versionId).toMatch(/^cv_/);
  });
});
