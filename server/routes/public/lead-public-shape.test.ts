import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads, outboxEvents } from '../../db/engine/schema.ts';
import { publishConsentText } from '../../domain/accounts/consent.ts';
import { createEndpoint } from '../../domain/delivery/endpoints.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const ORIGIN = 'https://smithlaw.com';

async function firm() {
  const f = await t.seed.firm();
  const embed = await t.embedSession(f.publishableKey, ORIGIN);
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
      // Written straight into the row, not through intake's origin check.
      pageVerified: null,
      // This lead named no consent version (as older widgets do).
      assumed: true,
      language: 'en',
    });
    expect(view.consent.versionId).toMatch(/^cv_/);
  });
});

const calc = async (embed: string) => {
  const res = await t.json(
    '/v1/api/calc/estimate',
    { calculator: 'estate-tax', state: 'NY', inputs: { estateValue: 8_000_000, state: 'NY' } },
    { authorization: `Bearer ${embed}` },
  );
  expect(res.status).toBe(200);
  return (await res.json()).resultId as string;
};

const session = async (publishableKey: string) =>
  (await (
    await t.json('/v1/api/license/activate', { licenseKey: publishableKey }, { origin: ORIGIN })
  ).json()) as {
    token: string;
    consent: { versionId: string; text: string; sha256: string };
  };

describe('consent has one source', () => {
  it('the embed session hands out the firm’s current consent version: id, text and its SHA-256', async () => {
    const f = await firm();
    const { consent } = await session(f.publishableKey);
    expect(consent.versionId).toMatch(/^cv_/);
    // Firms that never wrote their own text get the default, which names e-mail and phone.
    expect(consent.text).toBe(
      'I agree that Smith & Søn Estate Law may contact me by e-mail or by phone about my enquiry, and may keep the details I entered for that purpose.',
    );
    expect(consent.sha256).toBe(createHash('sha256').update(consent.text, 'utf8').digest('hex'));
    await publishConsentText(t.services.licensing, f.account.id, 'Smith & Søn may call or e-mail me.');
    const again = await session(f.publishableKey);
    expect(again.consent.text).toBe('Smith & Søn may call or e-mail me.');
    expect(again.consent.versionId).not.toBe(consent.versionId);
  });

  it('stores the version the widget named, even when a newer one was published meanwhile', async () => {
    const f = await firm();
    const seen = (await session(f.publishableKey)).consent;
    await publishConsentText(
      t.services.licensing,
      f.account.id,
      'A newer text, published while the visitor read.',
    );
    const leadId = await postLead(f.embed, 'consent-stale-1', leadBody({ consentVersionId: seen.versionId }));
    const view = await (await t.get(`/v1/api/leads/${leadId}`, f.apiKey)).json();
    expect(view.consent).toMatchObject({
      versionId: seen.versionId,
      text: seen.text,
      sha256: seen.sha256,
      assumed: false,
    });
  });

  it('an older widget that names no version gets the current one, marked as assumed', async () => {
    const f = await firm();
    const current = (await session(f.publishableKey)).consent;
    const leadId = await postLead(
      f.embed,
      'consent-none-1',
      leadBody({ consentText: 'Whatever the page said.' }),
    );
    const view = await (await t.get(`/v1/api/leads/${leadId}`, f.apiKey)).json();
    expect(view.consent).toMatchObject({ versionId: current.versionId, text: current.text, assumed: true });
  });

  it.each([
    ['another firm’s version', 'foreign'],
    ['an unknown version', 'cv_00000000000000000000000000'],
    ['an empty id', ''],
    ['an id longer than 64', 'x'.repeat(65)],
  ])('refuses %s with 400 in the standard error shape', async (_, id) => {
    const f = await firm();
    const other = await firm();
    const versionId = id === 'foreign' ? (await session(other.publishableKey)).consent.versionId : id;
    const res = await t.json('/v1/api/leads', leadBody({ consentVersionId: versionId }), {
      authorization: `Bearer ${f.embed}`,
      'idempotency-key': `consent-bad-${id.length}-${Math.random()}`,
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
    expect(JSON.stringify(body)).not.toContain('Søn may');
  });
});

describe('the lead carries its figures', () => {
  it('REST list and detail, and the lead.created webhook, carry result { id, calculator, state, inputs, outputs, headline, headlineCode }', async () => {
    const f = await firm();
    await createEndpoint(
      { ...t.services.delivery, allowPrivateHosts: [] },
      { accountId: f.account.id, url: 'https://hooks.smithlaw.com/svc', events: ['lead.created'] },
    );
    const resultId = await calc(f.embed);
    const leadId = await postLead(f.embed, 'figures-1', leadBody({ resultId }));
    const expected = {
      id: resultId,
      calculator: 'estate-tax',
      state: 'NY',
      inputs: expect.objectContaining({ estateValue: 8_000_000, state: 'NY' }),
      outputs: expect.objectContaining({ stateTax: expect.any(Number), totalTax: expect.any(Number) }),
      headline: expect.stringMatching(/^Total estate tax: \$[\d,]+\.\d\d$/),
      headlineCode: {
        code: 'estate-tax.headline.totalTax',
        params: { amount: expect.stringMatching(/^\$[\d,]+\.\d\d$/) },
      },
    };
    const detail = await (await t.get(`/v1/api/leads/${leadId}`, f.apiKey)).json();
    expect(detail.result).toEqual(expected);
    const [listed] = (await (await t.get('/v1/api/leads', f.apiKey)).json()).data;
    expect(listed.result).toEqual(expected);
    const [event] = await t.database.db.select().from(outboxEvents).where(eq(outboxEvents.leadId, leadId));
    const data = (event!.payload as { data: Record<string, unknown> }).data;
    expect(data.result).toEqual(expected);
    expect(data.consent).toEqual(detail.consent);
    // Additive: the keys the payload had stay.
    expect(data).toMatchObject({ leadId, resultId, consentText: detail.consentText });
  });

  it('a lead without a calculation has result null', async () => {
    const f = await firm();
    const leadId = await postLead(f.embed, 'figures-none', leadBody());
    expect((await (await t.get(`/v1/api/leads/${leadId}`, f.apiKey)).json()).result).toBeNull();
  });
});

describe('GET /v1/api/results/{id}', () => {
  it('returns the firm’s result as data; another firm’s id is 404 like an unknown one', async () => {
    const f = await firm();
    const other = await firm();
    const resultId = await calc(f.embed);
    const res = await t.get(`/v1/api/results/${resultId}`, f.apiKey);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: resultId,
      calculator: 'estate-tax',
      state: 'NY',
      inputs: { estateValue: 8_000_000, state: 'NY' },
      outputs: expect.objectContaining({ stateTax: expect.any(Number) }),
      headline: expect.any(String),
      test: false,
    });
    for (const [id, key] of [
      [resultId, other.apiKey],
      ['res_unknown', f.apiKey],
    ] as const) {
      const refused = await t.get(`/v1/api/results/${id}`, key);
      expect(refused.status).toBe(404);
      expect((await refused.json()).error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    }
    // Another firm's lead is 404 too.
    const leadId = await postLead(f.embed, 'iso-lead-1', leadBody({ resultId }));
    expect((await t.get(`/v1/api/leads/${leadId}`, other.apiKey)).status).toBe(404);
  });

  it('needs an admin credential with leads:read', async () => {
    const f = await firm();
    const resultId = await calc(f.embed);
    expect((await t.get(`/v1/api/results/${resultId}`, f.embed)).status).toBe(401);
    const { apiKey } = await t.seed.apiKey(f.account.id, ['billing']);
    const res = await t.get(`/v1/api/results/${resultId}`, apiKey);
    expect(res.status).toBe(403);
  });
});
