import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminRoutes } from '../routes/admin/index.ts';
import { runCli } from '../test-support/cli.ts';
import { createTestContext, type TestContext } from '../test-support/services.ts';
import { parseCli, toRequest, UsageError } from './commands.ts';

const TOKEN = 'cli-admin-token-'.padEnd(40, 'c');
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  t.app.route('/', createAdminRoutes(t.services, TOKEN));
});
afterAll(() => t.close());

/** Runs a command line through the CLI's parser and request mapping against the admin API in-process. */
async function svc(...argv: string[]) {
  const { positionals, values } = parseCli(argv);
  const req = toRequest(positionals, values);
  const res = await t.app.request(req.path, {
    method: req.method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
  });
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, body, text: res.status < 400 ? req.render(body) : '' };
}

describe('webhook, lead and account commands', () => {
  it('create, list, test, deliveries, replay, roll-secret, delete', async () => {
    const f = await t.seed.firm();
    const created = await svc(
      'webhook',
      'create',
      '--account',
      f.account.id,
      '--url',
      'https://hooks.example.com/in',
      '--events',
      'lead.created,lead.updated',
      '--description',
      'Zapier',
    );
    expect(created.status).toBe(200);
    expect(created.text).toMatch(/secret\s+whsec_/);
    expect(created.text).toContain('not shown again');
    const id = (created.body.endpoint as { id: string }).id;
    expect((await svc('webhook', 'list', '--account', f.account.id)).text).toContain(id);
    expect((await svc('webhook', 'test', id)).text).toMatch(/queued test delivery dlv_/);
    const deliveries = await svc('webhook', 'deliveries', id, '--limit', '5');
    expect(deliveries.text).toMatch(/dlv_\w+\s+lead\.created\s+pending/);
    const deliveryId = (deliveries.body.deliveries as { id: string }[])[0]!.id;
    expect((await svc('webhook', 'replay', deliveryId)).text).toMatch(/^queued dlv_/);
    const rolled = await svc('webhook', 'roll-secret', id, '--overlap', '2d');
    expect(rolled.text).toMatch(/old secret until/);
    expect((rolled.body.endpoint as { previousSecretValidUntil: string }).previousSecretValidUntil).toBe(
      '2026-03-03T12:00:00.000Z',
    );
    expect((await svc('webhook', 'roll-secret', id, '--now')).text).not.toMatch(/old secret until/);
    expect((await svc('webhook', 'delete', id)).text).toBe(`deleted ${id}`);
    expect((await svc('webhook', 'deliveries', id)).status).toBe(404);
  });

  it('update (events, description) and disable/enable, through the admin PATCH the portal shares', async () => {
    const f = await t.seed.firm();
    const created = await svc(
      'webhook',
      'create',
      '--account',
      f.account.id,
      '--url',
      'https://hooks.example.com/crm',
      '--events',
      'lead.created',
    );
    const id = (created.body.endpoint as { id: string }).id;
    const updated = await svc('webhook', 'update', id, '--events', 'lead.created,result.created');
    expect(updated.text).toMatch(/events\s+lead\.created, result\.created/);
    const described = await svc('webhook', 'update', id, '--description', 'HubSpot');
    expect((described.body.endpoint as { description: string }).description).toBe('HubSpot');
    expect((await svc('webhook', 'disable', id)).text).toMatch(/status\s+disabled/);
    expect((await svc('webhook', 'enable', id)).text).toMatch(/status\s+enabled/);
    expect((await svc('webhook', 'update', id, '--events', 'lead.deleted')).status).toBe(400);
  });

  it('lead export, lead delete, account close and retention run', async () => {
    const f = await t.seed.firm();
    const exported = await svc('lead', 'export', '--account', f.account.id, '--email', 'nobody@example.com');
    expect(exported.body).toMatchObject({ email: 'nobody@example.com', leads: [] });
    expect(JSON.parse(exported.text).accountId).toBe(f.account.id);
    expect((await svc('lead', 'delete', 'lead_nope')).body.error).toMatchObject({ code: 'NOT_FOUND' });
    const closed = await svc('account', 'close', f.account.id);
    expect(closed.text).toMatch(/deleted after\s+2026-03-31/);
    expect((await svc('retention', 'run')).text).toMatch(/idempotencyKeys/);
  });

  it.each([
    [['webhook', 'create', '--account', 'a', '--url', 'https://x.example']],
    [['webhook', 'replay']],
    [['webhook', 'update', 'whe_1']],
    [['webhook', 'disable']],
    [['webhook', 'roll-secret', 'whe_1', '--overlap', 'soon']],
    [['lead', 'export', '--account', 'a']],
    [['account', 'close']],
  ])('refuses %j as bad usage', (argv) => {
    const { positionals, values } = parseCli(argv);
    expect(() => toRequest(positionals, values)).toThrow(UsageError);
  });
});

describe('the svc binary', () => {
  it('creates a webhook on the embedded database and prints JSON with --json', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-cli-webhook-'));
    const run = async (...args: string[]) => {
      const result = await runCli(dataDir, args);
      expect(result.code, result.stderr).toBe(0);
      return result;
    };
    const account = JSON.parse((await run('account', 'create', '--name', 'CLI Law', '--json')).stdout).account
      .id;
    const { stdout } = await run(
      'webhook',
      'create',
      '--account',
      account,
      '--url',
      'https://hooks.example.com/x',
      '--events',
      'lead.created',
      '--json',
    );
    const body = JSON.parse(stdout);
    expect(body.secret).toMatch(/^whsec_/);
    expect(body.endpoint).toMatchObject({ accountId: account, events: ['lead.created'], status: 'enabled' });
  }, 120_000);
});

describe('destination commands', () => {
  it('create, list, show, update, test, disable, enable, roll-credentials, deliveries, delete', async () => {
    const f = await t.seed.firm();
    const created = await svc(
      'destination',
      'create',
      '--account',
      f.account.id,
      '--vendor',
      'clio-grow',
      '--credential',
      'clio-token-abcd1234',
      '--settings',
      '{"region":"eu"}',
      '--name',
      'Intake',
    );
    expect(created.status).toBe(200);
    expect(created.text).toMatch(/credential\s+…1234/);
    expect(created.text).not.toContain('clio-token-abcd1234');
    expect(created.text).toContain('https://eu.grow.clio.com/inbox_leads');
    const id = (created.body.destination as { id: string }).id;
    expect((await svc('destination', 'list', '--account', f.account.id)).text).toContain(id);
    expect((await svc('destination', 'show', id)).text).toMatch(/last delivery\s+none yet/);
    expect((await svc('destination', 'update', id, '--settings', '{"region":"au"}')).text).toContain(
      'au.grow.clio.com',
    );
    expect((await svc('destination', 'test', id)).text).toMatch(/queued test delivery dlv_/);
    expect((await svc('destination', 'deliveries', id)).text).toMatch(/dlv_\S+\s+pending\s+test/);
    expect((await svc('destination', 'disable', id)).text).toMatch(/status\s+disabled/);
    expect((await svc('destination', 'enable', id)).text).toMatch(/status\s+enabled/);
    expect(
      (await svc('destination', 'roll-credentials', id, '--credential', 'clio-token-wxyz9876')).text,
    ).toMatch(/credential\s+…9876/);
    const json = await svc('destination', 'show', id, '--json');
    expect(json.body.destination).toMatchObject({ id, vendor: 'clio-grow', credentialLast4: '9876' });
    expect((await svc('destination', 'delete', id)).text).toBe(`deleted ${id}`);
    expect((await svc('destination', 'show', id)).status).toBe(404);
  });

  it.each([
    [['destination', 'create', '--account', 'a', '--vendor', 'hubspot']],
    [['destination', 'show']],
    [['destination', 'update', 'dst_1']],
    [['destination', 'update', 'dst_1', '--settings', 'not json']],
    [['destination', 'roll-credentials', 'dst_1']],
  ])('%j is a usage error', (argv) => {
    const { positionals, values } = parseCli(argv);
    expect(() => toRequest(positionals, values)).toThrow(UsageError);
  });
});
