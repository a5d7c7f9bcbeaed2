import { and, count, desc, eq, gte, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../engine/database.ts';
import { calculationResults, leadDailyCounts, leads } from '../engine/schema.ts';
import type { LeadRow, LeadStatus } from './leads-repo.ts';
import type { ResultRow } from './results-repo.ts';

/**
 * Filtered keyset reads of leads and results, newest first. Every query starts with the account
 * id; the "live" conditions are written as literals so they match the partial indexes of 0004.
 */
export interface LeadSearch {
  accountId: string;
  status?: LeadStatus;
  calculator?: string;
  state?: string;
  /** The visitor's language (`en`, `es`). */
  language?: string;
  createdFrom?: Date;
  createdTo?: Date;
  includeTest: boolean;
  /**
   * Over-quota leads: left out (the default without `includeTest`), kept, or the only ones. Unset
   * with `includeTest` means kept, as the REST list and MCP have always had it.
   */
  quarantined?: QuarantineFilter;
  /** Rows created after this instant are left out, so counts and pages agree across pages. */
  asOf: Date;
  /** The start of a name or an e-mail address, lower case (matched case-insensitively). */
  q?: string;
  /** Newest first (the default), or highest value / priority first, newest first among equals. */
  sort?: LeadSort;
}

export type LeadSort = 'received' | 'value' | 'priority';

export type QuarantineFilter = 'exclude' | 'include' | 'only';

export type ResultSearch = Omit<LeadSearch, 'status' | 'quarantined' | 'q' | 'sort'>;

export interface Keyset {
  createdAt: Date;
  id: string;
  /** The sort key of the row (value or priority rank, -1/0 when not rated), for sorted pages. */
  sortKey?: number;
}

type LinkedResult = Pick<ResultRow, 'id' | 'calculator' | 'state' | 'inputs' | 'outputs'>;
export type LeadWithResult = LeadRow & { result: LinkedResult | null };

const LIVE_LEAD = sql`${leads.test} = false and ${leads.quarantinedAt} is null`;
const LIVE_RESULT = sql`${calculationResults.test} = false`;

function leadConditions(q: LeadSearch, after?: Keyset, sparse = false): SQL[] {
  const c: SQL[] = [eq(leads.accountId, q.accountId), sql`${leads.createdAt} <= ${q.asOf}`];
  const quarantined = q.quarantined ?? (q.includeTest ? 'include' : 'exclude');
  if (!q.includeTest && quarantined === 'exclude') c.push(LIVE_LEAD);
  else {
    if (!q.includeTest) c.push(eq(leads.test, false));
    if (quarantined === 'exclude') c.push(isNull(leads.quarantinedAt));
    if (quarantined === 'only') c.push(isNotNull(leads.quarantinedAt));
  }
  if (q.status) c.push(eq(leads.status, q.status));
  if (q.calculator) c.push(eq(leads.calculator, q.calculator));
  if (q.state) c.push(eq(leads.state, q.state));
  if (q.language) c.push(eq(leads.language, q.language));
  if (q.createdFrom) c.push(gte(leads.createdAt, q.createdFrom));
  if (q.createdTo) c.push(lt(leads.createdAt, q.createdTo));
  if (q.q) {
    // Prefix match on the lower-cased columns, as the text_pattern_ops search indexes hold them.
    const prefix = prefixPattern(q.q);
    c.push(sql`(lower(${leads.name}) like ${prefix} or lower(${leads.email}) like ${prefix})`);
  }
  const key = sortKeyOf(q.sort, sparse);
  if (after && key)
    c.push(
      sql`(${key}, ${leads.createdAt}, ${leads.id}) < (${after.sortKey ?? 0}, ${after.createdAt}, ${after.id})`,
    );
  else if (after) c.push(sql`(${leads.createdAt}, ${leads.id}) < (${after.createdAt}, ${after.id})`);
  return c;
}

/**
 * The sort key as the 0018 indexes hold it: unrated rows last. `sparse` writes the same value as
 * an expression no index holds (`+ 0`), so the planner cannot walk the sort index filtering every
 * row by the search; it reads the few matches through the search indexes and sorts them instead.
 */
function sortKeyOf(sort: LeadSort | undefined, sparse = false): SQL | undefined {
  const plus = sparse ? sql` + 0` : sql``;
  if (sort === 'value') return sql`(coalesce(${leads.valueAmount}, -1)${plus})`;
  if (sort === 'priority') return sql`(coalesce(${leads.priorityRank}, 0)${plus})`;
  return undefined;
}

function resultConditions(q: ResultSearch, after?: Keyset): SQL[] {
  const r = calculationResults;
  const c: SQL[] = [eq(r.accountId, q.accountId), sql`${r.createdAt} <= ${q.asOf}`];
  if (!q.includeTest) c.push(LIVE_RESULT);
  if (q.calculator) c.push(eq(r.calculator, q.calculator));
  if (q.state) c.push(eq(r.state, q.state));
  if (q.language) c.push(eq(r.language, q.language));
  if (q.createdFrom) c.push(gte(r.createdAt, q.createdFrom));
  if (q.createdTo) c.push(lt(r.createdAt, q.createdTo));
  if (after) c.push(sql`(${r.createdAt}, ${r.id}) < (${after.createdAt}, ${after.id})`);
  return c;
}

/**
 * A page of leads with their linked result (same account only). `sparse`: a sorted search known
 * to match few leads (at most the count cap), read through the search indexes, not the sort's.
 */
export async function searchLeads(
  db: Db,
  q: LeadSearch,
  limit: number,
  after?: Keyset,
  sparse = false,
): Promise<LeadWithResult[]> {
  const r = alias(calculationResults, 'r');
  const key = sortKeyOf(q.sort, sparse);
  const rows = await db
    .select({
      lead: leads,
      result: { id: r.id, calculator: r.calculator, state: r.state, inputs: r.inputs, outputs: r.outputs },
    })
    .from(leads)
    .leftJoin(r, and(eq(r.id, leads.resultId), eq(r.accountId, leads.accountId)))
    .where(and(...leadConditions(q, after, sparse)))
    .orderBy(...(key ? [sql`${key} desc`] : []), desc(leads.createdAt), desc(leads.id))
    .limit(limit);
  return rows.map(({ lead, result }) => ({ ...lead, result: result?.id ? result : null }));
}

export async function searchResults(
  db: Db,
  q: ResultSearch,
  limit: number,
  after?: Keyset,
): Promise<ResultRow[]> {
  const r = calculationResults;
  return db
    .select()
    .from(r)
    .where(and(...resultConditions(q, after)))
    .orderBy(desc(r.createdAt), desc(r.id))
    .limit(limit);
}

/** `LIKE` pattern for a prefix, lower case, with `\\`, `%` and `_` taken literally. */
const prefixPattern = (prefix: string) => `${prefix.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** Matching rows, counted up to `cap` (so a big account costs at most `cap` index entries). */
export async function countLeads(db: Db, q: LeadSearch, cap: number): Promise<number> {
  if (q.q) return countSearch(db, { ...q, q: q.q }, cap);
  // In index order, so the planner walks the page index and stops after `cap` entries.
  const sub = db
    .select({ one: sql`1` })
    .from(leads)
    .where(and(...leadConditions(q)))
    .orderBy(desc(leads.createdAt), desc(leads.id))
    .limit(cap)
    .as('m');
  const [row] = await db.select({ n: count() }).from(sub);
  return row?.n ?? 0;
}

/**
 * Leads matching a search per UTC day and calculator (the Leads chart under the list's filters):
 * the same conditions as `searchLeads`, so the chart and the list never disagree.
 */
export async function leadsByDayMatching(
  db: Db,
  q: LeadSearch,
): Promise<{ day: string; calculator: string; n: number }[]> {
  const day = sql<string>`to_char(${leads.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .select({ day, calculator: leads.calculator, n: count() })
    .from(leads)
    .where(and(...leadConditions(q)))
    .groupBy(day, leads.calculator);
  return rows.map((r) => ({ day: r.day, calculator: r.calculator, n: Number(r.n) }));
}

/**
 * A search's count, up to `cap`: the leads whose name starts with the prefix, plus those whose
 * e-mail does and whose name does not, each counted up to `cap` as a range of its search index
 * (index-only: the index carries every column the count reads). One `OR` over both columns
 * cannot use either index, and a planner expecting many matches reads the table instead. The sum
 * is exact below `cap`, and at least `cap` whenever the whole is.
 */
async function countSearch(db: Db, q: LeadSearch & { q: string }, cap: number): Promise<number> {
  const { q: prefix, ...rest } = q;
  const pattern = prefixPattern(prefix);
  const base = leadConditions(rest);
  const capped = (match: SQL) =>
    db
      .select({ one: sql`1` })
      .from(leads)
      .where(and(...base, match))
      .limit(cap)
      .as('m');
  const byName = capped(sql`lower(${leads.name}) like ${pattern}`);
  const byEmailOnly = capped(
    sql`lower(${leads.email}) like ${pattern} and lower(${leads.name}) not like ${pattern}`,
  );
  const [[a], [b]] = await Promise.all([
    db.select({ n: count() }).from(byName),
    db.select({ n: count() }).from(byEmailOnly),
  ]);
  return Math.min((a?.n ?? 0) + (b?.n ?? 0), cap);
}

export async function countResults(db: Db, q: ResultSearch, cap: number): Promise<number> {
  const sub = db
    .select({ one: sql`1` })
    .from(calculationResults)
    .where(and(...resultConditions(q)))
    .orderBy(desc(calculationResults.createdAt), desc(calculationResults.id))
    .limit(cap)
    .as('m');
  const [row] = await db.select({ n: count() }).from(sub);
  return row?.n ?? 0;
}

/** Live leads of the account, all time (exact): a sum over the daily counters. */
export async function countLiveLeads(db: Db, accountId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<string>`coalesce(sum(${leadDailyCounts.leads}), 0)` })
    .from(leadDailyCounts)
    .where(eq(leadDailyCounts.accountId, accountId));
  return Number(row?.n ?? 0);
}

export interface Breakdown {
  status: string;
  calculator: string;
  n: number;
}

/**
 * Live leads created in [from, until) by status and calculator, exact: whole UTC days after the
 * first come from the daily counters; the first, partial day from the leads themselves (an index
 * range of one day). `until` is now, so no counted day lies past it.
 */
export async function leadWindowBreakdown(
  db: Db,
  accountId: string,
  from: Date,
  until: Date,
): Promise<Breakdown[]> {
  const firstDay = from.toISOString().slice(0, 10);
  const nextMidnight = new Date(`${firstDay}T00:00:00Z`);
  nextMidnight.setUTCDate(nextMidnight.getUTCDate() + 1);
  const lastDay = until.toISOString().slice(0, 10);
  const c = leadDailyCounts;
  const [days, head] = await Promise.all([
    db
      .select({ status: c.status, calculator: c.calculator, n: sql<string>`sum(${c.leads})` })
      .from(c)
      .where(
        and(eq(c.accountId, accountId), sql`${c.day} > ${firstDay}::date`, sql`${c.day} <= ${lastDay}::date`),
      )
      .groupBy(c.status, c.calculator),
    db
      .select({ status: leads.status, calculator: leads.calculator, n: count() })
      .from(leads)
      .where(
        and(
          eq(leads.accountId, accountId),
          LIVE_LEAD,
          gte(leads.createdAt, from),
          lt(leads.createdAt, nextMidnight < until ? nextMidnight : until),
        ),
      )
      .groupBy(leads.status, leads.calculator),
  ]);
  return [...days, ...head].map((r) => ({ status: r.status, calculator: r.calculator, n: Number(r.n) }));
}

/** Live leads per UTC day and calculator from `fromDay` (YYYY-MM-DD) on, from the daily counters. */
export async function liveLeadsByDay(
  db: Db,
  accountId: string,
  fromDay: string,
): Promise<{ day: string; calculator: string; n: number }[]> {
  const c = leadDailyCounts;
  const rows = await db
    .select({ day: sql<string>`${c.day}::text`, calculator: c.calculator, n: sql<string>`sum(${c.leads})` })
    .from(c)
    .where(and(eq(c.accountId, accountId), sql`${c.day} >= ${fromDay}::date`))
    .groupBy(c.day, c.calculator);
  return rows.map((r) => ({ day: r.day, calculator: r.calculator, n: Number(r.n) }));
}
