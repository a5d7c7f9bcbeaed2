import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { leadNotes } from '../engine/schema.ts';

export type LeadNoteRow = typeof leadNotes.$inferSelect;

export async function insertLeadNote(db: Db, values: LeadNoteRow): Promise<LeadNoteRow> {
  const [row] = await db.insert(leadNotes).values(values).returning();
  return row!;
}

/** A lead's notes, oldest first (a conversation reads down the page); scoped by the account. */
export async function leadNotesOf(db: Db, accountId: string, leadId: string): Promise<LeadNoteRow[]> {
  return db
    .select()
    .from(leadNotes)
    .where(and(eq(leadNotes.accountId, accountId), eq(leadNotes.leadId, leadId)))
    .orderBy(asc(leadNotes.createdAt), asc(leadNotes.id));
}
