import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rollLicenseKey } from '../../domain/licensing/keys.ts';
import { revokeLicense } from '../../domain/licensing/licenses.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const activate = (licenseKey: string, siteDomain = 'smithlaw.com') =>
  t.json('/v1/api/licenses/activate', { licenseKey, siteDomain });

async function expectError(res: Response, status: number, code: string) {
  const body = await res.json();
  expect({ status: res.status, code: body.error?.code, bodyStatus: body.error?.status }).toEqual({
    status,
    code,
    bodyStatus: status,
  });
  return body;
}

describe('POST /v1/api/licenses/activate', () => {
  it('returns a token set whose access JWT verifies against the published JWKS, independently of the server', async () => {
    const { licenseKey, license, account } = await t.seed.firm();
    const res = await activate(licenseKey, 'https://www.SmithLaw.com/estate-tax');
    expect(res.status).toBe(200);
    const set = await res.json();
    expect(set).toMatchObject({ tokenType: 'Bearer', scope: 'site', expiresIn: 900 });
    expect(set.refreshToken).toMatch(/^svc_rt_/);
    expect(set.expiresAt).toBe('2026-03-01T12:15:00.000Z');

    const jwks = await (await t.get('/.well-known/jwks.json')).json();
    expect(jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
    const { payload, protectedHeader } = await jwtVerify(set.accessJwt, createLocalJWKSet(jwks), {
      algorithms: ['EdDSA'],
      issuer: t.services.config.publicApiUrl,
      audience: 'svc-api',
      typ: 'at+jwt',
      currentDate: t.clock.now(),
    });
    expect(protectedHeader.kid).toBe(jwks.keys[0].kid);
    expect(payload).toMatchObject({ sub: license.id, acc: account.id, dom: 'smithlaw.com', scope: 'site' });
  });

  it('also answers on the unversioned alias', async () => {
    const { licenseKey } = await t.seed.firm();
    const res = await t.json('/api/licenses/activate', { licenseKey, siteDomain: 'smithlaw.com' });
    expect(res.status).toBe(200);
  });

  it('answers unknown, malformed, expired and revoked keys alike', async () => {
    const expired = await t.seed.firm({ paidThrough: new Date('2026-01-01T00:00:00Z') });
    const revoked = await t.seed.firm();
    await revokeLicense(t.services.licensing, revoked.license.id);
    const messages = new Set<string>();
    for (const key of [
      'SVC-00000-00000-00000-00000-00000-00000',
      'not-a-key',
      expired.licenseKey,
      revoked.licenseKey,
    ]) {
      const body = await expectError(await activate(key), 401, 'INVALID_LICENSE');
      messages.add(body.error.message);
    }
    expect(messages.size).toBe(1);
  });

  it('refuses a domain outside the allowed list', async () => {
    const { licenseKey } = await t.seed.firm();
    await expectError(await activate(licenseKey, 'evil.example'), 403, 'DOMAIN_NOT_ALLOWED');
    await expectError(await activate(licenseKey, 'smithlaw.com.evil.example'), 403, 'DOMAIN_NOT_ALLOWED');
  });

  it('refuses an unparsable domain and a bad body with field details', async () => {
    const { licenseKey } = await t.seed.firm();
    const body = await expectError(await activate(licenseKey, 'not a domain'), 400, 'INVALID_REQUEST');
    expect(body.error.details[0].path).toBe('siteDomain');
    await expectError(await t.json('/v1/api/licenses/activate', { licenseKey }), 400, 'INVALID_REQUEST');
  });

  it('counts seats per production domain: re-activation is free, development hosts are free, the next domain is refused', async () => {
    const { licenseKey } = await t.seed.firm({ seats: 1 });
    const first = await (await activate(licenseKey, 'smithlaw.com')).json();
    const again = await activate(licenseKey, 'www.smithlaw.com');
    expect(again.status).toBe(200);
    // Re-activation replaces the activation's refresh family.
    await expectError(
      await t.json('/v1/api/licenses/refresh', {
        refreshToken: first.refreshToken,
        siteDomain: 'smithlaw.com',
      }),
      400,
      'INVALID_GRANT',
    );
    expect((await activate(licenseKey, 'localhost:3000')).status).toBe(200);
    expect((await activate(licenseKey, 'staging.test')).status).toBe(200);
    await expectError(await activate(licenseKey, 'blog.smithlaw.com'), 409, 'SEATS_EXHAUSTED');
  });

  it('gives a seat back when a plugin revokes its token', async () => {
    const { licenseKey } = await t.seed.firm({ seats: 1 });
    const set = await (await activate(licenseKey, 'smithlaw.com')).json();
    const revoked = await t.json('/v1/api/licenses/revoke', { token: set.refreshToken });
    expect(revoked.status).toBe(200);
    expect((await t.get('/v1/api/licenses/status', set.accessJwt)).status).toBe(401);
    expect((await activate(licenseKey, 'blog.smithlaw.com')).status).toBe(200);
  });

  it('a dead token cannot revoke the live site: only a live token of a live family ends it', async () => {
    const { licenseKey } = await t.seed.firm({ seats: 1 });
    const first = await (await activate(licenseKey, 'smithlaw.com')).json();
    const second = await (await activate(licenseKey, 'smithlaw.com')).json();
    const refresh = (refreshToken: string) =>
      t.json('/v1/api/licenses/refresh', { refreshToken, siteDomain: 'smithlaw.com' });
    await expectError(await refresh(first.refreshToken), 400, 'INVALID_GRANT');
    // The old family's refresh and access tokens, and a rotated-away token of the live family.
    const third = await (await refresh(second.refreshToken)).json();
    for (const dead of [first.refreshToken, first.accessJwt, second.refreshToken]) {
      const res = await t.json('/v1/api/licenses/revoke', { token: dead });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ revoked: true });
      expect((await t.get('/v1/api/licenses/status', third.accessJwt)).status).toBe(200);
    }
    await expectError(await activate(licenseKey, 'blog.smithlaw.com'), 409, 'SEATS_EXHAUSTED');
    // The live refresh token still ends it.
    expect((await t.json('/v1/api/licenses/revoke', { token: third.refreshToken })).status).toBe(200);
    expect((await t.get('/v1/api/licenses/status', third.accessJwt)).status).toBe(401);
  });

  it('revoke always answers 200, also form-encoded and for unknown tokens', async () => {
    expect((await t.json('/v1/api/licenses/revoke', { token: 'svc_rt_unknown' })).status).toBe(200);
    const form = await t.app.request('/v1/api/licenses/revoke', {
      method: 'POST',
      body: 'token=whatever&token_type_hint=refresh_token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(200);
    const { licenseKey } = await t.seed.firm();
    const set = await (await activate(licenseKey)).json();
    expect((await t.json('/v1/api/licenses/revoke', { token: set.accessJwt })).status).toBe(200);
    expect((await t.get('/v1/api/licenses/status', set.accessJwt)).status).toBe(401);
  });
});

describe('GET /v1/api/licenses/status', () => {
  it('answers the current publishable key, the rolled one at once, and never the secret key', async () => {
    const f = await t.seed.firm();
    const set = await (await activate(f.licenseKey)).json();
    const before = await (await t.get('/v1/api/licenses/status', set.accessJwt)).json();
    expect(before.publishableKey).toBe(f.publishableKey);
    expect(before.publishableKey).toMatch(/^svc_pk_/);
    expect(JSON.stringify(before)).not.toContain(f.licenseKey);
    const rolled = await rollLicenseKey(t.services.licensing, {
      licenseId: f.license.id,
      kind: 'publishable',
      overlapMs: 3_600_000,
    });
    const after = await (await t.get('/v1/api/licenses/status', set.accessJwt)).json();
    expect(after.publishableKey).toBe(rolled.key);
    expect(after.publishableKey).not.toBe(f.publishableKey);
  });

  it('walks trial → active → grace → expired with the clock, and stops at revocation', async () => {
    const start = t.clock.now();
    try {
      const trial = await t.seed.firm({ trialDays: 14, paidThrough: undefined });
      let set = await (await activate(trial.licenseKey)).json();
      let status = await (await t.get('/v1/api/licenses/status', set.accessJwt)).json();
      expect(status).toEqual({
        status: 'trial',
        plan: 'pro',
        seats: 2,
        seatsUsed: 1,
        allowedDomains: ['smithlaw.com', '*.smithlaw.com'],
        expiresAt: '2026-03-15T12:00:00.000Z',
        trialEndsAt: '2026-03-15T12:00:00.000Z',
        overSeat: false,
        next: 'Trial ends 2026-03-15; widgets stop then unless the license is paid.',
        publishableKey: trial.publishableKey,
      });
      t.clock.set('2026-03-15T12:00:00Z');
      await expectError(await activate(trial.licenseKey), 401, 'INVALID_LICENSE');

      t.clock.set(start);
      const paid = await t.seed.firm({ paidThrough: new Date('2026-03-10T00:00:00Z') });
      set = await (await activate(paid.licenseKey)).json();
      status = await (await t.get('/v1/api/licenses/status', set.accessJwt)).json();
      expect(status).toMatchObject({
        status: 'active',
        expiresAt: '2026-03-10T00:00:00.000Z',
        graceEndsAt: '2026-03-17T00:00:00.000Z',
      });

      t.clock.set('2026-03-12T00:00:00Z');
      set = await (await activate(paid.licenseKey)).json();
      status = await (await t.get('/v1/api/licenses/status', set.accessJwt)).json();
      expect(status.status).toBe('grace');
      expect(status.next).toBe(
        'Payment is overdue since 2026-03-10; grace ends 2026-03-17; widgets stop then.',
      );

      // Tokens never outlive the grace period.
      t.clock.set('2026-03-16T23:55:00Z');
      set = await (await activate(paid.licenseKey)).json();
      expect(set.expiresAt).toBe('2026-03-17T00:00:00.000Z');

      t.clock.set('2026-03-17T00:00:00Z');
      await expectError(await activate(paid.licenseKey), 401, 'INVALID_LICENSE');
      await expectError(await t.get('/v1/api/licenses/status', set.accessJwt), 401, 'UNAUTHORIZED');
    } finally {
      t.clock.set(start);
    }
  });

  it('stops a revoked license’s access tokens at once', async () => {
    const { licenseKey, license } = await t.seed.firm();
    const set = await (await activate(licenseKey)).json();
    expect((await t.get('/v1/api/licenses/status', set.accessJwt)).status).toBe(200);
    await revokeLicense(t.services.licensing, license.id);
    const res = await t.get('/v1/api/licenses/status', set.accessJwt);
    await expectError(res, 401, 'UNAUTHORIZED');
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  it('refuses missing, expired, foreign-kind and tampered tokens', async () => {
    const { licenseKey, publishableKey } = await t.seed.firm({ domains: ['smithlaw.com', 'localhost'] });
    const set = await (await activate(licenseKey)).json();
    await expectError(await t.get('/v1/api/licenses/status'), 401, 'UNAUTHORIZED');
    await expectError(await t.get('/v1/api/licenses/status', 'garbage'), 401, 'UNAUTHORIZED');
    await expectError(
      await t.get('/v1/api/licenses/status', `${set.accessJwt.slice(0, -4)}AAAA`),
      401,
      'UNAUTHORIZED',
    );
    await expectError(await t.get('/v1/api/licenses/status', set.refreshToken), 401, 'UNAUTHORIZED');
    const embed = await (
      await t.json(
        '/v1/api/license/activate',
        { licenseKey: publishableKey },
        { origin: 'http://localhost:8789' },
      )
    ).json();
    expect(decodeProtectedHeader(embed.token).typ).toBe('embed+jwt');
    await expectError(await t.get('/v1/api/licenses/status', embed.token), 401, 'UNAUTHORIZED');
    const start = t.clock.now();
    t.clock.advance(16 * 60_000);
    await expectError(await t.get('/v1/api/licenses/status', set.accessJwt), 401, 'UNAUTHORIZED');
    t.clock.set(start);
  });
});
