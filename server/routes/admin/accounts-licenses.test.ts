import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../db/engine/schema.ts';
import { activateSite } from '../../domain/activation/site-activation.ts';
import { createLogger } from '../../infra/logger.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';
import { createAdminRoutes } from './index.ts';

const TOKEN = 'admin-token-for-tests-0123456789abcdef';
let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
  t.app.route('/', createAdminRoutes(t.services, TOKEN));
});
afterAll(() => t.close());

async function admin(method: string, path: string, body?: unknown) {
  const res = await t.app.request(path, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}

async function expectError(
  res: Promise<{ status: number; body: { error?: { code: string; message: string; status: number } } }>,
  status: number,
  code: string,
) {
  const { status: actual, body } = await res;
  expect({ status: actual, code: body.error?.code, bodyStatus: body.error?.status }).toEqual({
    status,
    code,
    bodyStatus: status,
  });
  return body.error!.message;
}

const activate = async (licenseKey: string, siteDomain: string) =>
  (await t.json('/v1/api/licenses/activate', { licenseKey, siteDomain })).json();
const embedSession = async (licenseKey: string, origin: string) =>
  (await t.json('/v1/api/license/activate', { licenseKey }, { origin })).json();
/** 404 (no such result) means the credential was accepted; 401 means it was refused. */
const credentialWorks = async (token: string) =>
  (await t.json('/v1/api/pdf/generate', { resultId: 'res_none' }, { authorization: `Bearer ${token}` }))
    .status !== 401;
const statusOf = async (accessJwt: string) => t.get('/v1/api/licenses/status', accessJwt);

async function auditOf(subject: string) {
  const rows = await t.database.db.select().from(auditEvents);
  return rows.filter((r) => r.subject === subject);
}

describe('accounts (admin API)', () => {
  it('lists, shows and updates firm settings; every change is audited', async () => {
    const { account } = await t.seed.firm();
    const listed = await admin('GET', '/admin/v1/accounts');
    expect(listed.status).toBe(200);
    expect(listed.body.accounts.map((a: { id: string }) => a.id)).toContain(account.id);

    const updated = await admin('PATCH', `/admin/v1/accounts/${account.id}`, {
      name: 'Smith Law LLP',
      consentText: 'I agree that Smith Law may contact me about my estate plan.',
      alertEmails: ['Office@SmithLaw.com', 'partner@smithlaw.com'],
      accentColor: '#1A6B4F',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.account).toMatchObject({
      name: 'Smith Law LLP',
      accentColor: '#1a6b4f',
      alertEmails: ['office@smithlaw.com', 'partner@smithlaw.com'],
      consent: { version: 1, text: 'I agree that Smith Law may contact me about my estate plan.' },
    });
    const again = await admin('PATCH', `/admin/v1/accounts/${account.id}`, {
      consentText: 'I agree that Smith Law LLP may contact me and keep what I entered.',
    });
    expect(again.body.account.consent.version).toBe(2);
    const shown = await admin('GET', `/admin/v1/accounts/${account.id}`);
    expect(shown.body.account.consent).toMatchObject({ version: 2, versions: 2 });

    const audit = await auditOf(account.id);
    expect(audit.map((a) => [a.actor, a.action])).toEqual([
      ['operator', 'account.updated'],
      ['operator', 'account.updated'],
    ]);
    expect(audit[0]!.data).toMatchObject({
      before: { name: 'Smith & Søn Estate Law', accentColor: null, consentVersion: null },
      after: { name: 'Smith Law LLP', accentColor: '#1a6b4f', consentVersion: 1 },
    });
    // Staff addresses are personal data: the audit keeps their count only.
    expect(JSON.stringify(audit[0]!.data)).not.toContain('smithlaw.com');
  });

  it.each([
    [{ accentColor: 'green' }, 'accentColor'],
    [{ alertEmails: ['not-an-address'] }, 'alertEmails.0'],
    [{ name: '' }, 'name'],
    [{}, ''],
    [{ colour: '#ffffff' }, ''],
  ])('refuses %j', async (body, path) => {
    const { account } = await t.seed.firm();
    const res = await admin('PATCH', `/admin/v1/accounts/${account.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
    expect(res.body.error.details[0].path).toBe(path);
  });

  it('answers unknown account ids with 404 NOT_FOUND naming the id', async () => {
    for (const [method, path, body] of [
      ['GET', '/admin/v1/accounts/acct_nope'],
      ['PATCH', '/admin/v1/accounts/acct_nope', { name: 'X' }],
      ['GET', '/admin/v1/accounts/acct_nope/licenses'],
      ['GET', '/admin/v1/accounts/acct_nope/api-keys'],
      ['POST', '/admin/v1/api-keys', { accountId: 'acct_nope', name: 'k' }],
      [
        'POST',
        '/admin/v1/licenses',
        { accountId: 'acct_nope', plan: 'pro', seats: 1, domains: ['a.com'], trialDays: 3 },
      ],
    ] as const) {
      const message = await expectError(admin(method, path, body), 404, 'NOT_FOUND');
      expect(message).toContain('acct_nope');
    }
  });
});

describe('licenses (admin API)', () => {
  it('refuses unknown plans and dates in another format, saying what is expected', async () => {
    const { account } = await t.seed.firm();
    const base = { accountId: account.id, seats: 1, domains: ['a-firm.com'] };
    const plan = await expectError(
      admin('POST', '/admin/v1/licenses', { ...base, plan: 'platinum', trialDays: 3 }),
      400,
      'INVALID_REQUEST',
    );
    expect(plan).toMatch(/platinum.*pro/);
    const date = await admin('POST', '/admin/v1/licenses', {
      ...base,
      plan: 'pro',
      paidThrough: '31/12/2026',
    });
    expect(date.status).toBe(400);
    expect(date.body.error.details[0].message).toContain('YYYY-MM-DD');
  });

  it('lists an account’s licenses and shows one with status words, seats used and activations', async () => {
    const { account, license, licenseKey } = await t.seed.firm();
    await activate(licenseKey, 'smithlaw.com');
    await activate(licenseKey, 'localhost');
    const listed = await admin('GET', `/admin/v1/accounts/${account.id}/licenses`);
    expect(listed.body.licenses).toHaveLength(1);
    expect(listed.body.licenses[0]).toMatchObject({ id: license.id, seatsUsed: 1, status: 'active' });

    const shown = await admin('GET', `/admin/v1/licenses/${license.id}`);
    expect(shown.body.license).toMatchObject({
      status: 'active',
      seats: 2,
      seatsUsed: 1,
      overSeat: false,
      paidThrough: '2026-12-31T00:00:00.000Z',
      graceEndsAt: '2027-01-07T00:00:00.000Z',
      next: 'Paid through 2026-12-31; unless renewed, grace ends 2027-01-07 and widgets stop then.',
    });
    expect(shown.body.activations).toEqual([
      expect.objectContaining({
        domain: 'smithlaw.com',
        env: 'prod',
        lastSeenAt: '2026-03-01T12:00:00.000Z',
      }),
      expect.objectContaining({ domain: 'localhost', env: 'dev' }),
    ]);
    expect(shown.body.activations[0].id).toMatch(/^act_/);
    await expectError(admin('GET', '/admin/v1/licenses/lic_nope'), 404, 'NOT_FOUND');
  });

  it('adds domains with activation’s normalisation and refuses bad ones', async () => {
    const { license } = await t.seed.firm();
    const res = await admin('PATCH', `/admin/v1/licenses/${license.id}`, {
      addDomains: ['https://WWW.Smith-Annex.com:8443/path', '*.Smith-Annex.com', 'smithlaw.com'],
    });
    expect(res.status).toBe(200);
    expect(res.body.license.allowedDomains).toEqual([
      'smithlaw.com',
      '*.smithlaw.com',
      'smith-annex.com',
      '*.smith-annex.com',
    ]);
    for (const bad of ['*.co.uk', 'github.io', 'exa mple.com']) {
      await expectError(
        admin('PATCH', `/admin/v1/licenses/${license.id}`, { addDomains: [bad] }),
        400,
        'INVALID_REQUEST',
      );
    }
    await expectError(
      admin('PATCH', `/admin/v1/licenses/${license.id}`, { removeDomains: ['never-listed.com'] }),
      400,
      'INVALID_REQUEST',
    );
    await expectError(admin('PATCH', '/admin/v1/licenses/lic_nope', { seats: 3 }), 404, 'NOT_FOUND');
  });

  it('removing a domain ends its activation, refresh family and embed tokens on the next request', async () => {
    const { license, licenseKey, publishableKey } = await t.seed.firm({
      domains: ['smithlaw.com', 'smith-blog.com'],
    });
    const site = await activate(licenseKey, 'smithlaw.com');
    const blog = await activate(licenseKey, 'smith-blog.com');
    const siteEmbed = await embedSession(publishableKey, 'https://smithlaw.com');
    const blogEmbed = await embedSession(publishableKey, 'https://www.smith-blog.com');
    const devEmbed = await embedSession(publishableKey, 'http://localhost:8789');
    expect(await credentialWorks(blogEmbed.token)).toBe(true);

    const res = await admin('PATCH', `/admin/v1/licenses/${license.id}`, {
      removeDomains: ['smith-blog.com'],
    });
    expect(res.status).toBe(200);
    expect(res.body.license).toMatchObject({ allowedDomains: ['smithlaw.com'], seatsUsed: 1 });

    expect((await statusOf(blog.accessJwt)).status).toBe(401);
    const refresh = await t.json('/v1/api/licenses/refresh', {
      refreshToken: blog.refreshToken,
      siteDomain: 'smith-blog.com',
    });
    expect(refresh.status).toBe(400);
    expect(await credentialWorks(blogEmbed.token)).toBe(false);
    // Other sites and development hosts are untouched.
    expect((await statusOf(site.accessJwt)).status).toBe(200);
    expect(await credentialWorks(siteEmbed.token)).toBe(true);
    expect(await credentialWorks(devEmbed.token)).toBe(true);

    const [audit] = await auditOf(license.id);
    expect(audit).toMatchObject({
      actor: 'operator',
      action: 'license.updated',
      data: {
        before: { allowedDomains: ['smithlaw.com', 'smith-blog.com'] },
        after: { allowedDomains: ['smithlaw.com'] },
        releasedActivations: [{ domain: 'smith-blog.com' }],
      },
    });
  });

  it('an activation that read the license before a concurrent update sees the update under the lock', async () => {
    const { license: stale } = await t.seed.firm({ seats: 2, domains: ['smithlaw.com', 'smith-blog.com'] });
    await admin('PATCH', `/admin/v1/licenses/${stale.id}`, { removeDomains: ['smith-blog.com'], seats: 0 });
    const attempt = (host: string) =>
      activateSite(t.services.licensing, stale, host, 'site').catch((e) => e.code);
    expect(await attempt('smith-blog.com')).toBe('DOMAIN_NOT_ALLOWED');
    expect(await attempt('smithlaw.com')).toBe('SEATS_EXHAUSTED');
  });

  it('refuses seats below the sites in use, naming the activations to release', async () => {
    const { license, licenseKey } = await t.seed.firm({ seats: 3 });
    await activate(licenseKey, 'smithlaw.com');
    await activate(licenseKey, 'blog.smithlaw.com');
    const shown = await admin('GET', `/admin/v1/licenses/${license.id}`);
    const ids = shown.body.activations.map((a: { id: string }) => a.id);
    const message = await expectError(
      admin('PATCH', `/admin/v1/licenses/${license.id}`, { seats: 1 }),
      409,
      'SEATS_IN_USE',
    );
    for (const id of ids) expect(message).toContain(id);
    expect(message).toContain('blog.smithlaw.com');
    const ok = await admin('PATCH', `/admin/v1/licenses/${license.id}`, { seats: 2 });
    expect(ok.body.license.seats).toBe(2);
  });

  it('changes plan (from the plan table), paid-through and trial end, with before and after audited', async () => {
    const { license } = await t.seed.firm();
    await expectError(
      admin('PATCH', `/admin/v1/licenses/${license.id}`, { plan: 'gold' }),
      400,
      'INVALID_REQUEST',
    );
    const res = await admin('PATCH', `/admin/v1/licenses/${license.id}`, {
      plan: 'agency',
      paidThrough: '2027-06-30',
      trialEndsAt: '2026-03-15',
    });
    expect(res.body.license).toMatchObject({
      plan: 'agency',
      paidThrough: '2027-06-30T00:00:00.000Z',
      trialEndsAt: '2026-03-15T00:00:00.000Z',
    });
    const bad = await admin('PATCH', `/admin/v1/licenses/${license.id}`, { paidThrough: '2027-02-30' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]).toMatchObject({ path: 'paidThrough' });
    expect(bad.body.error.details[0].message).toContain('YYYY-MM-DD');
    const [audit] = await auditOf(license.id);
    expect(audit!.data).toEqual({
      before: { plan: 'pro', paidThrough: '2026-12-31T00:00:00.000Z', trialEndsAt: null },
      after: {
        plan: 'agency',
        paidThrough: '2027-06-30T00:00:00.000Z',
        trialEndsAt: '2026-03-15T00:00:00.000Z',
      },
    });
  });
});

describe('license revoke (admin API)', () => {
  it('is audited once and shows the license with its words', async () => {
    const { license } = await t.seed.firm();
    const res = await admin('POST', `/admin/v1/licenses/${license.id}/revoke`);
    expect(res.body.license).toMatchObject({
      status: 'revoked',
      next: expect.stringMatching(/^Revoked on 2026-03-01/),
    });
    await admin('POST', `/admin/v1/licenses/${license.id}/revoke`);
    expect((await auditOf(license.id)).map((a) => a.action)).toEqual(['license.revoked']);
    await expectError(admin('POST', '/admin/v1/licenses/lic_nope/revoke'), 404, 'NOT_FOUND');
  });
});

describe('activation release (admin API)', () => {
  it('frees the seat and stops the activation’s tokens on the next request', async () => {
    const { license, licenseKey } = await t.seed.firm({ seats: 1 });
    const site = await activate(licenseKey, 'smithlaw.com');
    const full = await t.json('/v1/api/licenses/activate', { licenseKey, siteDomain: 'blog.smithlaw.com' });
    expect(full.status).toBe(409);
    const shown = await admin('GET', `/admin/v1/licenses/${license.id}`);
    const activationId = shown.body.activations[0].id;

    const res = await admin('POST', `/admin/v1/activations/${activationId}/release`);
    expect(res.status).toBe(200);
    expect(res.body.activation.releasedAt).toBe('2026-03-01T12:00:00.000Z');
    expect(res.body.license.seatsUsed).toBe(0);
    expect((await statusOf(site.accessJwt)).status).toBe(401);
    expect(
      (
        await t.json('/v1/api/licenses/refresh', {
          refreshToken: site.refreshToken,
          siteDomain: 'smithlaw.com',
        })
      ).status,
    ).toBe(400);
    expect(
      (await t.json('/v1/api/licenses/activate', { licenseKey, siteDomain: 'blog.smithlaw.com' })).status,
    ).toBe(200);
    expect((await auditOf(activationId)).map((a) => a.action)).toEqual(['activation.released']);
    // Releasing twice is harmless; unknown ids are 404.
    expect((await admin('POST', `/admin/v1/activations/${activationId}/release`)).status).toBe(200);
    expect(await auditOf(activationId)).toHaveLength(1);
    const message = await expectError(
      admin('POST', '/admin/v1/activations/act_nope/release'),
      404,
      'NOT_FOUND',
    );
    expect(message).toContain('act_nope');
  });
});

describe('api keys (admin API)', () => {
  it('revoking an unknown key, another account’s key or a revoked key is an error', async () => {
    const a = await t.seed.firm();
    const b = await t.seed.firm();
    const { row } = await t.seed.apiKey(a.account.id);
    const path = (acct: string, key: string) => `/admin/v1/accounts/${acct}/api-keys/${key}/revoke`;
    await expectError(admin('POST', path(a.account.id, 'key_nope')), 404, 'NOT_FOUND');
    await expectError(admin('POST', path(b.account.id, row.id)), 404, 'NOT_FOUND');
    expect((await admin('POST', path(a.account.id, row.id))).body).toEqual({ revoked: true });
    await expectError(admin('POST', path(a.account.id, row.id)), 404, 'NOT_FOUND');
  });
});

describe('log hygiene on bad admin input', () => {
  it('answers unknown ids without an unhandled error, so no SQL or parameters reach the log', async () => {
    const lines: string[] = [];
    const logger = createLogger('debug', { write: (line: string) => void lines.push(line) });
    const logged = await createTestContext({}, undefined, { logger });
    logged.app.route('/', createAdminRoutes(logged.services, TOKEN));
    try {
      const call = (method: string, path: string, body?: unknown) =>
        logged.app.request(path, {
          method,
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      const statuses = [
        await call('POST', '/admin/v1/licenses', {
          accountId: 'acct_nope',
          plan: 'pro',
          seats: 1,
          domains: ['a.com'],
          trialDays: 3,
        }),
        await call('POST', '/admin/v1/api-keys', { accountId: 'acct_nope', name: 'k' }),
        await call('PATCH', '/admin/v1/licenses/lic_nope', { seats: 1 }),
        await call('PATCH', '/admin/v1/accounts/acct_nope', { alertEmails: ['a@b.com'] }),
        await call('POST', '/admin/v1/activations/act_nope/release'),
      ].map((r) => r.status);
      expect(statuses).toEqual([404, 404, 404, 404, 404]);
      const log = lines.join('');
      expect(log).toContain('"status":404');
      expect(log).not.toMatch(/unhandled error|params|insert into|select /i);
    } finally {
      await logged.close();
    }
  });
});
