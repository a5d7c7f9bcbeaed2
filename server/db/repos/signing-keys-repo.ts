import { eq, sql } from 'drizzle-orm';
import { type Db, withTransaction } from '../engine/database.ts';
import { signingKeys } from '../engine/schema.ts';

export type SigningKeyRow = typeof signingKeys.$inferSelect;

export async function listSigningKeys(db: Db): Promise<SigningKeyRow[]> {
  return db.select().from(signingKeys).orderBy(signingKeys.createdAt);
}

export async function insertSigningKey(db: Db, values: typeof signingKeys.$inferInsert): Promise<void> {
  await db.insert(signingKeys).values(values);
}

export async function updateSigningKeyStatus(
  db: Db,
  kid: string,
  status: SigningKeyRow['status'],
  at: Date,
  retireAfter?: Date,
): Promise<void> {
  await db
    .update(signingKeys)
    .set({
      status,
      ...(status === 'active' ? { activatedAt: at } : {}),
      ...(retireAfter ? { retireAfter } : {}),
    })
    .where(eq(signingKeys.kid, kid));
}

const SIGNING_KEY_LOCK = 7_315_001;

/**
 * Runs `fn` in a transaction that holds the signing-key advisory lock (`pg_advisory_xact_lock`),
 * so instances rotating at once take turns; the lock ends with the transaction.
 */
export function withSigningKeyLock<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return withTransaction(db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SIGNING_KEY_LOCK})`);
    return fn(tx);
  });
}
