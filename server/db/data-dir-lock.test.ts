import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirInUseError } from './data-dir-lock.ts';

const tempDir = () => mkdtempSync(join(tmpdir(), 'svc-lock-'));

/** The pid of a process that has already exited. */
function deadPid(): string {
  return spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  }).stdout;
}

describe('data directory lock', () => {
  it('lets one holder in, refuses a second with a clear error, and frees on release', () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir);
    expect(readFileSync(join(dir, 'svc.lock'), 'utf8')).toBe(String(process.pid));
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirInUseError);
    expect(() => acquireDataDirLock(dir)).toThrow(new RegExp(`in use by process ${process.pid}\\b`));
    lock.release();
    expect(existsSync(join(dir, 'svc.lock'))).toBe(false);
    acquireDataDirLock(dir).release();
  });

  it.each([
    ['a dead process', deadPid],
    ['nobody (empty file)', () => ''],
    ['garbage', () => 'not a pid'],
  ])('takes over a lock left by %s', (_label, content) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'svc.lock'), content());
    const lock = acquireDataDirLock(dir);
    expect(readFileSync(join(dir, 'svc.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
  });

  it('takes over when a takeover guard was left by a dead process', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'svc.lock'), deadPid());
    writeFileSync(join(dir, 'svc.lock.takeover'), deadPid());
    acquireDataDirLock(dir).release();
    expect(existsSync(join(dir, 'svc.lock.takeover'))).toBe(false);
  });

  it('does not remove a lock that another process took over after this one', () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir);
    writeFileSync(join(dir, 'svc.lock'), '999999999');
    lock.release();
    expect(readFileSync(join(dir, 'svc.lock'), 'utf8')).toBe('999999999');
  });

  it('gives a stale lock to exactly one of several processes starting together', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'svc.lock'), deadPid());
    const outcomes = await contendTogether(dir, 4);
    expect(outcomes.filter((o) => o === 'locked')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'DataDirInUseError')).toHaveLength(3);
  });
});

const lockModule = fileURLToPath(new URL('./data-dir-lock.ts', import.meta.url));

/**
 * `count` processes load the module, wait for a `go` file, try the lock at once and report; each
 * keeps what it got until all have reported, as real servers would.
 */
async function contendTogether(dir: string, count: number): Promise<string[]> {
  const go = JSON.stringify(join(dir, 'go'));
  const done = JSON.stringify(join(dir, 'done'));
  const script = `
    import { existsSync } from 'node:fs';
    const { acquireDataDirLock } = await import(${JSON.stringify(lockModule)});
    const until = async (f) => { while (!existsSync(f)) await new Promise((r) => setTimeout(r, 1)); };
    process.stdout.write('ready;');
    await until(${go});
    let outcome = 'locked';
    try { acquireDataDirLock(${JSON.stringify(dir)}); } catch (e) { outcome = e.name; }
    process.stdout.write(outcome + ';');
    await until(${done});
  `;
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const outputs = children.map((child) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    return () => text.split(';').filter(Boolean);
  });
  const reported = (n: number) =>
    expect.poll(() => outputs.every((o) => o().length >= n), { timeout: 20_000 });
  await reported(1).toBe(true);
  writeFileSync(join(dir, 'go'), '');
  await reported(2).toBe(true);
  writeFileSync(join(dir, 'done'), '');
  await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))));
  return outputs.map((o) => o()[1] ?? 'none');
}
