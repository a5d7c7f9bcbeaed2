import { and, eq } from 'drizzle-orm';
import type { Db } from './database.ts';
import { calculationResults } from './schema.ts';

export type ResultRow = typeof calculationResults.$inferSelect;
export type NewResult = typeof calculationResults.$inferInsert;

export async function insertResult(db: Db, values: NewResult): Promise<ResultRow> {
  const [row] = await db.insert(calculationResults).values(values).returning();
  return row!;
}

/** Scoped by account: another firm's result is simply not found. */
export async function findResult(db: Db, accountId: string, id: string): Promise<ResultRow | undefined> {
  const [row] = await db
    .select()
    .from(calculationResults)
    .where(and(eq(calculationResults.accountId, accountId), eq(calculationResults.id, id)));
  return row;
}
