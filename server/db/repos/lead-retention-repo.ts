import { and, asc, eq, isNotNull, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { accounts, leadNotes, leads } from '../engine/schema.ts';

/** Firms that set a retention window for leads not converted (issue 40). */
export async function accountsWithLeadRetention(db: Db): Promise<{ id: string; months: number }[]> {
  const rows = await db
    .select({ id: accounts.id, months: accounts.leadRetentionMonths })
    .from(accounts)
    .where(isNotNull(accounts.leadRetentionMonths));
  return rows.map((r) => ({ id: r.id, months: r.months! }));
}

/**
 * Leads of the firm that are not converted and have not changed since `cutoff`: no status change
 * (`updated_at`) and no note written since. Oldest first, at most `limit`.
 */
export async function staleLeadIds(
  db: Db,
  accountId: string,
  cutoff: Date,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .select({ id: leads.id })
    .from(leads)
    .where(
      and(
        eq(leads.accountId, accountId),
        ne(leads.status, 'converted'),
        lt(leads.updatedAt, cutoff),
        sql`not exists (select 1 from ${leadNotes} where ${leadNotes.leadId} = ${leads.id} and ${leadNotes.createdAt} >= ${cutoff})`,
      ),
    )
    .orderBy(asc(leads.updatedAt))
    .limit(limit);
  return rows.map((r) => r.id);
}
