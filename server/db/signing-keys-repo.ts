import { eq } from 'drizzle-orm';
import type { Db } from './database.ts';
import { signingKeys } from './schema.ts';

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
