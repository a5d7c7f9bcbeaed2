import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresTestDatabase, createTestDatabase } from '../../test-support/db.ts';
import { needs } from '../../test-support/needs.ts';
import { findAccountById, insertAccount } from '../repos/accounts-repo.ts';
import { createDatabase, type Database } from './database.ts';
import { newId } from './ids.ts';
import { migrate, migrationFiles, splitStatements } from './migrate.ts';
import * as schema from './schema.ts';

async function tables(database: Database): Promise<string[]> {
  const result = (await database.db.execute(
    sql`select tablename from pg_tables where schemaname = current_schema() order by tablename`,
  )) as unknown as { rows: { tablename: string }[] };
  return result.rows.map((r) => r.tablename);
}

// Every table schema.ts declares, plus the migrations' own bookkeeping table.
const EXPECTED = [
  ...Object.values(schema)
    .filter((t) => t instanceof PgTable)
    .map((t) => getTableConfig(t).name),
  'schema_migrations',
].sort();

describe('migrations on PGlite', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createDatabase({ dataDir: 'memory://' });
  });
  afterAll(() => database.close());

  it('apply every file once and create the tables of DESIGN.md §3', async () => {
    expect(await migrate(database)).toEqual(migrationFiles().map((f) => f.name));
    expect(await migrate(database)).toEqual([]);
    expect(await tables(database)).toEqual(EXPECTED);
  });

  it('split statements on line-ending semicolons, dropping comments', () => {
    expect(splitStatements('-- note\nCREATE TABLE a (x int);\n\nCREATE INDEX i ON a (x);\n')).toEqual([
      'CREATE TABLE a (x int)',
      'CREATE INDEX i ON a (x)',
    ]);
  });

  it('keeps a $$ function body with its semicolons in one statement', () => {
    const text =
      'CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n  RETURN NULL;\nEND\n$$;\nCREATE TABLE b (y int);\n';
    expect(splitStatements(text)).toEqual([
      'CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n  RETURN NULL;\nEND\n$$',
      'CREATE TABLE b (y int)',
    ]);
  });
});

const setting = async (database: Database, name: string) =>
  (
    (await database.db.execute(sql`select current_setting(${name}) as value`)) as unknown as {
      rows: { value: string }[];
    }
  ).rows[0]!.value;

describe('the embedded database on disk', () => {
  it('initialises a new directory out of process, private, with the lean settings, and reopens it', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'svc-db-'));
    const dataDir = join(parent, 'pglite');
    try {
      const first = await createDatabase({ dataDir });
      // Complete and renamed into place: no staging directory is left next to it.
      expect(readdirSync(parent)).toEqual(['pglite']);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dataDir, 'PG_VERSION')).mode & 0o077).toBe(0);
      expect(await setting(first, 'shared_buffers')).toBe('16MB');
      // initdb's own postgresql.conf still applies.
      expect(await setting(first, 'timezone')).toBe('UTC');
      await migrate(first);
      const account = await insertAccount(first.db, {
        id: newId('acct'),
        name: 'Åsa',
        createdAt: new Date(),
      });
      await first.close();

      const again = await createDatabase({ dataDir });
      expect(await migrate(again)).toEqual([]);
      expect(await findAccountById(again.db, account.id)).toMatchObject({ name: 'Åsa' });
      await again.close();
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
    // A real initdb, in a process of its own: seconds on a loaded 2-core machine.
  }, 120_000);
});

describe('test template', () => {
  it('loads a migrated database', async () => {
    const database = await createTestDatabase();
    const account = await insertAccount(database.db, {
      id: newId('acct'),
      name: 'Zoë',
      createdAt: new Date(),
    });
    expect(await findAccountById(database.db, account.id)).toMatchObject({ name: 'Zoë' });
    await database.close();
  });
});

needs('postgres').describe('migrations on PostgreSQL (PostgreSQL)', () => {
  it('apply once even when several instances start together, in a database of their own', async () => {
    const { database, url, drop } = await createPostgresTestDatabase(process.env.DATABASE_URL!);
    try {
      expect(await tables(database)).toEqual(EXPECTED);
      const others = await Promise.all([1, 2, 3].map(() => createDatabase({ databaseUrl: url })));
      const applied = await Promise.all(others.map((o) => migrate(o)));
      expect(applied.flat()).toEqual([]);
      const account = await insertAccount(others[0]!.db, {
        id: newId('acct'),
        name: 'Søn',
        createdAt: new Date(),
      });
      expect(await findAccountById(others[1]!.db, account.id)).toMatchObject({ name: 'Søn' });
      await Promise.all(others.map((o) => o.close()));
    } finally {
      await drop();
    }
  });

  it('race fresh migrations safely', async () => {
    const { url, drop, database } = await createPostgresTestDatabase(process.env.DATABASE_URL!);
    try {
      // Back to an empty schema: every table, function and trigger, whichever migrations made them.
      await database.db.execute(sql.raw('drop schema public cascade'));
      await database.db.execute(sql.raw('create schema public'));
      const instances = await Promise.all([1, 2, 3].map(() => createDatabase({ databaseUrl: url })));
      const applied = await Promise.all(instances.map((o) => migrate(o)));
      expect(applied.flat().sort()).toEqual(migrationFiles().map((f) => f.name));
      await Promise.all(instances.map((o) => o.close()));
    } finally {
      await drop();
    }
  });
});
