import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { magicLinks, passkeys, portalSessions, webauthnChallenges } from '../engine/schema.ts';

export type PortalSessionRow = typeof portalSessions.$inferSelect;
export type MagicLinkRow = typeof magicLinks.$inferSelect;
export type PasskeyRow = typeof passkeys.$inferSelect;

export async function insertPortalSession(
  db: Db,
  values: typeof portalSessions.$inferInsert,
): Promise<PortalSessionRow> {
  const [row] = await db.insert(portalSessions).values(values).returning();
  return row!;
}

/** A live session by its token HMAC: not revoked, not expired at `now`. */
export async function findLiveSession(
  db: Db,
  tokenHmac: string,
  now: Date,
): Promise<PortalSessionRow | undefined> {
  const [row] = await db
    .select()
    .from(portalSessions)
    .where(
      and(
        eq(portalSessions.tokenHmac, tokenHmac),
        isNull(portalSessions.revokedAt),
        gt(portalSessions.expiresAt, now),
      ),
    );
  return row;
}

export async function touchSession(db: Db, id: string, at: Date): Promise<void> {
  await db.update(portalSessions).set({ lastSeenAt: at }).where(eq(portalSessions.id, id));
}

export async function setSessionAccount(db: Db, id: string, accountId: string): Promise<void> {
  await db.update(portalSessions).set({ accountId }).where(eq(portalSessions.id, id));
}

/** Revokes one session of a user (scoped by user: another person's session id changes nothing). */
export async function revokeSession(db: Db, userId: string, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(portalSessions)
    .set({ revokedAt: at })
    .where(
      and(eq(portalSessions.userId, userId), eq(portalSessions.id, id), isNull(portalSessions.revokedAt)),
    )
    .returning({ id: portalSessions.id });
  return rows.length === 1;
}

/** Ends the session a browser presented, whoever it belongs to (sign-in replaces it). */
export async function revokeSessionByToken(db: Db, tokenHmac: string, at: Date): Promise<void> {
  await db
    .update(portalSessions)
    .set({ revokedAt: at })
    .where(and(eq(portalSessions.tokenHmac, tokenHmac), isNull(portalSessions.revokedAt)));
}

export async function listLiveSessionsOfUser(db: Db, userId: string, now: Date) {
  return db
    .select()
    .from(portalSessions)
    .where(
      and(
        eq(portalSessions.userId, userId),
        isNull(portalSessions.revokedAt),
        gt(portalSessions.expiresAt, now),
      ),
    )
    .orderBy(portalSessions.createdAt);
}

/** Ends every session of a user in one firm (when their membership is removed). */
export async function revokeSessionsInAccount(db: Db, userId: string, accountId: string, at: Date) {
  await db
    .update(portalSessions)
    .set({ revokedAt: at })
    .where(
      and(
        eq(portalSessions.userId, userId),
        eq(portalSessions.accountId, accountId),
        isNull(portalSessions.revokedAt),
      ),
    );
}

export async function insertMagicLink(db: Db, values: typeof magicLinks.$inferInsert): Promise<void> {
  await db.insert(magicLinks).values(values);
}

/** Single use, atomically: of two concurrent redemptions only one gets the row. */
export async function claimMagicLink(db: Db, tokenHmac: string, at: Date): Promise<MagicLinkRow | undefined> {
  const [row] = await db
    .update(magicLinks)
    .set({ usedAt: at })
    .where(and(eq(magicLinks.tokenHmac, tokenHmac), isNull(magicLinks.usedAt)))
    .returning();
  return row;
}

export async function insertChallenge(db: Db, values: typeof webauthnChallenges.$inferInsert): Promise<void> {
  await db.insert(webauthnChallenges).values(values);
}

export async function claimChallenge(db: Db, id: string, at: Date) {
  const [row] = await db
    .update(webauthnChallenges)
    .set({ usedAt: at })
    .where(and(eq(webauthnChallenges.id, id), isNull(webauthnChallenges.usedAt)))
    .returning();
  return row;
}

export async function insertPasskey(db: Db, values: typeof passkeys.$inferInsert): Promise<PasskeyRow> {
  const [row] = await db.insert(passkeys).values(values).returning();
  return row!;
}

export async function findPasskeyByCredentialId(
  db: Db,
  credentialId: string,
): Promise<PasskeyRow | undefined> {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId));
  return row;
}

export async function listPasskeysOfUser(db: Db, userId: string): Promise<PasskeyRow[]> {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(passkeys.createdAt);
}

export async function updatePasskeyUse(db: Db, id: string, counter: number, at: Date): Promise<void> {
  await db.update(passkeys).set({ counter, lastUsedAt: at }).where(eq(passkeys.id, id));
}

export async function deletePasskey(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
    .returning({ id: passkeys.id });
  return rows.length === 1;
}
