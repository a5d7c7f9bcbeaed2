import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectScopeOf, createConnectCode, pkceChallenge } from '../domain/activation/connect-codes.ts';
import { createTestContext, type TestContext } from '../test-support/services.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

/** The whole Connect exchange for `site` (approval minted directly, as the consent page does). */
async function connect(site: string) {
  const firm = await t.seed.firm();
  const codeVerifier = randomBytes(32).toString('base64url');
  const redirectUri = `http://${site}/wp-admin/admin.php?page=svc`;
  const { code } = await createConnectCode(t.services.licensing, {
    licenseId: firm.license.id,
    redirectUri,
    codeChallenge: pkceChallenge(codeVerifier),
    siteDomain: site,
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
