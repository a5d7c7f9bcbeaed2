import { and, count, eq, gte, isNotNull, isNull, like, type SQL } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { leads } from '../engine/schema.ts';

export type LeadRow = typeof leads.$inferSelect;
export type NewLead = typeof leads.$inferInsert;
export type LeadStatus = 'new' | 'contacted' | 'converted' | 'lost';

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
  lostReason: string | null = null,
): Promise<LeadRow | undefined> {
  const [row] = await db
    .update(leads)
    .set({ status: to, lostReason: to === 'lost' ? lostReason : null, updatedAt: at })
    .where(and(eq(leads.accountId, accountId), eq(leads.id, id), eq(leads.status, from)))
    .returning();
  return row;
}

/** Test-mode leads a list without `includeTest` leaves out (same status filter). */
export async function countTestLeads(db: Db, accountId: string, status?: LeadStatus): Promise<number> {
  const conditions = [eq(leads.accountId, accountId), eq(leads.test, true)];
  if (status) conditions.push(eq(leads.status, status));
  return countLeadsWhere(db, ...conditions);
}

/**
 * Live leads (not test, not quarantined) of a license since `since`: the count the plan's daily
 * figure is compared with (past it, alerts are grouped into a digest).
 */
export async function countLiveLeadsSince(db: Db, licenseId: string, since: Date): Promise<number> {
  return countLeadsWhere(
    db,
    eq(leads.licenseId, licenseId),
    eq(leads.test, false),
    isNull(leads.quarantinedAt),
    gte(leads.createdAt, since),
  );
}

/** Leads (held ones too, not test) one client network sent a license since `since`. */
export async function countNetworkLeadsSince(
  db: Db,
  licenseId: string,
  sourceNet: string,
  since: Date,
): Promise<number> {
  return countLeadsWhere(
    db,
    eq(leads.licenseId, licenseId),
    eq(leads.sourceNet, sourceNet),
    eq(leads.test, false),
    gte(leads.createdAt, since),
  );
}

/**
 * Leads (held ones too, not test) from any network inside one wider block (an IPv6 /48, written
 * as the stored network keys' common start, `2001:db8:77:`) that a license received since `since`.
 */
export async function countBlockLeadsSince(
  db: Db,
  licenseId: string,
  blockPrefix: string,
  since: Date,
): Promise<number> {
  if (!/^[0-9a-f:]+:$/.test(blockPrefix)) throw new Error('not an IPv6 block prefix');
  return countLeadsWhere(
    db,
    eq(leads.licenseId, licenseId),
    like(leads.sourceNet, `${blockPrefix}%`),
    eq(leads.test, false),
    gte(leads.createdAt, since),
  );
}

/** Clears the quarantine mark; the lead is then an ordinary lead. Undefined when not quarantined. */
export async function releaseLead(
  db: Db,
  accountId: string,
  id: string,
  at: Date,
): Promise<LeadRow | undefined> {
  const [row] = await db
    .update(leads)
    .set({ quarantinedAt: null, updatedAt: at })
    .where(and(eq(leads.accountId, accountId), eq(leads.id, id), isNotNull(leads.quarantinedAt)))
    .returning();
  return row;
}

/** How many leads match every condition (one COUNT query). */
async function countLeadsWhere(db: Db, ...conditions: SQL[]): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(leads)
    .where(and(...conditions));
  return Number(row?.n ?? 0);
}
