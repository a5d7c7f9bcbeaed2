import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { coalescedInsert } from '../engine/coalesced-insert.ts';
import type { Db } from '../engine/database.ts';
import { calculationResults } from '../engine/schema.ts';

export type ResultRow = typeof calculationResults.$inferSelect;
export type NewResult = typeof calculationResults.$inferInsert;

// The table's own column list: a column added to the schema is written without touching this file.
const columns = getTableColumns(calculationResults);
const COLUMNS = Object.keys(columns) as (keyof ResultRow)[];

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

/** Every column: `values`, else the column's default, else null (as the INSERT would store). */
function completeRow(values: NewResult): ResultRow {
  const given = values as Record<string, unknown>;
  return Object.fromEntries(
    COLUMNS.map((key) => [key, given[key] ?? (columns[key].hasDefault ? columns[key].default : null)]),
  ) as ResultRow;
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
const columnList = COLUMNS.map((key) => columns[key].name).join(', ');
const recordType = COLUMNS.map((key) => `${columns[key].name} ${columns[key].getSQLType()}`).join(', ');
const insertMany = (db: Db, rows: ResultRow[]) =>
  db.execute(
    sql`insert into ${calculationResults} (${sql.raw(columnList)}) select ${sql.raw(columnList)} from jsonb_to_recordset(${JSON.stringify(
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
