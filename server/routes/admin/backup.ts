import { Hono } from 'hono';
import type { HotBackup } from '../../domain/backup/hot-backup.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { requireAdmin } from './require-admin.ts';

/**
 * `GET /admin/v1/backup`: a hot backup of the embedded database for `npm run svc -- backup FILE`
 * while a server runs (PGlite admits one process, so the CLI cannot open it then). PostgreSQL
 * deployments use pg_dump instead and get 501 saying so.
 */
export function createBackupRoutes(backup: HotBackup, adminToken: string): Hono<AppEnv> {
  const router = new Hono<AppEnv>();
  router.use('/admin/v1/backup', requireAdmin(adminToken));
  router.get('/admin/v1/backup', async (c) => {
    const tarball = await backup();
    c.header('Content-Type', 'application/gzip');
    c.header('Cache-Control', 'no-store');
    c.header('Content-Disposition', 'attachment; filename="svc-backup.tar.gz"');
    return c.body(new Uint8Array(tarball));
  });
  return router;
}
