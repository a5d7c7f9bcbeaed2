import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { accounts, type MembershipRole, memberships, portalSessions, users } from '../engine/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type MembershipRow = typeof memberships.$inferSelect;

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email));
  return row;
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** Inserts the user unless the e-mail exists; either way returns the row. */
export async function upsertUser(db: Db, values: typeof users.$inferInsert): Promise<UserRow> {
  await db.insert(users).values(values).onConflictDoNothing({ target: users.email });
  return (await findUserByEmail(db, values.email))!;
}

export async function touchUserSignIn(db: Db, id: string, at: Date): Promise<void> {
  await db.update(users).set({ lastSignInAt: at }).where(eq(users.id, id));
}

export async function findMembership(
  db: Db,
  accountId: string,
  userId: string,
): Promise<MembershipRow | undefined> {
  const [row] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, userId)));
  return row;
}

/** The firms a user belongs to, oldest membership first (the default firm at sign-in). */
export async function listMembershipsOfUser(db: Db, userId: string) {
  return db
    .select({ accountId: memberships.accountId, role: memberships.role, accountName: accounts.name })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt));
}

export async function listMembers(db: Db, accountId: string) {
  return db
    .select({
      userId: users.id,
      email: users.email,
      name: users.name,
      role: memberships.role,
      createdAt: memberships.createdAt,
      // This firm's own fact: the person's last sign-in into this firm, never into another one.
      lastSignInAt: sql<Date | null>`(select max(${portalSessions.createdAt}) from ${portalSessions}
        where ${portalSessions.userId} = ${users.id} and ${portalSessions.accountId} = ${accountId})`.mapWith(
        (v: string | Date | null) => (v === null ? null : new Date(v)),
      ),
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.accountId, accountId))
    .orderBy(asc(memberships.createdAt));
}

/** Adds the membership, or changes the role of an existing one. */
export async function putMembership(
  db: Db,
  values: { accountId: string; userId: string; role: MembershipRole; invitedBy: string | null; at: Date },
): Promise<MembershipRow> {
  const [row] = await db
    .insert(memberships)
    .values({
      accountId: values.accountId,
      userId: values.userId,
      role: values.role,
      invitedBy: values.invitedBy,
      createdAt: values.at,
    })
    .onConflictDoUpdate({ target: [memberships.accountId, memberships.userId], set: { role: values.role } })
    .returning();
  return row!;
}

export async function deleteMembership(db: Db, accountId: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(memberships)
    .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, userId)))
    .returning({ userId: memberships.userId });
  return rows.length === 1;
}

/**
 * The firm's membership rows, locked `FOR UPDATE` until the transaction ends: two owners changing
 * each other at the same instant then run one after the other, and the second sees the first's
 * change (the last-owner rule holds on PostgreSQL, not only on a single connection).
 */
export async function lockMembershipsOf(tx: Db, accountId: string): Promise<MembershipRow[]> {
  return tx
    .select()
    .from(memberships)
    .where(eq(memberships.accountId, accountId))
    .orderBy(asc(memberships.userId))
    .for('update');
}

export async function setMembershipRole(
  db: Db,
  accountId: string,
  userId: string,
  role: MembershipRole,
): Promise<void> {
  await db
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, userId)));
}
