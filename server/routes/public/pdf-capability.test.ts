import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const ORIGIN = 'https://smithlaw.com';
const openSession = async (publishableKey: string, currentToken?: string) =>
  (
    await (
      await t.json(
        '/v1/api/license/activate',
        { licenseKey: publishableKey, ...(currentToken ? { currentToken } : {}) },
        { origin: ORIGIN },
      )
    ).json()
  ).token as string;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const compute = async (token: string) =>
  (
    await (
      await t.json(
        '/v1/api/calc/estimate',
        { calculator: 'executor-commission', inputs: { estateValue: 2_000_000 } },
        bearer(token),
      )
    ).json()
  ).resultId as string;
const pdf = async (token: string, resultId: string) =>
  (await t.json('/v1/api/pdf/generate', { resultId }, bearer(token))).status;
const siteToken = async (licenseKey: string, siteDomain = 'smithlaw.com') =>
  (await (await t.json('/v1/api/licenses/activate', { licenseKey, siteDomain })).json()).accessJwt as string;

describe('PDF capability', () => {
  it('attack: a result id plus any other embed token of the license no longer downloads the PDF', async () => {
    const firm = await t.seed.firm();
    const visitor = await openSession(firm.publishableKey);
    const resultId = await compute(visitor);
    const attacker = await openSession(firm.publishableKey);
    expect(await pdf(attacker, resultId)).toBe(404);
    expect(await pdf(visitor, resultId)).toBe(200);
  });

  it('the embed session keeps its PDFs across a renewal', async () => {
    const firm = await t.seed.firm();
    const first = await openSession(firm.publishableKey);
    const resultId = await compute(first);
    const renewed = await openSession(firm.publishableKey, first);
    expect(await pdf(renewed, resultId)).toBe(200);
  });

  it('site tokens keep PDFs of results their own activation computed', async () => {
    const firm = await t.seed.firm();
    const site = await siteToken(firm.licenseKey);
    const resultId = await compute(site);
    expect(await pdf(site, resultId)).toBe(200);
    // Same activation (same domain, a new family): still its result.
    expect(await pdf(await siteToken(firm.licenseKey), resultId)).toBe(200);
    expect(await pdf(await siteToken(firm.licenseKey, 'blog.smithlaw.com'), resultId)).toBe(404);
    // An embed session of the same site did not compute it.
    expect(await pdf(await openSession(firm.publishableKey), resultId)).toBe(404);
  });

  it('admin credentials: API keys with leads:read, not a billing-only key', async () => {
    const firm = await t.seed.firm();
    const resultId = await compute(await openSession(firm.publishableKey));
    expect(await pdf((await t.seed.apiKey(firm.account.id, ['leads:read'])).apiKey, resultId)).toBe(200);
    expect(await pdf((await t.seed.apiKey(firm.account.id, ['billing'])).apiKey, resultId)).toBe(404);
    const other = await t.seed.firm();
    expect(await pdf((await t.seed.apiKey(other.account.id)).apiKey, resultId)).toBe(404);
  });
});
