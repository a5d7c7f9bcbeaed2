import { and, count, desc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { leads } from '../engine/schema.ts';
import type { LeadRow } from './leads-repo.ts';

const heldOf = (accountId: string) => and(eq(leads.accountId, accountId), isNotNull(leads.quarantinedAt));

/** How many of the firm's leads are held (quarantined). */
export async function countHeldLeads(db: Db, accountId: string): Promise<number> {
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(leads).where(heldOf(accountId));
  return Number(n);
}

/** The reasons of every held lead, one list per lead. */
export async function heldLeadReasons(db: Db, accountId: string): Promise<string[][]> {
  const rows = await db.select({ reasons: leads.quarantineReasons }).from(leads).where(heldOf(accountId));
  return rows.map((r) => r.reasons);
}

/** The most recently held leads, newest first. */
export function latestHeldLeads(db: Db, accountId: string, limit: number): Promise<LeadRow[]> {
  return db
    .select()
    .from(leads)
    .where(heldOf(accountId))
    .orderBy(desc(leads.quarantinedAt), desc(leads.id))
    .limit(limit);
}
