import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { idempotencyKeys } from '../engine/schema.ts';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

export async function findIdempotencyKey(
  db: Db,
  accountId: string,
  key: string,
): Promise<IdempotencyRow | undefined> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key)));
  return row;
}

export async function deleteIdempotencyKey(db: Db, accountId: string, key: string): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key)));
}

/** Returns false when another request stored the same key first (the primary key decides). */
export async function insertIdempotencyKey(
  db: Db,
  values: typeof idempotencyKeys.$inferInsert,
): Promise<boolean> {
  const rows = await db
    .insert(idempotencyKeys)
    .values(values)
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}

/** Keys past their 24 hours go when the account next stores a lead: no sweeper process needed. */
export async function purgeExpiredKeys(db: Db, accountId: string, now: Date): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.accountId, accountId), lt(idempotencyKeys.expiresAt, now)));
}
