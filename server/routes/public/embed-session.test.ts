import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountUpdateSchema, updateAccount } from '../../domain/accounts/settings.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const open = (licenseKey: string, origin?: string, body: Record<string, unknown> = {}) =>
  t.json('/v1/api/license/activate', { licenseKey, ...body }, origin ? { origin } : {});

describe('POST /v1/api/license/activate (embed sessions)', () => {
  it('binds a short-lived embed token to the license, the account and the page origin', async () => {
    const { publishableKey: licenseKey, license, account } = await t.seed.firm();
    const res = await open(licenseKey, 'https://www.smithlaw.com');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://www.smithlaw.com');
    const body = await res.json();
    expect(body.expiresAt).toBe('2026-03-01T12:10:00.000Z');
    expect(body.embedUrl).toBe(t.services.config.publicEmbedUrl);
    expect(body.calculators).toContain('estate-tax');
    expect(body.firm).toEqual({ name: account.name });
    // The firm's phone and e-mail from its settings reach the widget; a change is seen at once
    // (the cached account is dropped as for the accent), and the time zone and office stay home.
    await updateAccount(
      t.services.licensing,
      account.id,
      AccountUpdateSchema.parse({
        contact: {
          phone: '+1 212 555 0143',
          email: 'Office@SmithLaw.com',
          address: '1 Main St',
          timeZone: 'UTC',
        },
      }),
      { actor: 'test' },
    );
    const after = await (await open(licenseKey, 'https://www.smithlaw.com')).json();
    expect(after.firm).toEqual({
      name: account.name,
      phone: '+1 212 555 0143',
      email: 'office@smithlaw.com',
    });
    expect(decodeProtectedHeader(body.token)).toMatchObject({ alg: 'EdDSA', typ: 'embed+jwt' });
    expect(decodeJwt(body.token)).toMatchObject({
      sub: license.id,
      acc: account.id,
      dom: 'smithlaw.com',
      org: 'https://www.smithlaw.com',
      aud: 'svc-embed',
    });
  });

  it('answers development hosts without listing them', async () => {
    const { publishableKey: licenseKey } = await t.seed.firm();
    for (const origin of ['http://localhost:8789', 'http://127.0.0.1:5173', 'http://firm.test']) {
      expect((await open(licenseKey, origin)).status).toBe(200);
    }
  });

  it('refuses other origins, a missing origin and the opaque "null" origin', async () => {
    const { publishableKey: licenseKey } = await t.seed.firm();
    for (const origin of ['https://evil.example', undefined, 'null']) {
      const res = await open(licenseKey, origin);
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe('DOMAIN_NOT_ALLOWED');
    }
  });

  it('refuses bad keys and unknown calculators', async () => {
    const { publishableKey: licenseKey } = await t.seed.firm();
    expect((await open('svc_pk_bad', 'https://smithlaw.com')).status).toBe(401);
    const res = await open(licenseKey, 'https://smithlaw.com', { calculator: 'horoscope' });
    expect(res.status).toBe(400);
    const one = await (await open(licenseKey, 'https://smithlaw.com', { calculator: 'rmd' })).json();
    expect(one.calculators).toEqual(['rmd']);
  });

  it('never lets embed tokens outlive a trial', async () => {
    const { publishableKey: licenseKey } = await t.seed.firm({ paidThrough: undefined, trialDays: 1 });
    const start = t.clock.now();
    t.clock.advance(86_400_000 - 5 * 60_000);
    const body = await (await open(licenseKey, 'https://smithlaw.com')).json();
    expect(body.expiresAt).toBe('2026-03-02T12:00:00.000Z');
    t.clock.set(start);
  });
});
