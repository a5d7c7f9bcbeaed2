import { and, asc, count, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { accounts } from '../engine/schema.ts';

export type AccountRow = typeof accounts.$inferSelect;

export async function insertAccount(db: Db, values: typeof accounts.$inferInsert): Promise<AccountRow> {
  const [row] = await db.insert(accounts).values(values).returning();
  return row!;
}

export async function findAccountById(db: Db, id: string): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
  return row;
}

export async function setStripeCustomerId(db: Db, id: string, customerId: string): Promise<void> {
  await db.update(accounts).set({ stripeCustomerId: customerId }).where(eq(accounts.id, id));
}

export async function countAccounts(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(accounts);
  return Number(row?.n ?? 0);
}

export async function findAccountByEmail(db: Db, email: string): Promise<AccountRow | undefined> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(eq(accounts.email, email))
    .orderBy(accounts.createdAt)
    .limit(1);
  return row;
}

export async function listAccounts(db: Db): Promise<AccountRow[]> {
  return db.select().from(accounts).orderBy(asc(accounts.createdAt), asc(accounts.id));
}

export type AccountChanges = Partial<
  Pick<AccountRow, 'name' | 'alertEmails' | 'accentColor' | 'contact' | 'leadRetentionMonths'>
>;

export async function updateAccount(db: Db, id: string, changes: AccountChanges): Promise<AccountRow> {
  const [row] = await db.update(accounts).set(changes).where(eq(accounts.id, id)).returning();
  return row!;
}

export async function findAccountByStripeCustomerId(
  db: Db,
  customerId: string,
): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.stripeCustomerId, customerId));
  return row;
}

/**
 * The account's own address (its owner's) as its only alert address, when its list is empty. One
 * statement: of two workers starting at once, one sets it. Returns whether this call set it.
 */
export async function setOwnerAsAlertAddressIfEmpty(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(accounts)
    .set({ alertEmails: sql`jsonb_build_array(${accounts.email})` })
    .where(and(eq(accounts.id, id), sql`${accounts.alertEmails} = '[]'::jsonb`, isNotNull(accounts.email)))
    .returning({ id: accounts.id });
  return rows.length === 1;
}
