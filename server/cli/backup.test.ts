import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../test-support/cli.ts';
import { startStack } from '../test-support/stack.ts';

// No template copy: the restores below go into directories that must stay without a database.
const svc = (dataDir: string, ...args: string[]) =>
  runCli(dataDir, args, { SECRET_KEY: '' }, { fromTemplate: false });

async function leadCount(apiUrl: string, apiKey: string): Promise<number> {
  const res = await fetch(`${apiUrl}/v1/api/leads?limit=100`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: unknown[] }).data.length;
}

/** The restore drill: back up a live server, lose data, restore, and find the data as it was. */
describe('backup and restore of the embedded database', { timeout: 180_000 }, () => {
  it('takes a hot backup from a running server and restores it after the server stops', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-backup-'));
    const file = join(dataDir, '..', `${dataDir.split('/').pop()}.tar.gz`);
    const first = await startStack({ DATA_DIR: dataDir });
    const leadsAtBackup = await leadCount(first.apiUrl, first.demo.apiKey);
    expect(leadsAtBackup).toBeGreaterThan(0);

    const backup = await svc(dataDir, 'backup', file);
    expect(backup.stderr).toBe('');
    expect(backup.stdout).toContain('from the running server');
    expect(statSync(file).mode & 0o077).toBe(0);

    // While the server runs, restore refuses to touch its database.
    const busy = await svc(dataDir, 'restore', file);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain('Stop the server first');
    await first.close();

    // Lose the data: a fresh database in the same directory (same secret key file).
    const { rmSync } = await import('node:fs');
    rmSync(join(dataDir, 'pglite'), { recursive: true });
    const wiped = await startStack({ DATA_DIR: dataDir, SEED_DEMO: 'false' });
    await wiped.close();

    const restored = await svc(dataDir, 'restore', file);
    expect(restored.code).toBe(0);
    expect(readdirSync(dataDir).some((n) => n.startsWith('pglite.before-restore-'))).toBe(true);
    const again = await startStack({ DATA_DIR: dataDir });
    try {
      expect(await leadCount(again.apiUrl, again.demo.apiKey)).toBe(leadsAtBackup);
    } finally {
      await again.close();
    }
  });

  it('refuses a file that is not a backup, and a backup the secret key cannot open, changing nothing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-backup-bad-'));
    const junk = join(dataDir, 'junk.tar.gz');
    writeFileSync(junk, 'not a tarball');
    const bad = await svc(dataDir, 'restore', junk);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/not an svc backup|holds no svc database/);
    expect(existsSync(join(dataDir, 'pglite'))).toBe(false);

    const other = mkdtempSync(join(tmpdir(), 'svc-backup-other-'));
    const s = await startStack({ DATA_DIR: other });
    await s.close();
    const foreign = join(other, 'foreign.tar.gz');
    expect((await svc(other, 'backup', foreign)).code).toBe(0);
    const refused = await svc(dataDir, 'restore', foreign);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('secret key does not open this database');
    expect(readdirSync(dataDir).filter((n) => n.startsWith('pglite'))).toEqual([]);
  });

  it('backup and restore need a FILE', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-backup-usage-'));
    expect((await svc(dataDir, 'backup')).code).toBe(2);
  });
});
