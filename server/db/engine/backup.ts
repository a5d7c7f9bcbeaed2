import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createDatabase, type Database, type Db } from './database.ts';
import { migrate } from './migrate.ts';

/** The embedded database lives here inside DATA_DIR. */
export const pgliteDir = (dataDir: string) => join(dataDir, 'pglite');

export class BackupError extends Error {
  override name = 'BackupError';
}

/** A gzipped tarball of the embedded database, taken while it serves (a consistent snapshot). */
export async function backupEmbedded(database: Database): Promise<Buffer> {
  if (!database.dump) {
    throw new BackupError(
      'This instance runs on PostgreSQL: back it up with pg_dump (see docs/operations.md, "Backups").',
    );
  }
  return Buffer.from(await (await database.dump()).arrayBuffer());
}

/**
 * Replaces DATA_DIR's embedded database with a backup. The backup is first unpacked beside the
 * current one, migrated to this version, and opened with this instance's secret key (a backup the
 * key cannot open is refused before anything is replaced); then the current database is kept as
 * `pglite.before-restore-<time>` and the restored one takes its place. The caller holds the
 * data-dir lock, so no server is running on it.
 */
export async function restoreEmbedded(opts: {
  dataDir: string;
  file: string;
  /**
   * Whether the instance's secret key opens the restored database: false when it holds no svc
   * database; throws (WrongSecretKeyError) when it was made under another secret key.
   */
  opensWithKey: (db: Db) => Promise<boolean>;
  now: Date;
}): Promise<{ previous?: string }> {
  if (!existsSync(opts.file)) throw new BackupError(`No backup file at ${opts.file}.`);
  const stamp = opts.now.toISOString().replace(/[:.]/g, '-');
  const staging = join(opts.dataDir, `pglite.restoring-${stamp}`);
  let database: Database | undefined;
  try {
    try {
      database = await createDatabase({ dataDir: staging, loadDataDir: new Blob([readFileSync(opts.file)]) });
      await migrate(database);
    } catch (cause) {
      throw new BackupError(`${opts.file} is not an svc backup (${(cause as Error).message}).`);
    }
    if (!(await opts.opensWithKey(database.db))) throw new BackupError(`${opts.file} holds no svc database.`);
  } catch (error) {
    await database?.close().catch(() => {});
    rmSync(staging, { recursive: true, force: true });
    if (
      error instanceof Error &&
      /tar|gzip|header|invalid/i.test(error.message) &&
      !(error instanceof BackupError)
    )
      throw new BackupError(`${opts.file} is not an svc backup (${error.message}).`);
    throw error;
  }
  await database!.close();
  const current = pgliteDir(opts.dataDir);
  let previous: string | undefined;
  if (existsSync(current)) {
    previous = join(opts.dataDir, `pglite.before-restore-${stamp}`);
    renameSync(current, previous);
  }
  renameSync(staging, current);
  return previous ? { previous } : {};
}
