import { and, asc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { calculationResults, leads, ruleChanges, ruleNotices } from '../engine/schema.ts';

/**
 * Records a change by its id unless it is recorded already. True only for the caller whose insert
 * went in: under concurrent starts the others wait on the key and get false.
 */
export async function recordRuleChangeOnce(
  tx: Db,
  row: { id: string; change: Record<string, unknown>; recordedAt: Date },
): Promise<boolean> {
  const inserted = await tx
    .insert(ruleChanges)
    .values(row)
    .onConflictDoNothing({ target: ruleChanges.id })
    .returning({ id: ruleChanges.id });
  return inserted.length === 1;
}

export async function setFirmsTold(tx: Db, id: string, firmsTold: number): Promise<void> {
  await tx.update(ruleChanges).set({ firmsTold }).where(eq(ruleChanges.id, id));
}

/**
 * The firms with a result or a lead of one of these calculators since `since` (of one of these
 * states, when `states` is not empty): the firms whose calculators a rule change touches.
 */
export async function firmsUsingCalculators(
  db: Db,
  filter: { calculators: readonly string[]; states: readonly string[]; since: Date },
): Promise<string[]> {
  if (filter.calculators.length === 0) return [];
  const calculators = [...filter.calculators];
  const states = [...filter.states];
  const results = db
    .selectDistinct({ accountId: calculationResults.accountId })
    .from(calculationResults)
    .where(
      and(
        inArray(calculationResults.calculator, calculators),
        gte(calculationResults.createdAt, filter.since),
        states.length ? inArray(calculationResults.state, states) : undefined,
      ),
    );
  const fromLeads = db
    .selectDistinct({ accountId: leads.accountId })
    .from(leads)
    .where(
      and(
        inArray(leads.calculator, calculators),
        gte(leads.createdAt, filter.since),
        states.length ? inArray(leads.state, states) : undefined,
      ),
    );
  const rows = await results.union(fromLeads);
  return rows.map((r) => r.accountId).sort();
}

export async function insertRuleNotices(
  tx: Db,
  rows: { accountId: string; changeId: string; createdAt: Date }[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.insert(ruleNotices).values(rows).onConflictDoNothing();
}

/** The rule changes a firm was told of and has not dismissed, oldest first, with each change as recorded. */
export function openRuleNoticesOf(db: Db, accountId: string) {
  return db
    .select({
      changeId: ruleNotices.changeId,
      createdAt: ruleNotices.createdAt,
      change: ruleChanges.change,
    })
    .from(ruleNotices)
    .innerJoin(ruleChanges, eq(ruleChanges.id, ruleNotices.changeId))
    .where(and(eq(ruleNotices.accountId, accountId), isNull(ruleNotices.dismissedAt)))
    .orderBy(asc(ruleNotices.createdAt), asc(ruleNotices.changeId));
}

/** Dismisses one of the firm's notices; false when it has none by that id (or it was dismissed). */
export async function dismissRuleNotice(
  db: Db,
  accountId: string,
  changeId: string,
  at: Date,
): Promise<boolean> {
  const rows = await db
    .update(ruleNotices)
    .set({ dismissedAt: at })
    .where(
      and(
        eq(ruleNotices.accountId, accountId),
        eq(ruleNotices.changeId, changeId),
        isNull(ruleNotices.dismissedAt),
      ),
    )
    .returning({ id: ruleNotices.changeId });
  return rows.length === 1;
}

/** Every recorded change id (tests and the admin's view of what was announced). */
export async function recordedRuleChanges(db: Db): Promise<{ id: string; firmsTold: number }[]> {
  return db
    .select({ id: ruleChanges.id, firmsTold: ruleChanges.firmsTold })
    .from(ruleChanges)
    .orderBy(sql`${ruleChanges.recordedAt}`, asc(ruleChanges.id));
}
