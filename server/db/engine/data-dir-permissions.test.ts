import { chmodSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startStack } from '../../test-support/stack.ts';

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? [path, ...walk(path)] : [path];
  });
}

describe('DATA_DIR permissions', () => {
  it('attack: no file of the data directory is readable or writable by others (0700 dirs, 0600 files)', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'svc-perm-')), 'data');
    // What an older version left behind: a world-writable directory and file.
    mkdirSync(join(dataDir, 'old'), { recursive: true, mode: 0o777 });
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, 'old', 'leftover'), 'x', { mode: 0o666 });
    chmodSync(join(dataDir, 'old', 'leftover'), 0o666);
    // … beside its own files (a directory holding none of them is refused as not svc's).
    writeFileSync(join(dataDir, 'admin-token'), 'svc_admin_left-by-an-older-version\n');
    chmodSync(join(dataDir, 'admin-token'), 0o644);
    const stack = await startStack({ DATA_DIR: dataDir });
    try {
      const entries = [dataDir, ...walk(dataDir)];
      expect(entries.length).toBeGreaterThan(100); // PGlite's files are there
      const open = entries.filter((path) => (statSync(path).mode & 0o077) !== 0);
      expect(open).toEqual([]);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    } finally {
      await stack.close();
    }
  }, 60_000);
});
