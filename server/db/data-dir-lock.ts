import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
}

const LOCK = 'svc.lock';
// Held only while a stale lock is replaced, so two starters cannot both remove and re-create it.
const TAKEOVER = 'svc.lock.takeover';

/**
 * PGlite may be opened by one process only; a second one would corrupt it. The lock file holds
 * the owner's pid; a lock left by a dead process is taken over.
 */
export function acquireDataDirLock(dataDir: string): { release(): void } {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, LOCK);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createExclusive(file)) return lockHandle(file);
    const content = readLock(file);
    if (content === undefined) continue; // released in between
    const pid = Number(content);
    if (isAlive(pid)) throw inUse(dataDir, pid);
    replaceStale(dataDir, content);
  }
  throw new DataDirInUseError(`Could not lock the data directory ${dataDir}; another process is starting.`);
}

function lockHandle(file: string): { release(): void } {
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      // Never remove a lock that is no longer ours.
      if (readLock(file) === String(process.pid)) rmSync(file, { force: true });
    },
  };
}

/** Removes the lock only if it still holds the stale content, under the takeover guard. */
function replaceStale(dataDir: string, staleContent: string): void {
  const guard = join(dataDir, TAKEOVER);
  if (!createExclusive(guard)) {
    const holder = Number(readLock(guard));
    if (isAlive(holder)) throw inUse(dataDir, holder);
    rmSync(guard, { force: true }); // left by a process that died while taking over
    if (!createExclusive(guard)) return;
  }
  try {
    if (readLock(join(dataDir, LOCK)) === staleContent) rmSync(join(dataDir, LOCK), { force: true });
  } finally {
    rmSync(guard, { force: true });
  }
}

/**
 * Creates `file` holding our pid, or returns false when it exists. Written beside it and then
 * hard-linked, so no reader ever sees the file empty or half written.
 */
function createExclusive(file: string): boolean {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temp, String(process.pid), { mode: 0o600 });
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}

function readLock(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function inUse(dataDir: string, pid: number): DataDirInUseError {
  return new DataDirInUseError(
    `The data directory ${dataDir} is in use by process ${pid} (a running svc server?). ` +
      'The CLI talks to a running server through its admin API; stop the other process to open the database directly.',
  );
}
