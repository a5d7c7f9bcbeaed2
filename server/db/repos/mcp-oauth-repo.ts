import { and, desc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import {
  mcpAuthCodes,
  mcpGrants,
  mcpRefreshTokens,
  memberships,
  oauthClients,
  users,
} from '../engine/schema.ts';

export type OauthClientRow = typeof oauthClients.$inferSelect;
export type McpGrantRow = typeof mcpGrants.$inferSelect;
export type McpAuthCodeRow = typeof mcpAuthCodes.$inferSelect;
export type McpRefreshTokenRow = typeof mcpRefreshTokens.$inferSelect;

export async function insertOauthClient(db: Db, values: OauthClientRow): Promise<void> {
  await db.insert(oauthClients).values(values);
}

export async function findOauthClient(db: Db, id: string): Promise<OauthClientRow | undefined> {
  const [row] = await db.select().from(oauthClients).where(eq(oauthClients.id, id));
  return row;
}

export async function insertGrant(db: Db, values: typeof mcpGrants.$inferInsert): Promise<McpGrantRow> {
  const [row] = await db.insert(mcpGrants).values(values).returning();
  return row!;
}

/** A grant with its approver's current role in the grant's firm (null: no longer a member). */
export async function findGrantWithApproverRole(
  db: Db,
  id: string,
): Promise<(McpGrantRow & { approverRole: string | null }) | undefined> {
  const [row] = await db
    .select({ grant: mcpGrants, role: memberships.role })
    .from(mcpGrants)
    .leftJoin(
      memberships,
      and(eq(memberships.accountId, mcpGrants.accountId), eq(memberships.userId, mcpGrants.approverUserId)),
    )
    .where(eq(mcpGrants.id, id));
  return row ? { ...row.grant, approverRole: row.role ?? null } : undefined;
}

/** The firm's grants that were exchanged for a token and are not revoked, newest first, with who approved each. */
export function listLiveGrantsOfAccount(db: Db, accountId: string) {
  return db
    .select({ grant: mcpGrants, email: users.email, name: users.name })
    .from(mcpGrants)
    .innerJoin(users, eq(users.id, mcpGrants.approverUserId))
    .where(
      and(eq(mcpGrants.accountId, accountId), isNotNull(mcpGrants.activatedAt), isNull(mcpGrants.revokedAt)),
    )
    .orderBy(desc(mcpGrants.createdAt));
}

/** The grant's code was exchanged: from now on it is a connected app (the first exchange's time stays). */
export async function activateGrant(db: Db, id: string, at: Date): Promise<void> {
  await db
    .update(mcpGrants)
    .set({ activatedAt: at })
    .where(and(eq(mcpGrants.id, id), isNull(mcpGrants.activatedAt)));
}

/** "Last used" for people: the caller throttles how often this is written. */
export async function touchGrant(db: Db, id: string, at: Date): Promise<void> {
  await db.update(mcpGrants).set({ lastUsedAt: at }).where(eq(mcpGrants.id, id));
}

/**
 * Revokes live grants matching `where` (one grant, a firm's, an approver's in a firm) and every
 * refresh token they hold; returns the grants that this call revoked.
 */
export async function revokeGrants(
  db: Db,
  where: { id?: string; accountId?: string; approverUserId?: string },
  at: Date,
  reason: string,
): Promise<McpGrantRow[]> {
  const conditions = [isNull(mcpGrants.revokedAt)];
  if (where.id !== undefined) conditions.push(eq(mcpGrants.id, where.id));
  if (where.accountId !== undefined) conditions.push(eq(mcpGrants.accountId, where.accountId));
  if (where.approverUserId !== undefined) conditions.push(eq(mcpGrants.approverUserId, where.approverUserId));
  const revoked = await db
    .update(mcpGrants)
    .set({ revokedAt: at, revokeReason: reason })
    .where(and(...conditions))
    .returning();
  if (revoked.length)
    await db
      .update(mcpRefreshTokens)
      .set({ revokedAt: at })
      .where(
        and(
          inArray(
            mcpRefreshTokens.grantId,
            revoked.map((g) => g.id),
          ),
          isNull(mcpRefreshTokens.revokedAt),
        ),
      );
  return revoked;
}

export async function insertMcpAuthCode(db: Db, values: McpAuthCodeRow): Promise<void> {
  await db.insert(mcpAuthCodes).values(values);
}

/** Single use, atomically: only the first of any number of concurrent redemptions gets the row. */
export async function claimMcpAuthCode(
  db: Db,
  codeHmac: string,
  at: Date,
): Promise<McpAuthCodeRow | undefined> {
  const [row] = await db
    .update(mcpAuthCodes)
    .set({ usedAt: at })
    .where(and(eq(mcpAuthCodes.codeHmac, codeHmac), isNull(mcpAuthCodes.usedAt)))
    .returning();
  return row;
}

export async function findMcpAuthCodeByHmac(db: Db, codeHmac: string): Promise<McpAuthCodeRow | undefined> {
  const [row] = await db.select().from(mcpAuthCodes).where(eq(mcpAuthCodes.codeHmac, codeHmac));
  return row;
}

export async function insertMcpRefreshToken(db: Db, values: McpRefreshTokenRow): Promise<void> {
  await db.insert(mcpRefreshTokens).values(values);
}

export async function findMcpRefreshTokenByHmac(
  db: Db,
  tokenHmac: string,
): Promise<McpRefreshTokenRow | undefined> {
  const [row] = await db.select().from(mcpRefreshTokens).where(eq(mcpRefreshTokens.tokenHmac, tokenHmac));
  return row;
}

export async function findMcpRefreshToken(db: Db, id: string): Promise<McpRefreshTokenRow | undefined> {
  const [row] = await db.select().from(mcpRefreshTokens).where(eq(mcpRefreshTokens.id, id));
  return row;
}

/** Marks a token used in one atomic statement: of two concurrent refreshes exactly one wins. */
export async function claimMcpRefreshToken(db: Db, id: string, at: Date, childId: string): Promise<boolean> {
  const rows = await db
    .update(mcpRefreshTokens)
    .set({ usedAt: at, replacedById: childId })
    .where(
      and(eq(mcpRefreshTokens.id, id), isNull(mcpRefreshTokens.usedAt), isNull(mcpRefreshTokens.revokedAt)),
    )
    .returning({ id: mcpRefreshTokens.id });
  return rows.length === 1;
}

/** Every MCP OAuth row of a closed firm (account closure deletes children first). */
export async function deleteMcpRowsOfAccount(tx: Db, accountId: string): Promise<void> {
  const ids = (
    await tx.select({ id: mcpGrants.id }).from(mcpGrants).where(eq(mcpGrants.accountId, accountId))
  ).map((g) => g.id);
  if (ids.length) {
    await tx.delete(mcpRefreshTokens).where(inArray(mcpRefreshTokens.grantId, ids));
    await tx.delete(mcpAuthCodes).where(inArray(mcpAuthCodes.grantId, ids));
  }
  await tx.delete(mcpGrants).where(eq(mcpGrants.accountId, accountId));
}
