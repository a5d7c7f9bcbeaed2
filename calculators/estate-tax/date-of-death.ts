import { type Coverage, isCovered } from '../limits.ts';

export interface RuleDate {
  /** The date whose rules are applied. */
  date: string;
  note?: string;
}

/**
 * The date that selects the rule set. A given date was already checked against the coverage by
 * the schema. Without one we use today (from the caller's clock); when today lies outside the
 * tables, we use the nearest covered date and say so, rather than refuse a planning estimate
 * that names no date. The law for the date actually used is what the result reports.
 */
export function ruleDate(given: string | undefined, now: Date, coverage: Coverage): RuleDate {
  if (given) return { date: given };
  const today = now.toISOString().slice(0, 10);
  if (isCovered(today, coverage)) return { date: today };
  const date = today < coverage.from ? coverage.from : coverage.to;
  return {
    date,
    note: `No date of death was given and today (${today}) is outside the dates the tables cover (${coverage.from} to ${coverage.to}); the rules for a death on ${date} were used.`,
  };
}
