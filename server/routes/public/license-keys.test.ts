import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licenseKeys, licenses } from '../../db/engine/schema.ts';
import { isWellFormedPublishableKey } from '../../domain/credentials/formats.ts';
import { ensurePublishableKeys, licenseKeysView, rollLicenseKey } from '../../domain/licensing/keys.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';
import { createAdminRoutes } from '../admin/index.ts';

let t: TestContext;
const ADMIN = 'admin-token-for-license-key-tests-0123456789';
beforeAll(async () => {
  t = await createTestContext();
  t.app.route('/', createAdminRoutes(t.services, ADMIN));
});
afterAll(() => t.close());

const ORIGIN = 'https://smithlaw.com';
const activate = (licenseKey: string, siteDomain = 'smithlaw.com') =>
  t.json('/v1/api/licenses/activate', { licenseKey, siteDomain });
const embed = (licenseKey: string, body: Record<string, unknown> = {}, origin = ORIGIN) =>
  t.json('/v1/api/license/activate', { licenseKey, ...body }, { origin });
const admin = (path: string, body?: unknown) =>
  t.app.request(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function expectError(res: Response, status: number, code: string) {
  const body = await res.json();
  expect({ status: res.status, code: body.error?.code }).toEqual({ status, code });
  return body;
}

/** A license made before publishable keys existed (the migration marks those). */
async function legacyFirm() {
  const firm = await t.seed.firm();
  await t.database.db
    .update(licenses)
    .set({ legacySecretEmbed: true })
    .where(eq(licenses.id, firm.license.id));
  return firm;
}

const audits = async (action: string) =>
  (
    (await t.database.db.execute(
      `select subject from audit_events where action = '${action}'`,
    )) as unknown as { rows: { subject: string }[] }
  ).rows;

describe('two keys per license', () => {
  it('refuses the publishable key on licenses/activate by its format (400 WRONG_KEY_KIND)', async () => {
    const { publishableKey } = await t.seed.firm();
    const body = await expectError(await activate(publishableKey), 400, 'WRONG_KEY_KIND');
    expect(body.error.message).toMatch(/secret license key/);
    // Format alone: a made-up publishable key gets the same answer, so this is no oracle.
    await expectError(await activate('svc_pk_made-up'), 400, 'WRONG_KEY_KIND');
  });

  it('attack: the public key can no longer take a seat or revoke a Connect login’s admin tokens', async () => {
    const { publishableKey } = await t.seed.firm({ seats: 1 });
    for (const domain of ['smithlaw.com', 'a.smithlaw.com', 'b.smithlaw.com']) {
      await expectError(await activate(publishableKey, domain), 400, 'WRONG_KEY_KIND');
    }
  });

  it('refuses the secret key of a new license on the embed endpoint, and unknown secret keys alike', async () => {
    const { licenseKey } = await t.seed.firm();
    const body = await expectError(await embed(licenseKey), 400, 'WRONG_KEY_KIND');
    expect(body.error.message).toMatch(/publishable key/);
    await expectError(await embed('SVC-00000-00000-00000-00000-00000-00000'), 400, 'WRONG_KEY_KIND');
  });

  it('opens embed sessions with the publishable key; the token names org, sid and test mode', async () => {
    const { publishableKey, license } = await t.seed.firm();
    const live = await (await embed(publishableKey)).json();
    expect(live.test).toBe(false);
    const claims = decodeJwt(live.token);
    expect(claims).toMatchObject({ sub: license.id, org: ORIGIN, dom: 'smithlaw.com' });
    expect(claims.sid).toMatch(/^sid_/);
    expect(claims.test).toBeUndefined();
    const dev = await (await embed(publishableKey, {}, 'http://spam.localhost')).json();
    expect(dev.test).toBe(true);
    expect(decodeJwt(dev.token).test).toBe(true);
  });

  it('a renewal that presents the current token keeps its sid; another origin’s token does not', async () => {
    const { publishableKey } = await t.seed.firm();
    const first = await (await embed(publishableKey)).json();
    const renewed = await (await embed(publishableKey, { currentToken: first.token })).json();
    expect(decodeJwt(renewed.token).sid).toBe(decodeJwt(first.token).sid);
    const fresh = await (await embed(publishableKey)).json();
    expect(decodeJwt(fresh.token).sid).not.toBe(decodeJwt(first.token).sid);
    const elsewhere = await (
      await embed(publishableKey, { currentToken: first.token }, 'https://www.smithlaw.com')
    ).json();
    expect(decodeJwt(elsewhere.token).sid).not.toBe(decodeJwt(first.token).sid);
  });

  it('legacy licenses: the secret key still opens embed sessions with a deprecation warning and one audit entry, until rolled', async () => {
    const firm = await legacyFirm();
    const res = await embed(firm.licenseKey);
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBe('true');
    expect((await res.json()).warnings).toEqual([expect.objectContaining({ code: 'SECRET_KEY_IN_PAGE' })]);
    expect((await embed(firm.licenseKey)).status).toBe(200);
    const logged = (await audits('embed.secret_key_in_page')).filter((r) => r.subject === firm.license.id);
    expect(logged).toHaveLength(1);

    const rolled = await rollLicenseKey(t.services.licensing, {
      licenseId: firm.license.id,
      kind: 'secret',
      overlapMs: 0,
    });
    await expectError(await embed(firm.licenseKey), 400, 'WRONG_KEY_KIND');
    await expectError(await embed(rolled.key), 400, 'WRONG_KEY_KIND');
    await expectError(await activate(firm.licenseKey), 401, 'INVALID_LICENSE');
    expect((await activate(rolled.key)).status).toBe(200);
  });

  it('rolling with an overlap keeps the old key working until the overlap ends', async () => {
    const firm = await t.seed.firm();
    const start = t.clock.now();
    try {
      const pk = await rollLicenseKey(t.services.licensing, {
        licenseId: firm.license.id,
        kind: 'publishable',
        overlapMs: 3_600_000,
      });
      const secret = await rollLicenseKey(t.services.licensing, {
        licenseId: firm.license.id,
        kind: 'secret',
        overlapMs: 3_600_000,
      });
      expect(isWellFormedPublishableKey(pk.key)).toBe(true);
      expect((await embed(firm.publishableKey)).status).toBe(200);
      expect((await embed(pk.key)).status).toBe(200);
      expect((await activate(firm.licenseKey)).status).toBe(200);
      const view = await licenseKeysView(t.database.db, firm.license.id, t.clock.now());
      expect(view.publishableKey).toBe(pk.key);
      expect(view.overlapping.map((k) => k.kind).sort()).toEqual(['publishable', 'secret']);

      t.clock.advance(3_600_000);
      await expectError(await embed(firm.publishableKey), 401, 'INVALID_LICENSE');
      await expectError(await activate(firm.licenseKey), 401, 'INVALID_LICENSE');
      expect((await embed(pk.key)).status).toBe(200);
      expect((await activate(secret.key)).status).toBe(200);
    } finally {
      t.clock.set(start);
    }
  });

  it('gives licenses made before publishable keys one at start-up', async () => {
    const firm = await legacyFirm();
    await t.database.db.delete(licenseKeys).where(eq(licenseKeys.keyValue, firm.publishableKey));
    expect(await ensurePublishableKeys(t.services.licensing)).toBeGreaterThanOrEqual(1);
    expect(await ensurePublishableKeys(t.services.licensing)).toBe(0);
    const view = await licenseKeysView(t.database.db, firm.license.id, t.clock.now());
    expect(isWellFormedPublishableKey(view.publishableKey!)).toBe(true);
    expect((await embed(view.publishableKey!)).status).toBe(200);
  });

  it('admin API: create names licenseKey and publishableKey, show names publishableKey, roll-key rolls', async () => {
    const account = (await (await admin('/admin/v1/accounts', { name: 'Keys LLP' })).json()).account;
    const created = await (
      await admin('/admin/v1/licenses', {
        accountId: account.id,
        plan: 'pro',
        seats: 1,
        domains: ['keys.example'],
        trialDays: 14,
      })
    ).json();
    expect(created.licenseKey).toMatch(/^SVC-/);
    expect(isWellFormedPublishableKey(created.publishableKey)).toBe(true);
    const shown = await (await admin(`/admin/v1/licenses/${created.license.id}`)).json();
    expect(shown.publishableKey).toBe(created.publishableKey);
    expect(JSON.stringify(shown)).not.toContain(created.licenseKey);
    const rolled = await (
      await admin(`/admin/v1/licenses/${created.license.id}/roll-key`, {
        kind: 'publishable',
        overlapSeconds: 0,
      })
    ).json();
    expect(rolled.publishableKey).not.toBe(created.publishableKey);
    expect(rolled.previousKeysEndAt).toBe(t.clock.now().toISOString());
    const after = await (await admin(`/admin/v1/licenses/${created.license.id}`)).json();
    expect(after.publishableKey).toBe(rolled.publishableKey);
    await expectError(
      await admin('/admin/v1/licenses/lic_nope/roll-key', { kind: 'secret' }),
      404,
      'NOT_FOUND',
    );
  });
});
