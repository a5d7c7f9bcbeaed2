import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminRoutes } from '../routes/admin/index.ts';
import { createTestContext, type TestContext } from '../test-support/services.ts';
import { parseCli, toRequest, UsageError } from './commands.ts';

const TOKEN = 'cli-admin-token-'.padEnd(40, 'd');
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  t.app.route('/', createAdminRoutes(t.services, TOKEN));
});
afterAll(() => t.close());

/** A command line through the CLI's parser and request mapping, against the admin API in-process. */
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
