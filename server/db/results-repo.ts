import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { coalescedInsert } from './coalesced-insert.ts';
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

/** Every column, with the table's defaults where `values` leaves one out (or undefined). */
function completeRow(values: NewResult): ResultRow {
  const row: Record<string, unknown> = {
    licenseId: null,
    state: null,
    originDomain: null,
    test: false,
    embedSessionId: null,
  };
  for (const [key, value] of Object.entries(values)) if (value !== undefined) row[key] = value;
  return row as ResultRow;
}

async function insertOne(db: Db, row: ResultRow): Promise<void> {
  let insert = inserts.get(db);
  if (!insert) {
    insert = prepareInsert(db);
    inserts.set(db, insert);
  }
  await insert.execute(row);
}

/** Stores a result; the row written is the row returned (every column is given, none computed). */
export async function insertResult(db: Db, values: NewResult): Promise<ResultRow> {
  const row = completeRow(values);
  await insertOne(db, row);
  return row;
}

// Several rows in one statement: a JSON array of records, typed by the table's own columns.
const columns = getTableColumns(calculationResults);
const columnList = COLUMNS.map((key) => columns[key].name).join(', ');
const recordType = COLUMNS.map((key) => `${columns[key].name} ${columns[key].getSQLType()}`).join(', ');
const insertMany = (db: Db, rows: ResultRow[]) =>
  db.execute(
    sql`insert into calculation_results (${sql.raw(columnList)}) select ${sql.raw(columnList)} from jsonb_to_recordset(${JSON.stringify(
      rows.map((row) => Object.fromEntries(COLUMNS.map((key) => [columns[key].name, row[key]]))),
    )}::jsonb) as r(${sql.raw(recordType)})`,
  );

const coalesced = new WeakMap<Db, ReturnType<typeof coalescedInsert<ResultRow>>>();

/**
 * `insertResult` for the calculation endpoint outside a transaction: results arriving together
 * share one statement and one commit (`coalescedInsert`); each caller still returns only once its
 * row is committed.
 */
export async function storeResult(db: Db, values: NewResult): Promise<ResultRow> {
  const row = completeRow(values);
  let writer = coalesced.get(db);
  if (!writer) {
    writer = coalescedInsert<ResultRow>({
      writeMany: async (rows) => void (await insertMany(db, rows)),
      writeOne: (one) => insertOne(db, one),
      maxInFlight: 4,
    });
    coalesced.set(db, writer);
  }
  await writer.insert(row);
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
