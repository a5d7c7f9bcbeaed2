import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectCode, pkceChallenge } from '../../domain/activation/connect-codes.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const refresh = (refreshToken: string, siteDomain = 'smithlaw.com') =>
  t.json('/v1/api/licenses/refresh', { refreshToken, siteDomain });
const statusOf = (accessJwt: string) => t.get('/v1/api/licenses/status', accessJwt);

async function activated() {
  const firm = await t.seed.firm();
  const set = await (
    await t.json('/v1/api/licenses/activate', { licenseKey: firm.licenseKey, siteDomain: 'smithlaw.com' })
  ).json();
  return { ...firm, set };
}

async function codeOf(res: Response) {
  return (await res.json()).error?.code;
}

describe('POST /v1/api/licenses/refresh', () => {
  it('rotates on every use', async () => {
    const { set } = await activated();
    t.clock.advance(60_000);
    const next = await (await refresh(set.refreshToken)).json();
    expect(next.refreshToken).not.toBe(set.refreshToken);
    expect(next.accessJwt).not.toBe(set.accessJwt);
    expect((await statusOf(next.accessJwt)).status).toBe(200);
    const third = await refresh(next.refreshToken);
    expect(third.status).toBe(200);
  });

  it('answers a retry of the just-used token within the window with the same pair', async () => {
    const { set } = await activated();
    const first = await (await refresh(set.refreshToken)).json();
    t.clock.advance(10_000);
    const retry = await refresh(set.refreshToken);
    expect(retry.status).toBe(200);
    const second = await retry.json();
    expect(second.refreshToken).toBe(first.refreshToken);
    expect(second.accessJwt).toBe(first.accessJwt);
    expect((await refresh(first.refreshToken)).status).toBe(200);
  });

  it('treats reuse after the window as theft and revokes the whole family', async () => {
    const { set } = await activated();
    const next = await (await refresh(set.refreshToken)).json();
    t.clock.advance(31_000);
    const reuse = await refresh(set.refreshToken);
    expect(reuse.status).toBe(400);
    expect(await codeOf(reuse)).toBe('INVALID_GRANT');
    expect(await codeOf(await refresh(next.refreshToken))).toBe('INVALID_GRANT');
    expect((await statusOf(next.accessJwt)).status).toBe(401);
  });

  it('refuses another site domain without revoking the family', async () => {
    const { set } = await activated();
    const clone = await refresh(set.refreshToken, 'staging.smithlaw.com');
    expect(clone.status).toBe(400);
    expect(await codeOf(clone)).toBe('INVALID_GRANT');
    expect((await refresh(set.refreshToken)).status).toBe(200);
  });

  it('rotates once when two requests race with the same token', async () => {
    const { set } = await activated();
    const [a, b] = await Promise.all([refresh(set.refreshToken), refresh(set.refreshToken)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const [x, y] = [await a.json(), await b.json()];
    // One rotation happened: both answers carry the single child pair, and it stays usable.
    expect(x.refreshToken).toBe(y.refreshToken);
    expect((await refresh(x.refreshToken)).status).toBe(200);
  });

  it('refuses unknown and expired refresh tokens', async () => {
    expect(await codeOf(await refresh('svc_rt_doesnotexist'))).toBe('INVALID_GRANT');
    const { set } = await activated();
    const start = t.clock.now();
    t.clock.advance(61 * 86_400_000);
    expect(await codeOf(await refresh(set.refreshToken))).toBe('INVALID_GRANT');
    t.clock.set(start);
  });
});

describe('POST /v1/api/licenses/exchange', () => {
  const redirectUri = 'https://smithlaw.com/wp-admin/admin.php?page=svc';

  async function code(overrides: { siteDomain?: string } = {}) {
    const firm = await t.seed.firm();
    const codeVerifier = randomBytes(32).toString('base64url');
    const { code } = await createConnectCode(t.services.licensing, {
      licenseId: firm.license.id,
      redirectUri,
      codeChallenge: pkceChallenge(codeVerifier),
      siteDomain: overrides.siteDomain ?? 'smithlaw.com',
    });
    return { ...firm, code, codeVerifier };
  }

  const exchange = (body: Record<string, unknown>) => t.json('/v1/api/licenses/exchange', body);

  it('trades a code and its PKCE verifier for an admin-scope token set', async () => {
    const c = await code();
    const res = await exchange({
      code: c.code,
      codeVerifier: c.codeVerifier,
      redirectUri,
      siteDomain: 'smithlaw.com',
    });
    expect(res.status).toBe(200);
    const set = await res.json();
    expect(set.scope).toBe('site admin');
    expect((await statusOf(set.accessJwt)).status).toBe(200);
    // The admin scope survives rotation.
    expect((await (await refresh(set.refreshToken)).json()).scope).toBe('site admin');
  });

  it('refuses a reused code and revokes what the first use produced', async () => {
    const c = await code();
    const body = { code: c.code, codeVerifier: c.codeVerifier, redirectUri, siteDomain: 'smithlaw.com' };
    const set = await (await exchange(body)).json();
    const again = await exchange(body);
    expect(again.status).toBe(400);
    expect(await codeOf(again)).toBe('INVALID_GRANT');
    expect((await statusOf(set.accessJwt)).status).toBe(401);
    expect(await codeOf(await refresh(set.refreshToken))).toBe('INVALID_GRANT');
  });

  it.each([
    ['a wrong verifier', { codeVerifier: randomBytes(32).toString('base64url') }],
    ['another redirect URI', { redirectUri: 'https://evil.example/cb' }],
    ['another site domain', { siteDomain: 'blog.smithlaw.com' }],
  ])('refuses %s and burns the code', async (_name, change) => {
    const c = await code();
    const body = { code: c.code, codeVerifier: c.codeVerifier, redirectUri, siteDomain: 'smithlaw.com' };
    expect(await codeOf(await exchange({ ...body, ...change }))).toBe('INVALID_GRANT');
    expect(await codeOf(await exchange(body))).toBe('INVALID_GRANT');
  });

  it('requires the verifier', async () => {
    const c = await code();
    const res = await exchange({ code: c.code, redirectUri, siteDomain: 'smithlaw.com' });
    expect(res.status).toBe(400);
    expect(await codeOf(res)).toBe('INVALID_REQUEST');
  });

  it('lets a code live 60 seconds', async () => {
    const c = await code();
    t.clock.advance(61_000);
    const res = await exchange({
      code: c.code,
      codeVerifier: c.codeVerifier,
      redirectUri,
      siteDomain: 'smithlaw.com',
    });
    expect(await codeOf(res)).toBe('INVALID_GRANT');
  });

  it('is single use even when redeemed twice at once: no usable tokens come out of a reused code', async () => {
    const c = await code();
    const body = { code: c.code, codeVerifier: c.codeVerifier, redirectUri, siteDomain: 'smithlaw.com' };
    const results = await Promise.all([exchange(body), exchange(body)]);
    expect(results.filter((r) => r.status === 400).length).toBeGreaterThanOrEqual(1);
    for (const res of results.filter((r) => r.status === 200)) {
      expect((await statusOf((await res.json()).accessJwt)).status).toBe(401);
    }
  });
});

describe('ACCESS_TOKEN_TTL_SECONDS', () => {
  it('shortens the access token a site gets, and nothing else', async () => {
    const { createTestContext } = await import('../../test-support/services.ts');
    const short = await createTestContext();
    try {
      short.services.licensing.accessTokenTtlMs = 20_000;
      const { licenseKey } = await short.seed.firm();
      const set = await (
        await short.json('/v1/api/licenses/activate', { licenseKey, siteDomain: 'smithlaw.com' })
      ).json();
      expect(set.expiresIn).toBe(20);
      // Past the lifetime and the verifier’s clock tolerance.
      short.clock.advance(20_000 + 120_000);
      expect((await short.get('/v1/api/licenses/status', set.accessJwt)).status).toBe(401);
    } finally {
      await short.close();
    }
  });
});
