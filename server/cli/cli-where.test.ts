import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../test-support/cli.ts';
import { startStack } from '../test-support/stack.ts';

const temp = (name: string) => mkdtempSync(join(tmpdir(), `svc-${name}-`));

describe('the CLI says where it looked', () => {
  it('names the data directory it opened when it finds nothing', async () => {
    const dataDir = temp('cli-empty');
    const run = await runCli(dataDir, ['license', 'show', 'lic_nothere']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('[NOT_FOUND]');
    expect(run.stderr).toContain(`asked the data directory ${dataDir} (no server running)`);
    expect(run.stderr).toContain('set DATA_DIR');
  });

  it('run from the checkout without DATA_DIR, finds the server npm start runs with its own, not a fresh ./data', async () => {
    const serverDir = temp('cli-server');
    const stack = await startStack({ DATA_DIR: serverDir });
    const elsewhere = temp('cli-cwd');
    try {
      const run = await runCli(
        serverDir,
        ['demo', 'credentials'],
        { DATA_DIR: '' },
        { fromTemplate: false, cwd: elsewhere },
      );
      if (run.code === 0) {
        // It talked to our server: the demo firm's keys, and no ./data was made where it ran.
        expect(run.stdout).toMatch(/svc_pk_\w+/);
      } else {
        // Other servers of this checkout run beside it (a full test run): it says so, and names ours.
        expect(run.stderr).toContain('servers run from this checkout');
        expect(run.stderr).toContain(serverDir);
      }
      expect(existsSync(join(elsewhere, 'data'))).toBe(false);
    } finally {
      await stack.close();
    }
  });
});
