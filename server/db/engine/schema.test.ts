import { sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test-support/db.ts';
import type { Database } from './database.ts';
import * as schema from './schema.ts';

const tables: PgTable[] = Object.values(schema).filter((t) => t instanceof PgTable);

async function rows<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/**
 * schema.ts is what drizzle-kit generates new migrations from, while 0001–0013 were written by hand:
 * the database those SQL files build must be the one schema.ts describes, or the next generated
 * migration would be computed from a wrong picture (a column it thinks missing, a constraint under
 * another name). Checked against a database migrated by the real runner.
 */
describe('schema.ts describes the database the migrations build', () => {
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

  it.each(tables.map((t) => [getTableConfig(t).name, t] as const))(
    '%s: constraints under the names PostgreSQL gave them',
    async (name, table) => {
      const actual = await rows<{ conname: string; contype: string; def: string }>(
        database,
        sql`select conname, contype, pg_get_constraintdef(oid) as def from pg_constraint
          where conrelid = ${name}::regclass and contype in ('c', 'f', 'p') order by conname`,
      );
      const config = getTableConfig(table);
      const foreignKeys = config.foreignKeys.map((fk) => {
        const { columns, foreignColumns, foreignTable } = fk.reference();
        const names = (cs: { name: string }[]) => cs.map((c) => c.name).join(', ');
        const onDelete =
          fk.onDelete && fk.onDelete !== 'no action' ? ` ON DELETE ${fk.onDelete.toUpperCase()}` : '';
        const target = getTableConfig(foreignTable).name;
        return {
          conname: fk.getName(),
          contype: 'f',
          def: `FOREIGN KEY (${names(columns)}) REFERENCES ${target}(${names(foreignColumns)})${onDelete}`,
        };
      });
      const primaryKey =
        config.primaryKeys.length || config.columns.some((c) => c.primary) ? [`${name}_pkey`] : [];
      expect(actual.filter((c) => c.contype === 'f')).toEqual(
        foreignKeys.sort((a, b) => a.conname.localeCompare(b.conname)),
      );
      expect(actual.filter((c) => c.contype === 'p').map((c) => c.conname)).toEqual(primaryKey);
      expect(config.primaryKeys.map((k) => k.getName())).toEqual(
        primaryKey.slice(0, config.primaryKeys.length),
      );
      expect(actual.filter((c) => c.contype === 'c').map((c) => c.conname)).toEqual(
        config.checks.map((c) => c.name).sort(),
      );
    },
  );
});
