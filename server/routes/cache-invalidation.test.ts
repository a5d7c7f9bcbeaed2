import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEvents } from '../db/engine/schema.ts';
import { listApiKeys, revokeApiKey } from '../domain/accounts/api-keys.ts';
import { closeAccount } from '../domain/accounts/closure.ts';
import { updateAccount } from '../domain/accounts/settings.ts';
import { createEndpoint, updateEndpoint } from '../domain/delivery/endpoints.ts';
import { rollLicenseKey } from '../domain/licensing/keys.ts';
import { revokeLicense } from '../domain/licensing/licenses.ts';
import { releaseSeat, updateLicense } from '../domain/licensing/lifecycle.ts';
import { createTestContext, type TestContext } from '../test-support/services.ts';

/**
 * The lookup caches (verified tokens, licenses, keys, activations, families, API keys, accounts)
 * are on in this single-instance context. Each case warms the cache with the credential, proves a
 * cache answered, makes one invalidating change through its domain function, and expects the very
 * next request to be refused (or to show the change).
 */
let t: TestContext;
const OPERATOR = { actor: 'operator' };
const ORIGIN = 'https://smithlaw.com';

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

async function hits(): Promise<number> {
  const metric = t.services.metrics.registry.getSingleMetric('svc_cache_hits_total');
  const values = (await metric!.get()).values;
  return values.reduce((sum, v) => sum + v.value, 0);
}

const lifecycle = () => ({ ...t.services.licensing, plans: t.services.config.plans });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function firm() {
  const f = await t.seed.firm({ seats: 5 });
  const site = await (
    await t.json('/v1/api/licenses/activate', { licenseKey: f.licenseKey, siteDomain: 'smithlaw.com' })
  ).json();
  const embed = await (
    await t.json('/v1/api/license/activate', { licenseKey: f.publishableKey }, { origin: ORIGIN })
  ).json();
  const { apiKey } = await t.seed.apiKey(f.account.id);
  return { ...f, site, embedToken: embed.token as string, apiKey };
}
type Firm = Awaited<ReturnType<typeof firm>>;

const requests = {
  status: (f: Firm) => t.get('/v1/api/licenses/status', f.site.accessJwt),
  calc: (f: Firm) =>
    t.json(
      '/v1/api/calc/estimate',
      { calculator: 'rmd', inputs: { balance: 500_000, age: 75 } },
      { ...bearer(f.embedToken), origin: ORIGIN },
    ),
  leads: (f: Firm) => t.get('/v1/api/leads', f.apiKey),
  session: (f: Firm) =>
    t.json('/v1/api/license/activate', { licenseKey: f.publishableKey }, { origin: ORIGIN }),
};
type RequestName = keyof typeof requests;

/** Two answers of 200 (the second from the caches), then `change`, then the next answer. */
async function afterChange(f: Firm, request: RequestName, change: () => Promise<unknown>) {
  expect((await requests[request](f)).status).toBe(200);
  const before = await hits();
  expect((await requests[request](f)).status).toBe(200);
  expect(await hits()).toBeGreaterThan(before);
  await change();
  return requests[request](f);
}

describe('lookup caches: every invalidating change is seen on the very next request', () => {
  const refusals: [string, RequestName, (f: Firm) => Promise<unknown>][] = [
    ['license revoked: access token', 'status', (f) => revokeLicense(t.services.licensing, f.license.id)],
    ['license revoked: embed token', 'calc', (f) => revokeLicense(t.services.licensing, f.license.id)],
    ['license revoked: publishable key', 'session', (f) => revokeLicense(t.services.licensing, f.license.id)],
    [
      'publishable key rolled without overlap',
      'session',
      (f) =>
        rollLicenseKey(t.services.licensing, { licenseId: f.license.id, kind: 'publishable', overlapMs: 0 }),
    ],
    [
      'domain removed: embed token of that site',
      'calc',
      (f) =>
        updateLicense(
          lifecycle(),
          f.license.id,
          { removeDomains: ['smithlaw.com', '*.smithlaw.com'] },
          OPERATOR,
        ),
    ],
    [
      'domain removed: access token of that site',
      'status',
      (f) => updateLicense(lifecycle(), f.license.id, { removeDomains: ['smithlaw.com'] }, OPERATOR),
    ],
    [
      'license expired by its paid-through date',
      'status',
      (f) =>
        updateLicense(lifecycle(), f.license.id, { paidThrough: new Date('2025-01-01T00:00:00Z') }, OPERATOR),
    ],
    [
      'seat released',
      'status',
      async (f) => {
        const status = await (await requests.status(f)).json();
        expect(status.seatsUsed).toBe(1);
        const claims = JSON.parse(Buffer.from(f.site.accessJwt.split('.')[1], 'base64url').toString());
        await releaseSeat(t.services.licensing, claims.act, OPERATOR);
      },
    ],
    [
      'site token revoked by the plugin (licenses/revoke)',
      'status',
      async (f) =>
        expect((await t.json('/v1/api/licenses/revoke', { token: f.site.refreshToken })).status).toBe(200),
    ],
    [
      'refresh token reused: the family is revoked',
      'status',
      async (f) => {
        const body = { refreshToken: f.site.refreshToken, siteDomain: 'smithlaw.com' };
        const next = await (await t.json('/v1/api/licenses/refresh', body)).json();
        t.clock.advance(31_000);
        await t.json('/v1/api/licenses/refresh', { ...body, refreshToken: next.refreshToken });
        // The first token again, two rotations later.
        expect((await t.json('/v1/api/licenses/refresh', body)).status).toBe(400);
      },
    ],
    ['API key revoked', 'leads', (f) => revokeApiKeyOf(f)],
    ['account closed: API key', 'leads', (f) => closeAccount(t.services.delivery, f.account.id)],
    ['account closed: access token', 'status', (f) => closeAccount(t.services.delivery, f.account.id)],
    ['account closed: publishable key', 'session', (f) => closeAccount(t.services.delivery, f.account.id)],
  ];

  it.each(refusals)('%s', async (_name, request, change) => {
    const f = await firm();
    const res = await afterChange(f, request, () => change(f));
    expect([400, 401]).toContain(res.status);
    expect((await res.json()).error.status).toBe(res.status);
  });

  it('a plan change shows in the next status answer', async () => {
    const f = await firm();
    const res = await afterChange(f, 'status', () =>
      updateLicense(lifecycle(), f.license.id, { plan: 'agency', seats: 25 }, OPERATOR),
    );
    expect(await res.json()).toMatchObject({ plan: 'agency', seats: 25 });
  });

  it('a new activation counts in the next status answer', async () => {
    const f = await firm();
    const res = await afterChange(f, 'status', async () =>
      t.json('/v1/api/licenses/activate', { licenseKey: f.licenseKey, siteDomain: 'blog.smithlaw.com' }),
    );
    expect((await res.json()).seatsUsed).toBe(2);
  });

  it('a renamed firm shows in the next embed session', async () => {
    const f = await firm();
    const res = await afterChange(f, 'session', () =>
      updateAccount(t.services.licensing, f.account.id, { name: 'Renamed & Partners' }, OPERATOR),
    );
    expect((await res.json()).firm.name).toBe('Renamed & Partners');
  });

  it('a rolled publishable key shows in the next status answer', async () => {
    const f = await firm();
    let rolled = '';
    const res = await afterChange(f, 'status', async () => {
      rolled = (
        await rollLicenseKey(t.services.licensing, {
          licenseId: f.license.id,
          kind: 'publishable',
          overlapMs: 3_600_000,
        })
      ).key;
    });
    expect(rolled).not.toBe(f.publishableKey);
    expect((await res.json()).publishableKey).toBe(rolled);
  });

  it('a published consent text shows in the next embed session', async () => {
    const f = await firm();
    const text = 'Smith & Søn may call or e-mail me about this enquiry (version two).';
    const res = await afterChange(f, 'session', () =>
      updateAccount(t.services.licensing, f.account.id, { consentText: text }, OPERATOR),
    );
    expect((await res.json()).consent.text).toBe(text);
  });

  it('an endpoint subscribed to results (new, or changed to results) gets the next result event', async () => {
    const f = await firm();
    const resultEvents = async () =>
      (
        await t.services.database.db
          .select()
          .from(outboxEvents)
          .where(eq(outboxEvents.accountId, f.account.id))
      ).filter((e) => e.type === 'result.created').length;
    const deliveryDeps = { ...t.services.delivery, allowPrivateHosts: [] };
    // No endpoint yet: "no subscriber" is cached, and the result is stored without an event.
    expect((await afterChange(f, 'calc', async () => {})).status).toBe(200);
    expect(await resultEvents()).toBe(0);
    const { endpoint } = await createEndpoint(deliveryDeps, {
      accountId: f.account.id,
      url: 'https://hooks.smithlaw.com/svc',
      events: ['lead.created'],
    });
    expect((await requests.calc(f)).status).toBe(200);
    expect(await resultEvents()).toBe(0);
    await updateEndpoint(deliveryDeps, endpoint.id, { events: ['lead.created', 'result.created'] });
    expect((await requests.calc(f)).status).toBe(200);
    expect(await resultEvents()).toBe(1);
  });

  it('a verified token is not served past its expiry', async () => {
    const f = await firm();
    const res = await afterChange(f, 'calc', async () => t.clock.advance(11 * 60_000));
    expect(res.status).toBe(401);
  });
});

async function revokeApiKeyOf(f: Firm) {
  const [row] = await listApiKeys(t.services.licensing, f.account.id);
  await revokeApiKey(t.services.licensing, f.account.id, row!.id);
}
