import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCalculator } from '../../../calculators/index.ts';
import { formatUsd } from '../../../calculators/money.ts';
import { AccountUpdateSchema, updateAccount } from '../../domain/accounts/settings.ts';
import { readPdf, renderPdfPage } from '../../test-support/pdf-reader.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

async function session(origin = 'https://smithlaw.com') {
  const firm = await t.seed.firm({ domains: ['smithlaw.com', 'other-site.com'] });
  const res = await t.json('/v1/api/license/activate', { licenseKey: firm.publishableKey }, { origin });
  return { ...firm, embed: (await res.json()).token as string };
}

const estimate = (token: string, body: unknown) =>
  t.json('/v1/api/calc/estimate', body, { authorization: `Bearer ${token}` });
const pdf = (token: string, resultId: string) =>
  t.json('/v1/api/pdf/generate', { resultId }, { authorization: `Bearer ${token}` });

describe('GET /v1/api/calculators', () => {
  it('lists every calculator with a JSON Schema of its inputs', async () => {
    const body = await (await t.get('/v1/api/calculators')).json();
    expect(body.data.map((c: { slug: string }) => c.slug)).toEqual(
      expect.arrayContaining(['estate-tax', 'inheritance-tax', 'probate-fees', 'executor-commission', 'rmd']),
    );
    const estateTax = body.data.find((c: { slug: string }) => c.slug === 'estate-tax');
    expect(estateTax.inputSchema.type).toBe('object');
    expect(Object.keys(estateTax.inputSchema.properties)).toEqual(
      expect.arrayContaining(['estateValue', 'state']),
    );
  });
});

describe('POST /v1/api/calc/estimate', () => {
  it('computes on the server, equal to the calculator, and stores the result', async () => {
    const s = await session();
    const res = await estimate(s.embed, {
      calculator: 'estate-tax',
      state: 'NY',
      inputs: { estateValue: 16_000_000, state: 'CT' },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    const expected = runCalculator(
      'estate-tax',
      { estateValue: 16_000_000, state: 'NY' },
      { now: t.clock.now() },
    );
    if (!expected.ok) throw new Error('calculator refused valid input');
    expect(body).toMatchObject({ calculator: 'estate-tax', state: 'NY', outputs: expected.result.outputs });
    expect(body.outputs.totalTax).toBe(body.outputs.federalTax + body.outputs.stateTax);
    expect(body.resultId).toMatch(/^res_/);
    expect(body.disclaimer).toMatch(/not legal or tax advice/i);
    expect(body.ruleSet).toHaveProperty('effectiveDate');
  });

  it('gives field-level errors for bad inputs and unknown calculators', async () => {
    const s = await session();
    const bad = await (
      await estimate(s.embed, { calculator: 'estate-tax', inputs: { estateValue: -5, state: 'NY' } })
    ).json();
    expect(bad.error).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
    expect(bad.error.details.map((d: { path: string }) => d.path)).toContain('inputs.estateValue');
    const unknown = await (await estimate(s.embed, { calculator: 'nope', inputs: {} })).json();
    expect(unknown.error.details[0].path).toBe('calculator');
  });

  it('accepts a site access token from a firm’s server, but not an API key', async () => {
    const s = await session();
    const site = await (
      await t.json('/v1/api/licenses/activate', { licenseKey: s.licenseKey, siteDomain: 'smithlaw.com' })
    ).json();
    expect(
      (await estimate(site.accessJwt, { calculator: 'rmd', inputs: { balance: 500_000, age: 75 } })).status,
    ).toBe(200);
    const { apiKey } = await t.seed.apiKey(s.account.id);
    expect(
      (await estimate(apiKey, { calculator: 'rmd', inputs: { balance: 500_000, age: 75 } })).status,
    ).toBe(401);
  });
});

describe('POST /v1/api/pdf/generate', () => {
  it('renders a report whose figures are the computed ones', async () => {
    const s = await session();
    const result = await (
      await estimate(s.embed, {
        calculator: 'estate-tax',
        state: 'MA',
        inputs: { estateValue: 16_500_000.55 },
      })
    ).json();
    const res = await pdf(s.embed, result.resultId);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect((await renderPdfPage(bytes)).byteLength).toBeGreaterThan(5_000);
    const { text } = await readPdf(bytes);
    expect(text).toContain('Smith & Søn Estate Law');
    expect(text).not.toMatch(/Estimate \(no closed form\)|\[unverified\]/);
    for (const key of ['federalTax', 'stateTax', 'totalTax'])
      expect(text).toContain(formatUsd(result.outputs[key]));
    // The rules in words and "Rules as of" the date of death (as on the lead page); no rule-set id.
    expect(text).toContain('Estate tax Federal and Massachusetts rules for deaths in 2026');
    expect(text).toContain('RULES AS OF 1 March 2026');
    expect(text).toContain('Rules in force from 1 January 2026');
    expect(text).not.toContain(result.ruleSet.id);
    // The state by name, as the widget's select showed it; never the bare code.
    expect(text).toContain('State of residence Massachusetts');
    // Named for what it is and the day, not for an id.
    expect(res.headers.get('content-disposition')).toBe(
      'inline; filename="estate-tax-estimate-2026-03-01.pdf"',
    );
  });

  it('carries the firm’s contact details as saved in its settings, and its call to action on every page', async () => {
    const s = await session();
    await updateAccount(
      t.services.licensing,
      s.account.id,
      AccountUpdateSchema.parse({
        contact: {
          phone: '+1 617 555 0100',
          email: 'hello@smithlaw.com',
          website: 'smithlaw.com',
          address: 'One Beacon Street\nBoston, MA 02108',
          callToAction: 'Book a free call to plan what happens next',
          timeZone: 'America/New_York',
        },
      }),
      { actor: 'test' },
    );
    const result = await (
      await estimate(s.embed, { calculator: 'estate-tax', state: 'MA', inputs: { estateValue: 9_000_000 } })
    ).json();
    const { text, pageTexts } = await readPdf(
      new Uint8Array(await (await pdf(s.embed, result.resultId)).arrayBuffer()),
    );
    expect(text).toContain('+1 617 555 0100 · hello@smithlaw.com · smithlaw.com');
    expect(text).toContain(
      'NEXT STEP Book a free call to plan what happens next Smith & Søn Estate Law One Beacon Street Boston, MA 02108 Phone +1 617 555 0100 E-mail hello@smithlaw.com Web smithlaw.com',
    );
    for (const page of pageTexts)
      expect(page).toContain(
        'Book a free call to plan what happens next · +1 617 555 0100 · hello@smithlaw.com',
      );
    // The time zone is for the firm's mails, not the client's paper.
    expect(text).not.toContain('America/New_York');
  });

  it('is for the site that computed the result, or the firm’s admins; others get 404', async () => {
    const s = await session();
    const result = await (
      await estimate(s.embed, { calculator: 'executor-commission', inputs: { estateValue: 2_000_000 } })
    ).json();
    const otherSite = (
      await (
        await t.json(
          '/v1/api/license/activate',
          { licenseKey: s.publishableKey },
          { origin: 'https://other-site.com' },
        )
      ).json()
    ).token;
    expect((await pdf(otherSite, result.resultId)).status).toBe(404);
    const otherFirm = await session();
    expect((await pdf(otherFirm.embed, result.resultId)).status).toBe(404);
    const { apiKey } = await t.seed.apiKey(s.account.id);
    expect((await pdf(apiKey, result.resultId)).status).toBe(200);
    expect((await pdf(s.embed, 'res_doesnotexist')).status).toBe(404);
  });
});
