import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, getTableName } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/engine/ids.ts';
import * as schema from '../../db/engine/schema.ts';
import { createMailer } from '../../mail/mailer.ts';
import { createAdminRoutes } from '../../routes/admin/index.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';
import { startReceiver } from '../../test-support/webhook-receiver.ts';
import { ACCOUNT_DATA_TABLES } from '../accounts/closure.ts';
import type { DeliveryDeps } from '../delivery/deps.ts';
import { runRetention } from '../delivery/retention.ts';
import { runDeliveryOnce } from '../delivery/worker.ts';

const TOKEN = 'admin-token-'.padEnd(40, 'p');
const DAY = 86_400_000;
let t: TestContext;
let deps: DeliveryDeps;
let outbox: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1' });
  t.app.route('/', createAdminRoutes(t.services, TOKEN));
  outbox = join(mkdtempSync(join(tmpdir(), 'svc-privacy-')), 'outbox');
  deps = { ...t.services.delivery, mailer: createMailer({ outboxDir: outbox }) };
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const admin = async (method: string, path: string, body?: unknown) => {
  const res = await t.app.request(path, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json() };
};

const tables: PgTable[] = Object.values(schema).filter((v) => v instanceof PgTable);

/** Every row of every table, as text: to prove a value is nowhere in the database. */
async function wholeDatabase(opts: { withAudit?: boolean } = {}): Promise<string> {
  const parts = await Promise.all(
    tables
      .filter((table) => opts.withAudit !== false || table !== schema.auditEvents)
      .map(async (table) => JSON.stringify(await t.database.db.select().from(table))),
  );
  return parts.join('\n');
}

/** Drains the outbox: the worker takes at most a few deliveries per endpoint per pass. */
async function drain() {
  for (let i = 0; i < 20; i++) {
    const done = await runDeliveryOnce(deps);
    if (done.webhooks + done.mails === 0) return;
  }
}

async function firm() {
  const f = await t.seed.firm({ paidThrough: new Date('2030-01-01T00:00:00Z') });
  await t.database.db
    .update(schema.accounts)
    .set({ alertEmails: ['intake@smithlaw.example'] })
    .where(eq(schema.accounts.id, f.account.id));
  await admin('POST', '/admin/v1/webhooks', {
    accountId: f.account.id,
    url: receiver.url,
    events: ['lead.created', 'lead.updated', 'result.created'],
  });
  const embed = (
    await (
      await t.json(
        '/v1/api/license/activate',
        { licenseKey: f.publishableKey },
        { origin: 'https://smithlaw.com' },
      )
    ).json()
  ).token as string;
  const { apiKey } = await t.seed.apiKey(f.account.id);
  let n = 0;
  const lead = async (email: string, name = 'Zoë Ødegård') => {
    const result = await (
      await t.json(
        '/v1/api/calc/estimate',
        { calculator: 'estate-tax', state: 'NY', inputs: { estateValue: 7_500_000 } },
        { authorization: `Bearer ${embed}` },
      )
    ).json();
    const res = await t.json(
      '/v1/api/leads',
      {
        resultId: result.resultId,
        calculator: 'estate-tax',
        name,
        email,
        state: 'NY',
        consent: true,
        consentText: 'OK to contact me.',
      },
      { authorization: `Bearer ${embed}`, 'idempotency-key': `idem-${f.account.id}-${++n}` },
    );
    expect(res.status).toBe(201);
    return { leadId: (await res.json()).leadId as string, resultId: result.resultId as string };
  };
  return { ...f, embed, apiKey, lead };
}

describe('lead deletion', () => {
  it('erases the lead, its result, outbox payloads, delivery logs and mail files; the audit keeps no personal data', async () => {
    const f = await firm();
    const email = 'erase.me@example.com';
    const { leadId, resultId } = await f.lead(email, 'Erin Erasable');
    const kept = await f.lead('keep.me@example.com', 'Kim Keep');
    await drain();
    expect(await wholeDatabase()).toContain(email);
    expect(readdirSync(outbox).length).toBeGreaterThanOrEqual(2);

    const res = await admin('DELETE', `/admin/v1/leads/${leadId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deleted: true, leadId, resultDeleted: resultId, mailsDeleted: 1 });
    expect(res.body.outboxEventsDeleted).toBe(2); // result.created + lead.created

    const everything = await wholeDatabase();
    for (const trace of [email, 'Erin Erasable']) expect(everything).not.toContain(trace);
    const results = await t.database.db
      .select()
      .from(schema.calculationResults)
      .where(eq(schema.calculationResults.id, resultId));
    expect(results).toHaveLength(0);
    expect(everything).toContain('keep.me@example.com');
    const files = readdirSync(outbox);
    const mails = await t.database.db
      .select()
      .from(schema.mailMessages)
      .where(eq(schema.mailMessages.leadId, kept.leadId));
    expect(files).toContain(`${mails[0]!.id}.eml`);
    expect(files.every((name) => !name.includes(leadId))).toBe(true);
    const [audit] = await t.database.db
      .select()
      .from(schema.auditEvents)
      .where(eq(schema.auditEvents.subject, leadId));
    expect(audit!.action).toBe('lead.deleted');
    expect(await wholeDatabase({ withAudit: true })).not.toContain(email);

    expect((await admin('DELETE', `/admin/v1/leads/${leadId}`)).body.error).toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
    });
  });
});

describe('data-subject export', () => {
  it('returns every copy about one address in this firm, and nothing of other people or firms', async () => {
    const f = await firm();
    const other = await firm();
    const a = await f.lead('Sam.Subject@example.com', 'Sam Subject');
    const b = await f.lead('sam.subject@example.com', 'Sam S.');
    await f.lead('someone.else@example.com', 'Someone Else');
    await other.lead('sam.subject@example.com', 'Sam at another firm');
    await drain();

    const res = await admin(
      'GET',
      `/admin/v1/accounts/${f.account.id}/export?email=SAM.SUBJECT%40example.com`,
    );
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body.leads.map((l: { id: string }) => l.id).sort()).toEqual([a.leadId, b.leadId].sort());
    expect(body.results.map((r: { id: string }) => r.id).sort()).toEqual([a.resultId, b.resultId].sort());
    expect(body.outboxEvents.length).toBe(4);
    expect(body.webhookDeliveries.length).toBe(4);
    expect(body.webhookDeliveries.every((d: { attempts: unknown[] }) => d.attempts.length === 1)).toBe(true);
    expect(body.mails).toHaveLength(2);
    expect(body.mails.every((m: { fileContent: string }) => m.fileContent.includes('Subject:'))).toBe(true);
    const text = JSON.stringify(body);
    expect(text).not.toContain('Someone Else');
    expect(text).not.toContain('another firm');
    expect((await admin('GET', '/admin/v1/accounts/acct_nope/export?email=a%40b.c')).status).toBe(404);
  });
});

describe('account close', () => {
  it('stops access now and deletes every row of the firm after the grace period', async () => {
    const f = await firm();
    const bystander = await firm();
    await f.lead('client@example.com');
    await bystander.lead('client@example.com');
    await drain();

    const closed = await admin('POST', `/admin/v1/accounts/${f.account.id}/close`);
    expect(closed.status).toBe(200);
    expect(closed.body.graceDays).toBe(30);
    expect(Date.parse(closed.body.deleteAfter) - t.clock.now().getTime()).toBe(30 * DAY);
    expect((await admin('POST', `/admin/v1/accounts/${f.account.id}/close`)).body.deleteAfter).toBe(
      closed.body.deleteAfter,
    );
    const activate = await t.json(
      '/v1/api/license/activate',
      { licenseKey: f.publishableKey },
      { origin: 'https://smithlaw.com' },
    );
    expect(activate.status).toBe(401);
    expect((await t.get('/v1/api/leads', f.apiKey)).status).toBe(401);
    const [endpoint] = (await admin('GET', `/admin/v1/accounts/${f.account.id}/webhooks`)).body.endpoints;
    expect(endpoint.status).toBe('disabled');

    t.clock.advance(29 * DAY);
    await runRetention(deps);
    expect(await wholeDatabase()).toContain(f.account.id);
    t.clock.advance(2 * DAY);
    const report = await runRetention(deps);
    expect(report.accountsDeleted).toBe(1);
    const everything = await wholeDatabase({ withAudit: false });
    expect(everything).not.toContain(f.account.id);
    expect(everything).not.toContain(f.license.id);
    expect(everything).toContain(bystander.account.id);
    const [gone] = await t.database.db
      .select()
      .from(schema.auditEvents)
      .where(eq(schema.auditEvents.subject, f.account.id));
    expect(gone).toMatchObject({ action: 'account.deleted', accountId: null });
    expect((await admin('POST', `/admin/v1/accounts/${f.account.id}/close`)).status).toBe(404);
    t.clock.set('2026-03-01T12:00:00Z');
  });

  it('knows every table that holds firm data (a new table must be added to the deletion)', () => {
    const firmTables = tables
      .filter((table) =>
        getTableConfig(table).columns.some((c) => c.name === 'account_id' || c.name === 'license_id'),
      )
      .map((table) => getTableName(table));
    for (const name of firmTables) expect(ACCOUNT_DATA_TABLES).toContain(name);
  });
});

describe('retention', () => {
  it('applies each rule at its age, and only then', async () => {
    const now = new Date('2027-01-01T00:00:00Z');
    const ago = (days: number) => new Date(now.getTime() - days * DAY);
    // Delivery logs: one event 31 days old and done, one as old but still pending, one fresh.
    t.clock.set(ago(31));
    const f = await firm();
    await f.lead('old.log@example.com');
    await drain();
    t.clock.set(now);
    await (await firm()).lead('fresh.log@example.com');
    await drain();
    t.clock.set(ago(31));
    const [pendingEndpoint] = (await admin('GET', `/admin/v1/accounts/${f.account.id}/webhooks`)).body
      .endpoints;
    await admin('POST', `/admin/v1/webhooks/${pendingEndpoint.id}/test`); // still pending: the worker has not run since
    t.clock.set(now);
    const db = t.database.db;
    const result = (id: string, createdAt: Date) => ({
      id,
      accountId: f.account.id,
      calculator: 'estate-tax',
      inputs: {},
      outputs: {},
      lineItems: [],
      notes: [],
      ruleSet: {},
      disclaimer: 'x',
      createdAt,
    });
    await db
      .insert(schema.calculationResults)
      .values([
        result('res_orphan_old', ago(366)),
        result('res_orphan_young', ago(300)),
        result('res_with_lead', ago(400)),
      ]);
    await db.insert(schema.leads).values({
      id: newId('lead'),
      accountId: f.account.id,
      calculator: 'estate-tax',
      resultId: 'res_with_lead',
      name: 'N',
      email: 'n@example.com',
      status: 'new',
      consentText: 'x',
      consentedAt: ago(400),
      createdAt: ago(400),
      updatedAt: ago(400),
    });
    const key = (k: string, expiresAt: Date) => ({
      accountId: f.account.id,
      key: k,
      requestHash: 'h',
      responseStatus: 201,
      responseBody: {},
      createdAt: ago(2),
      expiresAt,
    });
    await db
      .insert(schema.idempotencyKeys)
      .values([key('expired-key', ago(1)), key('live-key', new Date(now.getTime() + DAY))]);
    const code = (id: string, expiresAt: Date, usedAt: Date | null) => ({
      id,
      codeHmac: id,
      licenseId: f.license.id,
      redirectUri: 'https://smithlaw.com/cb',
      codeChallenge: 'c'.repeat(43),
      codeChallengeMethod: 'S256',
      domain: 'smithlaw.com',
      scope: 'site admin',
      expiresAt,
      usedAt,
      createdAt: expiresAt,
    });
    await db
      .insert(schema.authCodes)
      .values([
        code('code_old_used', ago(2), ago(2)),
        code('code_fresh_used', new Date(now.getTime() - 60_000), now),
      ]);
    const [activation] = await db
      .insert(schema.activations)
      .values({
        id: newId('act'),
        licenseId: f.license.id,
        domain: 'smithlaw.com',
        env: 'prod',
        firstSeenAt: ago(200),
        lastSeenAt: ago(100),
      })
      .returning();
    const token = (id: string, family: string, expiresAt: Date) => ({
      id,
      familyId: family,
      activationId: activation!.id,
      licenseId: f.license.id,
      domain: 'smithlaw.com',
      scope: 'site',
      tokenHmac: id,
      expiresAt,
      createdAt: ago(120),
    });
    await db
      .insert(schema.refreshTokens)
      .values([
        token('rt_dead_1', 'fam_dead', ago(40)),
        token('rt_dead_2', 'fam_dead', ago(10)),
        token('rt_half_1', 'fam_half', ago(30)),
        token('rt_half_2', 'fam_half', new Date(now.getTime() + DAY)),
      ]);
    const filesBefore = readdirSync(outbox).length;

    const report = await runRetention({ ...deps, resultRetentionDays: 365 });
    // Earlier tests share the database, so counts are at least these; the rows below are exact.
    for (const rule of [
      'idempotencyKeys',
      'connectCodes',
      'refreshTokens',
      'deliveryLogs',
      'mails',
      'results',
    ] as const) {
      expect(report[rule]).toBeGreaterThanOrEqual(1);
    }
    const ids = async (table: PgTable, column: string) =>
      ((await db.select().from(table)) as Record<string, unknown>[]).map((r) => r[column]);
    const results = await ids(schema.calculationResults, 'id');
    expect(results).not.toContain('res_orphan_old');
    expect(results).toEqual(expect.arrayContaining(['res_orphan_young', 'res_with_lead']));
    expect(await ids(schema.idempotencyKeys, 'key')).toContain('live-key');
    expect(await ids(schema.idempotencyKeys, 'key')).not.toContain('expired-key');
    expect(await ids(schema.authCodes, 'id')).toEqual(['code_fresh_used']);
    expect((await ids(schema.refreshTokens, 'id')).sort()).toEqual(['rt_half_1', 'rt_half_2']);
    // Leads stay (they are the firm's records); the delivery copies of the old one are gone.
    const logs = JSON.stringify(await db.select().from(schema.outboxEvents));
    expect(logs).not.toContain('old.log@example.com');
    expect(logs).toContain('fresh.log@example.com');
    expect(logs).toContain('Test Lead'); // the old but still pending test delivery is kept
    expect(readdirSync(outbox).length).toBe(filesBefore - 1);

    const shorter = await runRetention({ ...deps, resultRetentionDays: 100 });
    expect(shorter.results).toBe(1); // RESULT_RETENTION_DAYS decides
    t.clock.set('2026-03-01T12:00:00Z');
  });
});
