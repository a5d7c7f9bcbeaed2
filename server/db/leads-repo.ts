import { and, eq } from 'drizzle-orm';
import type { Db } from './database.ts';
import { leads } from './schema.ts';

export type LeadRow = typeof leads.$inferSelect;
export type NewLead = typeof leads.$inferInsert;
export type LeadStatus = 'new' | 'contacted' | 'converted';

export async function insertLead(db: Db, values: NewLead): Promise<LeadRow> {
  const [row] = await db.insert(leads).values(values).returning();
  return row!;
}

export async function findLead(db: Db, accountId: string, id: string): Promise<LeadRow | undefined> {
  const [row] = await db
    .select()
    .from(leads)
    .where(and(eq(leads.accountId, accountId), eq(leads.id, id)));
  return row;
}

/** Compare-and-set on the status, so two concurrent updates cannot both pass the transition check. */
export async function updateLeadStatus(
  db: Db,
  accountId: string,
  id: string,
  from: LeadStatus,
  to: LeadStatus,
  at: Date,
): Promise<LeadRow | undefined> {
  const [row] = await db
    .update(leads)
    .set({ status: to, updatedAt: at })
    .where(and(eq(leads.accountId, accountId), eq(leads.id, id), eq(leads.status, from)))
    .returning();
  return row;
}
