import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentVersions, leads } from '../../db/engine/schema.ts';
import { publishConsentText } from '../../domain/accounts/consent.ts';
import { createLogger } from '../../infra/logger.ts';
import { createApp } from '../../main/app.ts';
import { coreDeps } from '../../test-support/app.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';
import { createRouter } from '../openapi-router.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const ORIGIN = 'https://smithlaw.com';
let keyCounter = 0;

async function firmWithSession() {
  const firm = await t.seed.firm();
  const res = await t.json(
    '/v1/api/license/activate',
    { licenseKey: firm.publishableKey },
    { origin: ORIGIN },
  );
  const { apiKey } = await t.seed.apiKey(firm.account.id);
  return { ...firm, embed: (await res.json()).token as string, apiKey };
}

const postLead = (token: string, body: Record<string, unknown>) =>
  t.json(
    '/v1/api/leads',
    { calculator: 'rmd', name: 'Ada', email: 'ada@example.com', state: 'NY', consent: true, ...body },
    { authorization: `Bearer ${token}`, 'idempotency-key': `hygiene-key-${keyCounter++}` },
  );

async function expectError(res: Response, status: number, code: string) {
  const body = await res.json();
  expect({ status: res.status, code: body.error?.code }).toEqual({ status, code });
}

describe('NUL characters', () => {
  it('attack: a NUL in a lead name is refused with 400, never a 500 or a logged row', async () => {
    const s = await firmWithSession();
    await expectError(await postLead(s.embed, { name: 'Ada\u0000Lovelace' }), 400, 'INVALID_REQUEST');
    await expectError(await postLead(s.embed, { name: 'Ada', 'x\u0000': 1 }), 400, 'INVALID_REQUEST');
    // A literal backslash-u text is fine: it is not a NUL.
    expect((await postLead(s.embed, { name: 'Ada \\u0000 Lovelace' })).status).toBe(201);
  });

  it('refuses NUL in the query and the path', async () => {
    const s = await firmWithSession();
    await expectError(await t.get('/v1/api/leads?status=new%00', s.apiKey), 400, 'INVALID_REQUEST');
    await expectError(await t.get('/v1/api/leads/lead%00x', s.apiKey), 400, 'INVALID_REQUEST');
  });
});

describe('logs carry no SQL parameters or personal data', () => {
  it('an unexpected database error is logged with its SQL text and code, without the values', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger('info', sink);
    const router = createRouter();
    router.get('/api/boom', async () => {
      // A real driver error whose message and parameters quote the personal data.
      await t.database.db.execute(sql`select ${'zoe.private@example.com'}::int`);
      return new Response('unreachable');
    });
    const app = createApp({ ...coreDeps({ v1Routes: [router] }), logger });
    const res = await app.request('/v1/api/boom');
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('zoe.private');
    const logged = lines.join('');
    expect(logged).toContain('unhandled error');
    expect(logged).toContain('22P02'); // the SQLSTATE is kept for debugging
    expect(logged).not.toContain('zoe.private');
  });
});

describe('lead fields the server decides', () => {
  it('refuses an unknown calculator slug', async () => {
    const s = await firmWithSession();
    await expectError(await postLead(s.embed, { calculator: 'horoscope' }), 400, 'INVALID_REQUEST');
  });

  it('stores the firm’s server-side consent version, never the text the client sent', async () => {
    const s = await firmWithSession();
    const version = await publishConsentText(
      { db: t.database.db, clock: t.clock },
      s.account.id,
      'Smith & Søn may call me about my estate.',
    );
    const res = await postLead(s.embed, { consentText: 'I agree to nothing at all.' });
    expect(res.status).toBe(201);
    const [row] = await t.database.db
      .select()
      .from(leads)
      .where(eq(leads.id, (await res.json()).leadId));
    expect(row).toMatchObject({ consentVersionId: version.id, consentText: version.text });
  });

  it('writes the default consent text as version 1 for a firm that has none', async () => {
    const s = await firmWithSession();
    const res = await postLead(s.embed, {});
    const [row] = await t.database.db
      .select()
      .from(leads)
      .where(eq(leads.id, (await res.json()).leadId));
    const [version] = await t.database.db
      .select()
      .from(consentVersions)
      .where(eq(consentVersions.id, row!.consentVersionId!));
    expect(version).toMatchObject({ accountId: s.account.id, version: 1 });
    expect(version!.text).toContain('Smith & Søn Estate Law');
  });
});

describe('requests that answered 500', () => {
  const cursor = (text: string) => Buffer.from(text).toString('base64url');

  it.each([
    ['a far-future date', cursor('+275760-09-13T00:00:00.000Z|lead_0000000000000000000000000a')],
    ['a year past 9999', cursor('10000-01-01T00:00:00.000Z|lead_0000000000000000000000000a')],
    ['a NUL in the id', cursor('2026-03-01T12:00:00.000Z|lead_\u0000')],
    ['garbage', 'not-a-cursor'],
  ])('a leads cursor with %s is 400', async (_name, value) => {
    const s = await firmWithSession();
    await expectError(
      await t.get(`/v1/api/leads?cursor=${encodeURIComponent(value)}`, s.apiKey),
      400,
      'INVALID_REQUEST',
    );
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    '/docs/assets/%s is a JSON 404',
    async (name) => {
      const res = await t.app.request(`/docs/assets/${name}`);
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe('NOT_FOUND');
    },
  );

  it('GET /v1/api/leads/ (trailing slash) is the lead list, and a real 405 names the right methods', async () => {
    const s = await firmWithSession();
    expect((await t.get('/v1/api/leads/', s.apiKey)).status).toBe(200);
    for (const path of ['/v1/api/leads', '/v1/api/leads/']) {
      const res = await t.app.request(path, { method: 'DELETE' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, POST');
    }
  });
});
