import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { repoRoot } from '../../infra/repo-root.ts';
import type { Database } from './database.ts';

/** One lock id for every instance: concurrent start-ups take turns applying migrations. */
const MIGRATION_LOCK = 7_315_000;

export const migrationsDir = () => join(repoRoot(), 'server', 'db', 'engine', 'migrations');

export function migrationFiles(): { name: string; sql: string }[] {
  return readdirSync(migrationsDir())
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(migrationsDir(), name), 'utf8') }));
}

/**
 * Applies pending migrations in order, all in one transaction (all or nothing), under a
 * transaction-level advisory lock: a second instance starting at the same time waits, then finds
 * nothing left to do. The xact form of pg_advisory_lock cannot leak onto a pooled connection,
 * since it is released by the commit or rollback itself. Returns the names it applied.
 */
export async function migrate(database: Database): Promise<string[]> {
  const applied: string[] = [];
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await tx.execute(
      sql`create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null)`,
    );
    const done = (await tx.execute(sql`select name from schema_migrations`)) as unknown as {
      rows: { name: string }[];
    };
    const seen = new Set(done.rows.map((r) => r.name));
    for (const file of migrationFiles()) {
      if (seen.has(file.name)) continue;
      for (const statement of splitStatements(file.sql)) await tx.execute(sql.raw(statement));
      await tx.execute(
        sql`insert into schema_migrations (name, applied_at) values (${file.name}, ${new Date()})`,
      );
      applied.push(file.name);
    }
  });
  return applied;
}

/**
 * One statement at a time: PGlite's extended protocol takes a single statement per query. A
 * semicolon at the end of a line ends a statement, except inside a `$$ … $$` body (functions).
 */
export function splitStatements(text: string): string[] {
  const statements: string[] = [];
  let current: string[] = [];
  let inBody = false;
  for (const line of text.split('\n')) {
    current.push(line);
    if ((line.match(/\$\$/g)?.length ?? 0) % 2 === 1) inBody = !inBody;
    if (!inBody && /;\s*$/.test(line)) {
      statements.push(current.join('\n').replace(/;\s*$/, ''));
      current = [];
    }
  }
  statements.push(current.join('\n'));
  return statements.map((s) => s.replace(/^\s*--.*$/gm, '').trim()).filter(Boolean);
}
