import { BackupError, backupEmbedded } from '../../db/engine/backup.ts';
import type { Database } from '../../db/engine/database.ts';
import { AppError } from '../../lib/errors.ts';

/** Takes a gzipped tarball of the running database (see `createHotBackup`). */
export type HotBackup = () => Promise<Buffer>;

/**
 * The hot backup behind `GET /admin/v1/backup`: a consistent snapshot of the embedded database
 * while it serves. PostgreSQL has no such snapshot here (pg_dump is the tool), so there it fails
 * with NOT_IMPLEMENTED and the reason, which the admin route answers as 501.
 */
export function createHotBackup(database: Database): HotBackup {
  return async () => {
    try {
      return await backupEmbedded(database);
    } catch (error) {
      if (error instanceof BackupError) throw new AppError('NOT_IMPLEMENTED', error.message);
      throw error;
    }
  };
}
