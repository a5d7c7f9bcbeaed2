import { and, eq, sql } from 'drizzle-orm';
import type { Db } from './database.ts';
import { calculationResults } from './schema.ts';

export type ResultRow = typeof calculationResults.$inferSelect;
export type NewResult = typeof calculationResults.$inferInsert;

const COLUMNS = [
  'id',
  'accountId',
  'licenseId',
  'calculator',
  'state',
  'inputs',
  'outputs',
  'lineItems',
  'notes',
  'ruleSet',
  'disclaimer',
  'originDomain',
  'createdAt',
  'test',
  'embedSessionId',
] as const satisfies readonly (keyof ResultRow)[];

function prepareInsert(db: Db) {
  const values = Object.fromEntries(COLUMNS.map((name) => [name, sql.placeholder(name)]));
  return db
    .insert(calculationResults)
    .values(values as unknown as NewResult)
    .prepare('insert_calculation_result');
}

// Every calculation writes one row: the statement is built once per database (or transaction),
// and PostgreSQL parses and plans it once per connection.
const inserts = new WeakMap<Db, ReturnType<typeof prepareInsert>>();

/** Stores a result; the row written is the row returned (every column is given, none computed). */
export async function insertResult(db: Db, values: NewResult): Promise<ResultRow> {
  const row: ResultRow = {
    licenseId: null,
    state: null,
    originDomain: null,
    test: false,
    embedSessionId: null,
    ...values,
  } as ResultRow;
  let insert = inserts.get(db);
  if (!insert) inserts.set(db, (insert = prepareInsert(db)));
  await insert.execute(row);
  return row;
}

/** Scoped by account: another firm's result is simply not found. */
export async function findResult(db: Db, accountId: string, id: string): Promise<ResultRow | undefined> {
  const [row] = await db
    .select()
    .from(calculationResults)
    .where(and(eq(calculationResults.accountId, accountId), eq(calculationResults.id, id)));
  return row;
}
