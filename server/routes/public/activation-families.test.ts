import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectCode, pkceChallenge } from '../../domain/activation/connect-codes.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';
import { createAdminRoutes } from '../admin/index.ts';

let t: TestContext;
const ADMIN = 'admin-token-for-activation-tests-0123456789';
const DAY = 86_400_000;
beforeAll(async () => {
  t = await createTestContext();
  t.app.route('/', createAdminRoutes(t.services, ADMIN));
});
afterAll(() => t.close());

const activate = (licenseKey: string, siteDomain = 'smithlaw.com') =>
  t.json('/v1/api/licenses/activate', { licenseKey, siteDomain });
const refresh = (refreshToken: string, siteDomain = 'smithlaw.com') =>
  t.json('/v1/api/licenses/refresh', { refreshToken, siteDomain });
const status = (token: string) => t.get('/v1/api/licenses/status', token);

async function connect(licenseId: string, siteDomain = 'smithlaw.com') {
  const verifier = 'w'.repeat(50);
  const { code } = await createConnectCode(t.services.licensing, {
    licenseId,
    redirectUri: 'https://smithlaw.com/cb',
    codeChallenge: pkceChallenge(verifier),
    siteDomain,
  });
  const res = await t.json('/v1/api/licenses/exchange', {
    code,
    codeVerifier: verifier,
    redirectUri: 'https://smithlaw.com/cb',
    siteDomain,
  });
  expect(res.status).toBe(200);
  return res.json();
}

async function withClock(fn: () => Promise<void>) {
  const start = t.clock.now();
  try {
    await fn();
  } finally {
    t.clock.set(start);
  }
}

describe('activation families', () => {
  it('attack: a site activation of the same domain no longer revokes the Connect login’s admin tokens', async () => {
    const firm = await t.seed.firm();
    const admin = await connect(firm.license.id);
    const site = await (await activate(firm.licenseKey)).json();
    const again = await (await activate(firm.licenseKey)).json();
    expect((await status(admin.accessJwt)).status).toBe(200);
    expect((await refresh(admin.refreshToken)).status).toBe(200);
    // Its own kind's family is replaced, as before.
    expect((await status(site.accessJwt)).status).toBe(401);
    expect((await status(again.accessJwt)).status).toBe(200);
  });

  it('a new Connect login replaces the admin family only, leaving the plugin’s site family', async () => {
    const firm = await t.seed.firm();
    const site = await (await activate(firm.licenseKey)).json();
    const first = await connect(firm.license.id);
    const second = await connect(firm.license.id);
    expect((await status(site.accessJwt)).status).toBe(200);
    expect((await status(first.accessJwt)).status).toBe(401);
    expect((await status(second.accessJwt)).status).toBe(200);
  });
});

describe('idle activations', () => {
  it('attack: an activation with no refresh for 60 days frees its seat and its family is revoked', async () => {
    await withClock(async () => {
      const firm = await t.seed.firm({ seats: 1 });
      const old = await (await activate(firm.licenseKey, 'old.smithlaw.com')).json();
      const blocked = await activate(firm.licenseKey, 'smithlaw.com');
      expect((await blocked.json()).error.code).toBe('SEATS_EXHAUSTED');

      t.clock.advance(60 * DAY);
      const shown = await (
        await t.app.request(`/admin/v1/licenses/${firm.license.id}`, {
          headers: { authorization: `Bearer ${ADMIN}` },
        })
      ).json();
      expect(shown.activations).toEqual([
        expect.objectContaining({ domain: 'old.smithlaw.com', idle: true }),
      ]);

      const fresh = await (await activate(firm.licenseKey, 'smithlaw.com')).json();
      expect(fresh.accessJwt).toBeTruthy();
      expect(await (await status(fresh.accessJwt)).json()).toMatchObject({ seats: 1, seatsUsed: 1 });
      expect((await refresh(old.refreshToken, 'old.smithlaw.com')).status).toBe(400);
    });
  });

  it('a refresh keeps an activation alive: the seat stays taken', async () => {
    await withClock(async () => {
      const firm = await t.seed.firm({ seats: 1 });
      let set = await (await activate(firm.licenseKey)).json();
      t.clock.advance(59 * DAY);
      set = await (await refresh(set.refreshToken)).json();
      t.clock.advance(59 * DAY);
      const other = await activate(firm.licenseKey, 'blog.smithlaw.com');
      expect(other.status).toBe(409);
      expect((await refresh(set.refreshToken)).status).toBe(200);
    });
  });
});
