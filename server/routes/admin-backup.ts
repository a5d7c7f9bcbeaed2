import { Hono } from 'hono';
import { BackupError, backupEmbedded } from '../db/backup.ts';
import type { Database } from '../db/database.ts';
import type { AppEnv } from '../http/app-env.ts';
import { AppError } from '../lib/errors.ts';
import { requireAdmin } from './admin.ts';

/**
 * `GET /admin/v1/backup`: a hot backup of the embedded database for `npm run svc -- backup FILE`
 * while a server runs (PGlite admits one process, so the CLI cannot open it then). PostgreSQL
 * deployments use pg_dump instead and get 501 saying so.
 */
export function createBackupRoutes(database: Database, adminToken: string): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  router.use('/admin/v1/backup', requireAdmin(adminToken));
  router.get('/admin/v1/backup', async (c) => {
    try {
      const tarball = await backupEmbedded(database);
      c.header('Content-Type', 'application/gzip');
      c.header('Cache-Control', 'no-store');
      c.header('Content-Disposition', 'attachment; filename="svc-backup.tar.gz"');
      return c.body(new Uint8Array(tarball));
    } catch (error) {
      if (error instanceof BackupError) throw new AppError('NOT_IMPLEMENTED', error.message);
      throw error;
    }
  });
  return router;
}
