import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { createDatabase, type Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { repoRoot } from '../repo-root.ts';

export const templatePath = () => join(repoRoot(), '.tmp', 'pglite-template.tar');

/**
 * A migrated in-memory PGlite, loaded from the template that `global-setup.ts` prepares once per
 * run (a cold start plus migrations costs seconds; loading the template far less). Share one per
 * test file.
 */
export async function createTestDatabase(): Promise<Database> {
  const file = templatePath();
  if (!existsSync(file)) {
    const database = await createDatabase({ dataDir: 'memory://' });
    await migrate(database);
    return database;
  }
  const database = await createDatabase({
    dataDir: 'memory://',
    loadDataDir: new Blob([readFileSync(file)]),
  });
  await migrate(database);
  return database;
}

/** Empties every table but the migration log, for files that want a clean slate per test. */
export async function resetDatabase(database: Database): Promise<void> {
  const result = (await database.db.execute(
    sql`select tablename from pg_tables where schemaname = current_schema() and tablename <> 'schema_migrations'`,
  )) as unknown as { rows: { tablename: string }[] };
  const names = result.rows.map((r) => `"${r.tablename}"`).join(', ');
  if (names) await database.db.execute(sql.raw(`truncate ${names} cascade`));
}

/**
 * A fresh PostgreSQL database on the server of `databaseUrl`, migrated, dropped afterwards: leftover
 * state on a shared server never changes a result.
 */
export async function createPostgresTestDatabase(
  databaseUrl: string,
): Promise<{ database: Database; url: string; drop(): Promise<void> }> {
  const name = `svc_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = await createDatabase({ databaseUrl, poolSize: 1 });
  await admin.db.execute(sql.raw(`create database ${name}`));
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const database = await createDatabase({ databaseUrl: url.toString() });
  await migrate(database);
  return {
    database,
    url: url.toString(),
    async drop() {
      await database.close();
      await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
      await admin.close();
    },
  };
}
