import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RulesCatalog } from '../../../calculators/estate-tax/rules-catalog.ts';
import { inviteMember } from '../../domain/accounts/members.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function viewerCookie() {
  const { account } = await ctx.seed.firm();
  const invited = await inviteMember(ctx.services.portal, {
    accountId: account.id,
    email: 'viewer@rules.example',
    role: 'viewer',
    invitedBy: null,
  });
  const token = new URL(invited.link).hash.replace('#token=', '');
  const res = await ctx.app.request('/v1/portal/auth/link', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ctx.services.config.publicPortalUrl },
    body: JSON.stringify({ token }),
  });
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}

describe('GET /v1/portal/rules', () => {
  it('needs a portal session', async () => {
    const res = await ctx.app.request('/v1/portal/rules');
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
  });

  it('gives any member every rule set with its figures, sources, dates checked and status', async () => {
    const res = await ctx.app.request('/v1/portal/rules', { headers: { cookie: await viewerCookie() } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as RulesCatalog;
    expect(body.coverage).toEqual({ from: '2026-01-01', to: '2027-12-31' });
    const wa = body.ruleSets.find((r) => r.id === 'WA-2026-07-01');
    expect(wa).toMatchObject({ covers: 'Deaths from 1 July to 31 December 2026', status: 'secondary' });
    expect(wa?.figures.every((f) => f.sources.every((s) => s.checked && s.title))).toBe(true);
  });
});
