import { writeFileSync } from 'node:fs';
import { acquireDataDirLock, DataDirInUseError, type DataDirLock } from '../db/engine/data-dir-lock.ts';
import { loadAdminToken } from '../infra/admin-token.ts';
import type { Config } from '../infra/env.ts';
import { systemClock } from '../lib/clock.ts';
import { loadSecretKey } from '../secrets/secret-key.ts';
import { reachServer } from './admin-transport.ts';
import { UsageError } from './commands.ts';

export const BACKUP_USAGE = `  backup FILE              copy the embedded database to FILE (works while the server runs)
  restore FILE             replace the embedded database with FILE (stop the server first)`;

/**
 * `backup FILE` and `restore FILE`: binary, so outside the JSON admin-call path. Backup asks a
 * running server for a hot copy, or opens the data directory itself; restore needs the server
 * stopped (it swaps the database directory) and says so.
 */
export async function runBackupCommand(
  config: Config,
  verb: string,
  file: string | undefined,
): Promise<string> {
  if (!file) throw new UsageError(`${verb} needs a FILE`);
  if (config.DATABASE_URL) {
    throw new Error(
      `${verb} covers the embedded database; with DATABASE_URL use pg_dump / pg_restore (docs/operations.md, "Backups").`,
    );
  }
  return verb === 'backup' ? backup(config, file) : restore(config, file);
}

async function backup(config: Config, file: string): Promise<string> {
  const token = loadAdminToken(config.DATA_DIR, config.ADMIN_TOKEN);
  const remote = await reachServer(config, token);
  if (remote) {
    const res = await fetch(`${remote}/admin/v1/backup`, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(((await res.json()) as { error: { message: string } }).error.message);
    const bytes = Buffer.from(await res.arrayBuffer());
    writeFileSync(file, bytes, { mode: 0o600 });
    return `backup written to ${file} (${bytes.length} bytes, from the running server)`;
  }
  // The database layer (PGlite, drizzle) is loaded only when this process opens the database.
  const [{ createDatabase }, { backupEmbedded }] = await Promise.all([
    import('../db/engine/database.ts'),
    import('../db/engine/backup.ts'),
  ]);
  const lock = await acquireDataDirLock(config.DATA_DIR);
  const database = await createDatabase({ dataDir: `${config.DATA_DIR}/pglite` });
  try {
    const bytes = await backupEmbedded(database);
    writeFileSync(file, bytes, { mode: 0o600 });
    return `backup written to ${file} (${bytes.length} bytes)`;
  } finally {
    await database.close();
    lock.release();
  }
}

async function restore(config: Config, file: string): Promise<string> {
  let lock: DataDirLock;
  try {
    lock = await acquireDataDirLock(config.DATA_DIR);
  } catch (error) {
    if (error instanceof DataDirInUseError)
      throw new Error('Stop the server first: restore replaces its database.');
    throw error;
  }
  try {
    const secretKey = loadSecretKey({ secretKey: config.SECRET_KEY, dataDir: config.DATA_DIR });
    const { restoreEmbedded } = await import('../db/engine/backup.ts');
    const { secretKeyOpens } = await import('../secrets/secret-store.ts');
    const { previous } = await restoreEmbedded({
      dataDir: config.DATA_DIR,
      file,
      opensWithKey: (db) => secretKeyOpens(db, secretKey),
      now: systemClock.now(),
    });
    return `restored ${file}${previous ? `; the previous database is kept in ${previous}` : ''}`;
  } finally {
    lock.release();
  }
}
