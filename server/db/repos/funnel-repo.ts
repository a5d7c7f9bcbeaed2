import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { funnelDaily } from '../engine/schema.ts';

export type FunnelRow = typeof funnelDaily.$inferInsert & {
  views: number;
  calculations: number;
  leads: number;
  heldLeads: number;
};

const bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** funnel_daily's key order: license, day, calculator, page, language (each by its UTF-8 bytes), test. */
function byKey(a: FunnelRow, b: FunnelRow): number {
  return (
    bytes(a.licenseId, b.licenseId) ||
    bytes(a.day, b.day) ||
    bytes(a.calculator, b.calculator) ||
    bytes(a.page, b.page) ||
    bytes(a.language, b.language) ||
    Number(a.test) - Number(b.test)
  );
}

const added = (name: string) => sql.raw(`"funnel_daily"."${name}" + excluded."${name}"`);

/**
 * Adds counts to the funnel's daily rows in one statement: a new key is inserted, an existing one
 * grows by the counts given (never set), so several instances flushing the same key add up.
 */
export async function addFunnelCounts(db: Db, rows: FunnelRow[]): Promise<void> {
  // In the byte order (COLLATE "C") the outcome triggers of migration 0028 upsert in: every writer
  // locks the rows it shares with another in the same order, so a flush and a lead's status change
  // never wait on each other in a cycle.
  const sorted = [...rows].sort(byKey);
  for (let i = 0; i < sorted.length; i += 500) {
    const chunk = sorted.slice(i, i + 500);
    await db
      .insert(funnelDaily)
      .values(chunk)
      .onConflictDoUpdate({
        target: [
          funnelDaily.licenseId,
          funnelDaily.day,
          funnelDaily.calculator,
          funnelDaily.page,
          funnelDaily.language,
          funnelDaily.test,
        ],
        set: {
          views: added('views'),
          calculations: added('calculations'),
          leads: added('leads'),
          heldLeads: added('held_leads'),
        },
      });
  }
}

/** Rows the counter wrote (views, calculations or leads), not those that carry only leads' outcomes. */
const counted = (f: typeof funnelDaily) =>
  sql`${f.views} + ${f.calculations} + ${f.leads} + ${f.heldLeads} > 0`;

/**
 * The pages already counted for a license on a UTC day (at most the cap plus "other pages"). A page
 * only a lead's outcome names (its lead counted under "other pages") takes no place under the cap.
 */
export async function countedPages(db: Db, licenseId: string, day: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ page: funnelDaily.page })
    .from(funnelDaily)
    .where(and(eq(funnelDaily.licenseId, licenseId), eq(funnelDaily.day, day), counted(funnelDaily)));
  return rows.map((r) => r.page);
}

export interface FunnelSum {
  calculator: string;
  page: string;
  test: boolean;
  views: number;
  calculations: number;
  leads: number;
  heldLeads: number;
  /** Of the live leads created in the period under this key, as they stand now (0 for test traffic). */
  contacted: number;
  converted: number;
  lost: number;
}

/**
 * A firm's counters over UTC days [fromDay, toDay], summed per calculator, page and traffic kind:
 * a few rows per day, whatever the number of leads (the funnel_daily_account_idx range).
 */
export async function funnelSums(
  db: Db,
  accountId: string,
  fromDay: string,
  toDay: string,
): Promise<FunnelSum[]> {
  const f = funnelDaily;
  const rows = await db
    .select({
      calculator: f.calculator,
      page: f.page,
      test: f.test,
      views: sql<string>`sum(${f.views})`,
      calculations: sql<string>`sum(${f.calculations})`,
      leads: sql<string>`sum(${f.leads})`,
      heldLeads: sql<string>`sum(${f.heldLeads})`,
      contacted: sql<string>`sum(${f.contacted})`,
      converted: sql<string>`sum(${f.converted})`,
      lost: sql<string>`sum(${f.lost})`,
    })
    .from(f)
    .where(
      and(eq(f.accountId, accountId), sql`${f.day} >= ${fromDay}::date`, sql`${f.day} <= ${toDay}::date`),
    )
    .groupBy(f.calculator, f.page, f.test);
  return rows.map((r) => ({
    ...r,
    views: Number(r.views),
    calculations: Number(r.calculations),
    leads: Number(r.leads),
    heldLeads: Number(r.heldLeads),
    contacted: Number(r.contacted),
    converted: Number(r.converted),
    lost: Number(r.lost),
  }));
}

/** A firm's live counters per UTC day over [fromDay, toDay] (the portal's chart). */
export async function funnelDays(
  db: Db,
  accountId: string,
  fromDay: string,
  toDay: string,
): Promise<{ day: string; views: number; calculations: number; leads: number }[]> {
  const f = funnelDaily;
  const rows = await db
    .select({
      day: f.day,
      views: sql<string>`sum(${f.views})`,
      calculations: sql<string>`sum(${f.calculations})`,
      leads: sql<string>`sum(${f.leads})`,
    })
    .from(f)
    .where(
      and(
        eq(f.accountId, accountId),
        eq(f.test, false),
        sql`${f.day} >= ${fromDay}::date`,
        sql`${f.day} <= ${toDay}::date`,
      ),
    )
    .groupBy(f.day)
    .orderBy(f.day);
  return rows.map((r) => ({
    day: r.day,
    views: Number(r.views),
    calculations: Number(r.calculations),
    leads: Number(r.leads),
  }));
}

/** Per license of a firm: the last UTC day a view and a lead were counted, and the origins seen. */
export async function embedSightings(
  db: Db,
  accountId: string,
): Promise<{ licenseId: string; origin: string; lastView: string | null; lastLead: string | null }[]> {
  const f = funnelDaily;
  const origin = sql<string>`substring(${f.page} from '^https?://[^/]+')`;
  const rows = await db
    .select({
      licenseId: f.licenseId,
      origin,
      lastView: sql<string | null>`max(${f.day}) filter (where ${f.views} > 0)`,
      lastLead: sql<string | null>`max(${f.day}) filter (where ${f.leads} > 0)`,
    })
    .from(f)
    .where(and(eq(f.accountId, accountId), eq(f.test, false), sql`${f.page} like 'http%'`, counted(f)))
    .groupBy(f.licenseId, origin);
  return rows;
}
