import { spawn } from 'node:child_process';
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledPath } from '../../test-support/compiled-server.ts';
import { acquireDataDirLock, DataDirInUseError } from './data-dir-lock.ts';

const tempDir = () => mkdtempSync(join(tmpdir(), 'svc-lock-'));

/** A socket file whose listener is gone, as a process killed with SIGKILL leaves it. */
async function deadSocket(file: string): Promise<void> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(file, resolve));
  // Closing would remove the file (libuv unlinks it); keep it by moving a hard link into place.
  const kept = `${file}.kept`;
  linkSync(file, kept);
  await new Promise((resolve) => server.close(resolve));
  renameSync(kept, file);
}

describe('data directory lock (a Unix socket the owner listens on)', () => {
  it('lets one holder in, refuses a second with a clear error, and frees on release', async () => {
    const dir = tempDir();
    const lock = await acquireDataDirLock(dir);
    expect(lstatSync(join(dir, 'svc.lock')).isSocket()).toBe(true);
    await expect(acquireDataDirLock(dir)).rejects.toThrow(DataDirInUseError);
    await expect(acquireDataDirLock(dir)).rejects.toThrow(new RegExp(`in use by process ${process.pid}\\b`));
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
    (await acquireDataDirLock(dir)).release();
  });

  it('clears staging names left by a process that died between binding and linking', async () => {
    const dir = tempDir();
    const left = join(dir, 'svc.lock.0123456789ab');
    const fresh = join(dir, 'svc.lock.takeover.ba9876543210');
    writeFileSync(left, '');
    writeFileSync(fresh, '');
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    utimesSync(left, twoMinutesAgo, twoMinutesAgo);
    const lock = await acquireDataDirLock(dir);
    // A staging name younger than a minute may belong to a starter that is still linking.
    expect(readdirSync(dir).sort()).toEqual(['svc.lock', 'svc.lock.takeover.ba9876543210']);
    lock.release();
  });

  it('takes over at once a lock whose owner was killed with SIGKILL (the kernel closed its socket)', async () => {
    const dir = tempDir();
    const owner = spawnHolder(dir);
    await expect.poll(() => owner.text(), { timeout: 20_000 }).toContain('locked;');
    await expect(acquireDataDirLock(dir)).rejects.toThrow(`in use by process ${owner.child.pid}`);
    owner.child.kill('SIGKILL');
    await new Promise((resolve) => owner.child.once('exit', resolve));
    expect(lstatSync(join(dir, 'svc.lock')).isSocket()).toBe(true); // left behind
    const started = Date.now();
    (await acquireDataDirLock(dir)).release();
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it.each([
    ['a socket nobody listens on', (file: string) => deadSocket(file)],
    ['an older svc’s pid file', (file: string) => writeFileSync(file, '1')],
    ['an empty file', (file: string) => writeFileSync(file, '')],
  ])('takes over a lock left as %s', async (_label, leave) => {
    const dir = tempDir();
    await leave(join(dir, 'svc.lock'));
    const lock = await acquireDataDirLock(dir);
    expect(lstatSync(join(dir, 'svc.lock')).isSocket()).toBe(true);
    lock.release();
  });

  it('takes over when a takeover guard was left by a process that died', async () => {
    const dir = tempDir();
    await deadSocket(join(dir, 'svc.lock'));
    await deadSocket(join(dir, 'svc.lock.takeover'));
    (await acquireDataDirLock(dir)).release();
    expect(existsSync(join(dir, 'svc.lock.takeover'))).toBe(false);
  });

  it('locks a data directory whose path is too long for a socket address, through /proc/self/fd', async () => {
    const dir = join(tempDir(), 'd'.repeat(60), 'e'.repeat(60));
    mkdirSync(dir, { recursive: true });
    expect(Buffer.byteLength(join(dir, 'svc.lock'))).toBeGreaterThan(107);
    const lock = await acquireDataDirLock(dir);
    expect(lstatSync(join(dir, 'svc.lock')).isSocket()).toBe(true);
    await expect(acquireDataDirLock(dir)).rejects.toThrow(DataDirInUseError);
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('gives a stale lock to exactly one of several processes starting together', async () => {
    const dir = tempDir();
    await deadSocket(join(dir, 'svc.lock'));
    const outcomes = await contendTogether(dir, 4);
    expect(outcomes.filter((o) => o === 'locked')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'DataDirInUseError')).toHaveLength(3);
  });
});

const lockModule = compiledPath('server/db/engine/data-dir-lock.ts');

/** A process that takes the lock, says `locked;` and keeps it until it is killed. */
function spawnHolder(dir: string) {
  const script = `
    const { acquireDataDirLock } = await import(${JSON.stringify(lockModule)});
    await acquireDataDirLock(${JSON.stringify(dir)});
    process.stdout.write('locked;');
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  return { child, text: () => text };
}

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
    try { await acquireDataDirLock(${JSON.stringify(dir)}); } catch (e) { outcome = e.name; }
    process.stdout.write(outcome + ';');
    await until(${done});
  `;
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ['--input-type=module', '-e', script], {
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
