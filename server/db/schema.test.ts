import { sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test-support/db.ts';
import type { Database } from './database.ts';
import * as schema from './schema.ts';

const tables: PgTable[] = Object.values(schema).filter((t) => t instanceof PgTable);

async function rows<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** schema.ts is typed by hand beside the SQL of record; a drift would surface only at run time. */
describe('schema.ts mirrors the migrations', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it.each(tables.map((t) => [getTableConfig(t).name, t] as const))(
    '%s: columns, types, nullability',
    async (name, table) => {
      const actual = await rows<{ column_name: string; data_type: string; is_nullable: string }>(
        database,
        sql`select column_name, data_type, is_nullable from information_schema.columns
          where table_schema = current_schema() and table_name = ${name}`,
      );
      const byName = (a: { column_name: string }, b: { column_name: string }) =>
        a.column_name.localeCompare(b.column_name);
      const expected = getTableConfig(table)
        .columns.map((c) => ({
          column_name: c.name,
          data_type: c.getSQLType(),
          is_nullable: c.notNull ? 'NO' : 'YES',
        }))
        .sort(byName);
      expect(actual.sort(byName)).toEqual(expected);
    },
  );

  it.each(tables.map((t) => [getTableConfig(t).name, t] as const))(
    '%s: named indexes',
    async (name, table) => {
      const actual = await rows<{ indexname: string }>(
        database,
        sql`select indexname from pg_indexes where schemaname = current_schema() and tablename = ${name}
          and indexname not like '%_pkey' order by indexname`,
      );
      const expected = getTableConfig(table)
        .indexes.map((i) => i.config.name)
        .sort();
      expect(actual.map((r) => r.indexname)).toEqual(expected);
    },
  );
});
