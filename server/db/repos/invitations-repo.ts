import { and, asc, count, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { invitations } from '../engine/schema.ts';

export type InvitationRow = typeof invitations.$inferSelect;

export async function insertInvitation(db: Db, values: typeof invitations.$inferInsert): Promise<void> {
  await db.insert(invitations).values(values);
}

/**
 * Serializes invitations to one address and from one firm until the transaction ends (advisory
 * locks: the rows to count do not exist yet), so two at once cannot both slip under a limit.
 * Locks are taken in one fixed order (firm, then address) so two transactions cannot deadlock.
 */
export async function lockInvitationCounters(db: Db, accountId: string, email: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`invitations:firm:${accountId}`}))`);
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`invitations:to:${email}`}))`);
}

/** Invitations created since `since`: to `email` from any firm, and from `accountId` to anyone. */
export async function countRecentInvitations(
  db: Db,
  input: { accountId: string; email: string; since: Date },
): Promise<{ toAddress: number; fromFirm: number }> {
  const [toAddress] = await db
    .select({ n: count() })
    .from(invitations)
    .where(and(eq(invitations.email, input.email), gt(invitations.createdAt, input.since)));
  const [fromFirm] = await db
    .select({ n: count() })
    .from(invitations)
    .where(and(eq(invitations.accountId, input.accountId), gt(invitations.createdAt, input.since)));
  return { toAddress: Number(toAddress?.n ?? 0), fromFirm: Number(fromFirm?.n ?? 0) };
}

/** An open invitation by its token HMAC (neither accepted nor declined), locked when `forUpdate`. */
export async function findOpenInvitation(
  db: Db,
  tokenHmac: string,
  forUpdate = false,
): Promise<InvitationRow | undefined> {
  const query = db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.tokenHmac, tokenHmac),
        isNull(invitations.acceptedAt),
        isNull(invitations.declinedAt),
      ),
    );
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function closeInvitation(
  db: Db,
  id: string,
  outcome: { acceptedAt: Date } | { declinedAt: Date },
): Promise<void> {
  await db.update(invitations).set(outcome).where(eq(invitations.id, id));
}

/** A firm's invitations still waiting for an answer at `now`. */
export async function listOpenInvitations(db: Db, accountId: string, now: Date): Promise<InvitationRow[]> {
  return db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.accountId, accountId),
        isNull(invitations.acceptedAt),
        isNull(invitations.declinedAt),
        gt(invitations.expiresAt, now),
      ),
    )
    .orderBy(asc(invitations.createdAt));
}

/**
 * Closes a firm's open invitations to `email` and those `invitedBy` sent: an invitation ends with
 * the membership it leads to (accepted: the others to that address are spent) or came from (a
 * removed member's address and the offers they made). Closed as declined: nobody may use them.
 */
export async function closeOpenInvitations(
  db: Db,
  accountId: string,
  match: { email?: string; invitedBy?: string },
  at: Date,
): Promise<void> {
  const who = [
    ...(match.email ? [eq(invitations.email, match.email)] : []),
    ...(match.invitedBy ? [eq(invitations.invitedBy, match.invitedBy)] : []),
  ];
  if (!who.length) return;
  await db
    .update(invitations)
    .set({ declinedAt: at })
    .where(
      and(
        eq(invitations.accountId, accountId),
        isNull(invitations.acceptedAt),
        isNull(invitations.declinedAt),
        or(...who),
      ),
    );
}
