import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pgliteDir } from './backup.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { secureDataDir } from './data-dir-permissions.ts';
import { createDatabase, type Database } from './database.ts';

/** DATA_DIR cannot be used: it is a file, someone else's directory, or holds a broken database. */
class DataDirError extends Error {
  override name = 'DataDirError';
}

/** What svc itself keeps in DATA_DIR; a non-empty directory holding none of these is not ours. */
const SVC_ENTRIES = ['pglite', 'secret.key', 'admin-token', 'svc.lock', 'server.json', 'outbox'];

/**
 * Refuses a DATA_DIR that svc must not take over: a file, or a non-empty directory holding none
 * of svc's files (a mistyped path pointing at a home or project directory would otherwise be
 * chmodded 0700 and filled with a database). A missing or empty directory is a new data dir.
 */
function checkDataDir(dataDir: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(dataDir).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new DataDirError(`DATA_DIR ${dataDir} cannot be read (${(error as Error).message}).`);
  }
  if (!isDirectory) {
    throw new DataDirError(
      `DATA_DIR ${dataDir} is a file, not a directory: point DATA_DIR at svc's data directory or at a new one.`,
    );
  }
  const entries = readdirSync(dataDir).sort();
  if (entries.length > 0 && !entries.some((e) => SVC_ENTRIES.includes(e))) {
    const shown = entries.slice(0, 3).join(', ') + (entries.length > 3 ? ', …' : '');
    throw new DataDirError(
      `DATA_DIR ${dataDir} is not an svc data directory (it holds ${shown} and none of svc's files): ` +
        "point DATA_DIR at svc's data directory or at a new, empty one.",
    );
  }
  const pglite = pgliteDir(dataDir);
  if (entries.includes('pglite') && !statSync(pglite).isDirectory()) {
    throw new DataDirError(
      `${pglite} is a file, not svc's embedded database: this is not an svc data directory.`,
    );
  }
}

/**
 * The database `config` names, for a server or the CLI: PostgreSQL, or the embedded database in
 * DATA_DIR after the directory is checked, secured and locked (the lock is the caller's to release).
 */
export async function openConfiguredDatabase(config: {
  DATA_DIR: string;
  DATABASE_URL?: string | undefined;
}): Promise<{ database: Database; lock?: { release(): void } }> {
  checkDataDir(config.DATA_DIR);
  secureDataDir(config.DATA_DIR);
  if (config.DATABASE_URL) return { database: await createDatabase({ databaseUrl: config.DATABASE_URL }) };
  const lock = await acquireDataDirLock(config.DATA_DIR);
  try {
    return { database: await createDatabase({ dataDir: pgliteDir(config.DATA_DIR) }), lock };
  } catch (cause) {
    lock.release();
    throw new DataDirError(
      `${join(config.DATA_DIR, 'pglite')} is not a database svc can open (${describeCause(cause)}): ` +
        'restore a backup with `npm run svc -- restore FILE`, or point DATA_DIR at a new directory.',
      { cause },
    );
  }
}

/** PGlite rejects with Errors and with plain objects (Emscripten's `ErrnoError`); one line either way. */
function describeCause(cause: unknown): string {
  if (cause instanceof Error) return cause.message.replace(/\s+/g, ' ').trim();
  const { name, errno } = (cause ?? {}) as { name?: unknown; errno?: unknown };
  return [name, errno].filter((p) => p !== undefined).join(' ') || 'unreadable data';
}
