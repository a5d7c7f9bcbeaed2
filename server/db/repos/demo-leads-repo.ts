import { sql } from 'drizzle-orm';
import { type Db, withTransaction } from '../engine/database.ts';

// Bulk writes for the demo data (domain/demo/leads.ts): tens of thousands of rows in seconds.

const RESULT_COLUMNS = {
  id: 'text',
  account_id: 'text',
  license_id: 'text',
  calculator: 'text',
  state: 'text',
  inputs: 'jsonb',
  outputs: 'jsonb',
  line_items: 'jsonb',
  notes: 'jsonb',
  rule_set: 'jsonb',
  disclaimer: 'text',
  origin_domain: 'text',
  page: 'text',
  created_at: 'timestamptz',
};
const LEAD_COLUMNS = {
  id: 'text',
  account_id: 'text',
  license_id: 'text',
  calculator: 'text',
  result_id: 'text',
  name: 'text',
  email: 'text',
  phone: 'text',
  state: 'text',
  status: 'text',
  consent_text: 'text',
  page: 'text',
  consented_at: 'timestamptz',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  value_amount: 'float8',
  priority_rank: 'int2',
  priority_reasons: 'jsonb',
  priority_version: 'text',
};

/**
 * Many rows in one statement with one parameter (a JSON array): about twice as fast on PGlite as
 * a multi-row VALUES list with thousands of bound parameters.
 */
async function insertRecordset(db: Db, table: string, columns: Record<string, string>, rows: object[]) {
  const names = Object.keys(columns).join(', ');
  const types = Object.entries(columns)
    .map(([name, type]) => `${name} ${type}`)
    .join(', ');
  await db.execute(
    sql`insert into ${sql.identifier(table)} (${sql.raw(names)}) select ${sql.raw(names)} from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(${sql.raw(types)})`,
  );
}

/** One batch of demo results and the leads that link to them, in one transaction. */
export function insertDemoBatch(
  db: Db,
  resultRows: Record<string, unknown>[],
  leadRows: Record<string, unknown>[],
): Promise<void> {
  return withTransaction(db, async (tx) => {
    await insertRecordset(tx, 'calculation_results', RESULT_COLUMNS, resultRows);
    await insertRecordset(tx, 'leads', LEAD_COLUMNS, leadRows);
  });
}

/**
 * Planner statistics and the visibility map (index-only scans without heap visits): the embedded
 * database has no autovacuum to do this after a bulk load.
 */
export async function vacuumLeadTables(db: Db): Promise<void> {
  await db.execute(sql`vacuum analyze leads`);
  await db.execute(sql`vacuum analyze calculation_results`);
}
