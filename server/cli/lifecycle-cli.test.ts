import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../infra/env.ts';
import { runCli } from '../test-support/cli.ts';
import { startStack } from '../test-support/stack.ts';
import { type AdminTransport, connectAdmin } from './admin-transport.ts';
import { parseCli, toRequest } from './commands.ts';

/** The real CLI process, for exit codes and what a person sees on stderr. */
const svcProcess = (dataDir: string, ...args: string[]) => runCli(dataDir, args);

/**
 * The same command line through the same parser and transport as main.ts, in this process: a
 * process per command costs seconds (tsx, PGlite), and main.ts adds only printing.
 */
async function svcWith(admin: AdminTransport, ...args: string[]) {
  const { positionals, values } = parseCli(args);
  const req = toRequest(positionals, values);
  const { status, body } = await admin.call(req.method, req.path, req.body);
  // biome-ignore lint/suspicious/noExplicitAny: test reads of JSON answers
  return { status, body: body as Record<string, any>, text: status < 400 ? req.render(body) : '' };
}

const env = (dataDir: string) => ({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir });

describe('lifecycle CLI', () => {
  it('manages accounts, licenses and seats with no server, then through the admin API while one runs', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-lifecycle-cli-'));
    const badDate = await svcProcess(dataDir, 'license', 'update', 'lic_x', '--paid-through', '31/01/2027');
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toContain('YYYY-MM-DD');

    // No server: the CLI opens the embedded database itself.
    const direct = await connectAdmin(loadConfig(env(dataDir)));
    expect(direct.mode).toBe('direct');
    let licenseId: string;
    let licenseKey: string;
    let accountId: string;
    try {
      const svc = (...args: string[]) => svcWith(direct, ...args);
      const nope = await svc(
        'license',
        'create',
        '--account',
        'acct_nope',
        '--plan',
        'pro',
        '--seats',
        '1',
        '--domains',
        'a.com',
        '--trial-days',
        '3',
      );
      expect(nope.body.error).toMatchObject({
        code: 'NOT_FOUND',
        status: 404,
        message: expect.stringContaining('acct_nope'),
      });
      accountId = (await svc('account', 'create', '--name', 'Smith & Søn')).body.account.id;
      const updated = await svc(
        'account',
        'update',
        accountId,
        '--name',
        'Smith Law',
        '--accent',
        '#1A6B4F',
        '--alert-emails',
        'office@smithlaw.com,partner@smithlaw.com',
        '--consent-text',
        'I agree that Smith Law may contact me about my enquiry.',
      );
      expect(updated.text).toMatch(/accent\s+#1a6b4f/);
      expect(updated.text).toMatch(/consent\s+v1: I agree that Smith Law/);
      expect(updated.text).toMatch(/lead retention\s+off/);
      // The retention window (issue 40), as Settings → Firm sets it: months, the server's range, off.
      const kept = await svc('account', 'update', accountId, '--lead-retention', '24');
      expect(kept.text).toMatch(
        /lead retention\s+erase leads not converted 24 months after their last change/,
      );
      const short = (await svc('account', 'update', accountId, '--lead-retention', '2')).body.error;
      expect(short).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
      expect(JSON.stringify(short)).toContain('3 to 84 months');
      expect((await svc('account', 'update', accountId, '--lead-retention', 'off')).text).toMatch(
        /lead retention\s+off/,
      );
      expect((await svc('account', 'list')).body.accounts).toEqual([
        expect.objectContaining({ id: accountId, name: 'Smith Law', licenses: 0 }),
      ]);

      const created = await svc(
        'license',
        'create',
        '--account',
        accountId,
        '--plan',
        'pro',
        '--seats',
        '2',
        '--domains',
        'smithlaw.com,*.smithlaw.com',
        '--trial-days',
        '14',
      );
      licenseId = created.body.license.id;
      licenseKey = created.body.licenseKey;
      const changed = await svc(
        'license',
        'update',
        licenseId,
        '--add-domains',
        'https://www.Smith-Annex.com',
        '--plan',
        'agency',
        '--paid-through',
        '2027-01-31',
      );
      expect(changed.text).toMatch(/status\s+active/);
      expect(changed.text).toMatch(/domains\s+smithlaw\.com, \*\.smithlaw\.com, smith-annex\.com/);
      expect(changed.text).toMatch(/next\s+Paid through 2027-01-31; unless renewed, grace ends 2027-02-07/);
      const badPlan = await svc('license', 'update', licenseId, '--plan', 'gold');
      expect({ status: badPlan.status, code: badPlan.body.error.code }).toEqual({
        status: 400,
        code: 'INVALID_REQUEST',
      });
      const badKey = await svc('apikey', 'revoke', 'key_nope', '--account', accountId);
      expect({ status: badKey.status, code: badKey.body.error.code }).toEqual({
        status: 404,
        code: 'NOT_FOUND',
      });
    } finally {
      await direct.close();
    }

    // A running server owns the database: the same commands go through its admin API.
    const server = await startStack({ DATA_DIR: dataDir });
    const remote = await connectAdmin(loadConfig(env(dataDir)));
    try {
      expect(remote.mode).toBe('server');
      const svc = (...args: string[]) => svcWith(remote, ...args);
      const activate = async (siteDomain: string) =>
        fetch(`${server.apiUrl}/v1/api/licenses/activate`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ licenseKey, siteDomain }),
        });
      expect((await activate('smithlaw.com')).status).toBe(200);
      expect((await activate('smith-annex.com')).status).toBe(200);

      expect((await svc('license', 'list', '--account', accountId)).body.licenses).toEqual([
        expect.objectContaining({ id: licenseId, seatsUsed: 2, plan: 'agency' }),
      ]);
      const shown = await svc('license', 'show', licenseId);
      const annex = shown.body.activations.find((a: { domain: string }) => a.domain === 'smith-annex.com');
      expect(annex).toMatchObject({
        id: expect.stringMatching(/^act_/),
        env: 'prod',
        lastSeenAt: expect.any(String),
      });
      expect(shown.text).toContain(`${annex.id}  smith-annex.com (prod)  last seen`);

      const tooFew = await svcProcess(dataDir, 'license', 'update', licenseId, '--seats', '1');
      expect(tooFew.code).toBe(1);
      expect(tooFew.stderr).toContain(annex.id);
      expect(tooFew.stderr).toContain('[SEATS_IN_USE]');

      const released = await svc('activation', 'release', annex.id);
      expect(released.text).toContain(`released ${annex.id} (smith-annex.com)`);
      expect(released.text).toMatch(/seats\s+1 of 2 used/);
      const fewer = await svc(
        'license',
        'update',
        licenseId,
        '--seats',
        '1',
        '--remove-domains',
        'smith-annex.com',
      );
      expect(fewer.body.license).toMatchObject({
        seats: 1,
        allowedDomains: ['smithlaw.com', '*.smithlaw.com'],
      });
      expect((await activate('smith-annex.com')).status).toBe(403);

      const account = await svc('account', 'show', accountId);
      expect(account.text).toMatch(/alert emails\s+office@smithlaw\.com, partner@smithlaw\.com/);
      expect(account.text).toContain(licenseId);
      expect((await svc('activation', 'release', 'act_nope')).body.error.code).toBe('NOT_FOUND');
    } finally {
      await remote.close();
      await server.close();
    }
  }, 120_000);
});
