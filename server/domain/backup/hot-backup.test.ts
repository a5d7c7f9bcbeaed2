import { expect, it } from 'vitest';
import { createPostgresTestDatabase } from '../../test-support/db.ts';
import { needs } from '../../test-support/needs.ts';
import { createHotBackup } from './hot-backup.ts';

// The embedded database's backup is taken from a running server in cli/backup.test.ts.
needs('postgres').describe('hot backup on PostgreSQL (PostgreSQL)', () => {
  it('is NOT_IMPLEMENTED (501), pointing to pg_dump', async () => {
    const pg = await createPostgresTestDatabase(process.env.DATABASE_URL!);
    try {
      await expect(createHotBackup(pg.database)()).rejects.toMatchObject({
        code: 'NOT_IMPLEMENTED',
        status: 501,
        message: expect.stringContaining('pg_dump'),
      });
    } finally {
      await pg.drop();
    }
  });
});
