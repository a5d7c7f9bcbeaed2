import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectScopeOf,
  createConnectCode,
  grantedScope,
  parseScopeParam,
  pkceChallenge,
} from '../../domain/activation/connect-codes.ts';
import type { Scope } from '../../domain/activation/token-set.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

/** The whole Connect exchange for `site` (approval minted directly, as the consent page does). */
async function connect(site: string, scope?: Scope) {
  const firm = await t.seed.firm();
  const codeVerifier = randomBytes(32).toString('base64url');
  const redirectUri = `http://${site}/wp-admin/admin.php?page=svc`;
  const { code } = await createConnectCode(t.services.licensing, {
    licenseId: firm.license.id,
    redirectUri,
    codeChallenge: pkceChallenge(codeVerifier),
    siteDomain: site,
    ...(scope ? { scope } : {}),
  });
  const res = await t.json('/v1/api/licenses/exchange', {
    code,
    codeVerifier,
    redirectUri,
    siteDomain: site,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { accessJwt: string; scope: string; refreshToken: string };
}

describe('connectScopeOf', () => {
  it.each([
    ['192.168.1.50', 'site'],
    ['10.1.2.3', 'site'],
    ['172.31.255.1', 'site'],
    ['169.254.0.1', 'site'],
    ['[fd12::1]', 'site'],
    ['[fe80::1]', 'site'],
    ['wp.test', 'site'],
    ['localhost', 'site admin'],
    ['dev.localhost', 'site admin'],
    ['127.0.0.1', 'site admin'],
    ['[::1]', 'site admin'],
    ['smithlaw.com', 'site admin'],
  ])('%s → %s', (host, scope) => {
    expect(connectScopeOf(host)).toBe(scope);
  });
});

describe('Connect for development hosts', () => {
  it.each(['192.168.1.50', '10.0.0.7', '172.20.1.1', '169.254.3.4', 'wp.test'])(
    'a private-network or *.test site (%s) gets site scope only: its token reads no leads',
    async (site) => {
      const set = await connect(site);
      expect(set.scope).toBe('site');
      expect((await t.get('/v1/api/licenses/status', set.accessJwt)).status).toBe(200);
      const leads = await t.get('/v1/api/leads', set.accessJwt);
      expect(leads.status).toBe(403);
      expect((await leads.json()).error.code).toBe('FORBIDDEN');
      // Nor does rotation widen it.
      const rotated = await t.json('/v1/api/licenses/refresh', {
        refreshToken: set.refreshToken,
        siteDomain: site,
      });
      expect((await rotated.json()).scope).toBe('site');
    },
  );

  it.each(['localhost', '127.0.0.1', '127.1.2.3'])(
    'a loopback site (%s) keeps admin access',
    async (site) => {
      const set = await connect(site);
      expect(set.scope).toBe('site admin');
      expect((await t.get('/v1/api/leads', set.accessJwt)).status).toBe(200);
    },
  );
});

describe('the scope a site asks for (issue 28)', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['site', 'site'],
    ['leads:read', 'site leads:read'],
    ['site leads:read', 'site leads:read'],
    ['leads:read site', 'site leads:read'],
    ['site admin', 'site admin'],
    ['billing', null],
    ['site leads:write', null],
    ['site  leads:read', 'site leads:read'],
    ['SITE', null],
  ])('scope=%j → %j', (param, scope) => {
    expect(parseScopeParam(param)).toBe(scope);
  });

  it.each([
    ['smithlaw.com', 'site leads:read', 'site leads:read'],
    ['smithlaw.com', 'site', 'site'],
    ['smithlaw.com', undefined, 'site admin'],
    ['127.0.0.1', 'site leads:read', 'site leads:read'],
    ['192.168.1.50', 'site leads:read', 'site'],
    ['192.168.1.50', 'site admin', 'site'],
  ] as const)('%s asking %j gets %j: never wider than the host may have', (host, asked, granted) => {
    expect(grantedScope(host, asked)).toBe(granted);
  });

  it('a "site leads:read" token reads leads and status, and may not change leads, read billing or widen on refresh', async () => {
    const set = await connect('127.0.0.1', 'site leads:read');
    expect(set.scope).toBe('site leads:read');
    expect((await t.get('/v1/api/licenses/status', set.accessJwt)).status).toBe(200);
    expect((await t.get('/v1/api/leads?includeTest=true', set.accessJwt)).status).toBe(200);
    const patch = await t.app.request('/v1/api/leads/lead_missing', {
      method: 'PATCH',
      headers: { authorization: `Bearer ${set.accessJwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'contacted' }),
    });
    expect(patch.status).toBe(403);
    expect((await patch.json()).error.code).toBe('FORBIDDEN');
    const billing = await t.json(
      '/v1/api/billing/customer-portal',
      {},
      { authorization: `Bearer ${set.accessJwt}` },
    );
    expect(billing.status).toBe(403);
    const rotated = await t.json('/v1/api/licenses/refresh', {
      refreshToken: set.refreshToken,
      siteDomain: '127.0.0.1',
    });
    expect((await rotated.json()).scope).toBe('site leads:read');
  });
});
