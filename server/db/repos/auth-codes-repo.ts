import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { authCodes } from '../engine/schema.ts';

export type AuthCodeRow = typeof authCodes.$inferSelect;
export type NewAuthCode = typeof authCodes.$inferInsert;

export async function insertAuthCode(db: Db, values: NewAuthCode): Promise<AuthCodeRow> {
  const [row] = await db.insert(authCodes).values(values).returning();
  return row!;
}

/** Single use, atomically: only the first of any number of concurrent redemptions gets the row. */
export async function claimAuthCode(
  db: Db,
  codeHmac: string,
  at: Date,
  familyId: string,
): Promise<AuthCodeRow | undefined> {
  const [row] = await db
    .update(authCodes)
    .set({ usedAt: at, familyId })
    .where(and(eq(authCodes.codeHmac, codeHmac), isNull(authCodes.usedAt)))
    .returning();
  return row;
}

export async function findAuthCodeByHmac(db: Db, codeHmac: string): Promise<AuthCodeRow | undefined> {
  const [row] = await db.select().from(authCodes).where(eq(authCodes.codeHmac, codeHmac));
  return row;
}
