import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../test-support/cli.ts';
import { startStack } from '../test-support/stack.ts';

const svc = (dataDir: string, ...args: string[]) => runCli(dataDir, args);

describe('admin CLI', () => {
  it('works on the embedded database with no server, and through the admin API while one runs', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
    const account = await svc(dataDir, 'account', 'create', '--name', 'Smith & Søn', '--json');
    expect(account.code).toBe(0);
    const accountId = JSON.parse(account.stdout).account.id as string;

    const license = await svc(
      dataDir,
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
    expect(license.code).toBe(0);
    expect(license.stdout).toMatch(/key\s+SVC-[0-9A-Z-]+/);
    expect(license.stdout).toMatch(/status\s+trial/);
    expect(license.stdout).toContain('not shown again');
    expect(license.stdout).toMatch(/publishable\s+svc_pk_\w+/);
    const licenseId = /license\s+(lic_\w+)/.exec(license.stdout)![1]!;

    const bad = await svc(
      dataDir,
      'license',
      'create',
      '--account',
      accountId,
      '--plan',
      'pro',
      '--seats',
      '1',
      '--domains',
      '*.co.uk',
      '--trial-days',
      '3',
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/public suffix/);
    expect((await svc(dataDir, 'license', 'frobnicate')).code).toBe(2);

    // With a server running, PGlite belongs to it: the CLI must go through the admin API.
    const server = await startStack({ DATA_DIR: dataDir });
    try {
      const key = await svc(
        dataDir,
        'apikey',
        'create',
        '--account',
        accountId,
        '--name',
        'Zapier',
        '--scopes',
        'leads:read,leads:write',
        '--json',
      );
      expect(key.code).toBe(0);
      const created = JSON.parse(key.stdout);
      expect(created.apiKey).toMatch(/^svc_pat_/);
      expect(created.scopes).toEqual(['leads:read', 'leads:write']);
      const before = JSON.parse((await svc(dataDir, 'license', 'show', licenseId, '--json')).stdout);
      expect(before.publishableKey).toMatch(/^svc_pk_/);
      const rolled = await svc(dataDir, 'license', 'roll-key', licenseId, '--kind', 'publishable', '--now');
      expect(rolled.code).toBe(0);
      const after = JSON.parse((await svc(dataDir, 'license', 'show', licenseId, '--json')).stdout);
      expect(after.publishableKey).toMatch(/^svc_pk_/);
      expect(after.publishableKey).not.toBe(before.publishableKey);
      expect(rolled.stdout).toContain(after.publishableKey);
      const secret = await svc(
        dataDir,
        'license',
        'roll-key',
        licenseId,
        '--kind',
        'secret',
        '--overlap',
        '2h',
      );
      expect(secret.stdout).toMatch(/secret key\s+SVC-/);
      expect(
        (await svc(dataDir, 'license', 'roll-key', licenseId, '--kind', 'secret', '--overlap', 'soon')).code,
      ).toBe(2);
      const list = await svc(dataDir, 'apikey', 'list', '--account', accountId);
      expect(list.stdout).toContain(created.id);
      expect(list.stdout).not.toContain(created.apiKey);
      expect((await svc(dataDir, 'license', 'revoke', licenseId)).stdout).toMatch(/status\s+revoked/);
      const shown = await svc(dataDir, 'license', 'show', licenseId, '--json');
      expect(JSON.parse(shown.stdout).license.status).toBe('revoked');
    } finally {
      await server.close();
    }
  }, 240_000);
});
