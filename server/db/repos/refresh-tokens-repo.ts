import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { refreshTokens } from '../engine/schema.ts';

export type RefreshTokenRow = typeof refreshTokens.$inferSelect;
export type NewRefreshToken = typeof refreshTokens.$inferInsert;

export async function insertRefreshToken(db: Db, values: NewRefreshToken): Promise<RefreshTokenRow> {
  const [row] = await db.insert(refreshTokens).values(values).returning();
  return row!;
}

export async function findRefreshTokenByHmac(
  db: Db,
  tokenHmac: string,
): Promise<RefreshTokenRow | undefined> {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHmac, tokenHmac));
  return row;
}

export async function findRefreshToken(db: Db, id: string): Promise<RefreshTokenRow | undefined> {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.id, id));
  return row;
}

/**
 * Marks a token used in one atomic statement: of two concurrent refreshes (on any instances)
 * exactly one gets the row back.
 */
export async function claimRefreshToken(db: Db, id: string, at: Date, childId: string): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ usedAt: at, replacedById: childId })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length === 1;
}

export async function revokeFamily(db: Db, familyId: string, at: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Revokes the activation's tokens; with `scope`, only the families of that scope. */
export async function revokeActivationTokens(
  db: Db,
  activationId: string,
  at: Date,
  scope?: string,
): Promise<void> {
  const conditions = [eq(refreshTokens.activationId, activationId), isNull(refreshTokens.revokedAt)];
  if (scope !== undefined) conditions.push(eq(refreshTokens.scope, scope));
  await db
    .update(refreshTokens)
    .set({ revokedAt: at })
    .where(and(...conditions));
}

export async function isFamilyRevoked(db: Db, familyId: string): Promise<boolean> {
  const rows = await db
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
    .limit(1);
  return rows.length === 0;
}
