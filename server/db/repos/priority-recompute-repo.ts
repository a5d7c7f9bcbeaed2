import { and, asc, eq, isNotNull, isNull, ne, or } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { calculationResults, leads } from '../engine/schema.ts';

export interface LeadToRate {
  id: string;
  valueAmount: number | null;
  result: {
    calculator: string;
    state: string | null;
    inputs: Record<string, unknown>;
    outputs: Record<string, unknown>;
    ruleSet: Record<string, unknown>;
  };
}

/**
 * Leads of one calculator with a result, rated by another rule table version than `version` (or
 * never): the next batch of the priority recompute, in id order. Rated rows stop matching, so the
 * job resumes where it stopped.
 */
export async function leadsToRate(
  db: Db,
  calculator: string,
  version: string,
  limit: number,
): Promise<LeadToRate[]> {
  const r = calculationResults;
  const rows = await db
    .select({
      id: leads.id,
      valueAmount: leads.valueAmount,
      result: {
        calculator: r.calculator,
        state: r.state,
        inputs: r.inputs,
        outputs: r.outputs,
        ruleSet: r.ruleSet,
      },
    })
    .from(leads)
    .innerJoin(r, and(eq(r.id, leads.resultId), eq(r.accountId, leads.accountId)))
    .where(
      and(
        eq(leads.calculator, calculator),
        isNotNull(leads.resultId),
        or(isNull(leads.priorityVersion), ne(leads.priorityVersion, version)),
      ),
    )
    .orderBy(asc(leads.id))
    .limit(limit);
  return rows;
}

/** Writes a lead's priority (and its value when it had none); never its figures, status or times. */
export async function setLeadRating(
  db: Db,
  id: string,
  rating: {
    priorityRank: number | null;
    priorityReasons: string[] | null;
    priorityVersion: string;
    valueAmount?: number | null;
  },
): Promise<void> {
  await db.update(leads).set(rating).where(eq(leads.id, id));
}
