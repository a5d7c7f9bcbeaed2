import type { Coverage } from '../limits.ts';
import { BASIC_EXCLUSION } from './federal-tables.ts';
import { COVERAGE } from './labels.ts';
import { PENDING } from './rule-sources.ts';
import { STATE_TABLES } from './state-tables.ts';

/** Fewer days of rule coverage than this, and `npm test` fails: a missing year is found in November. */
export const MIN_COVERAGE_DAYS = 45;

export interface CoverageReport {
  ok: boolean;
  daysLeft: number;
  /** The figures to add for the first year past the coverage. */
  toAdd: string[];
  /** Figures inside the coverage still "not published" (a death then uses the latest amount). */
  notPublished: string[];
  message: string;
}

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** The indexed figures (re-set every year) by name, and the jurisdictions whose amounts are fixed. */
function figuresOfYear(year: number): { indexed: string[]; fixed: string[] } {
  const indexed = BASIC_EXCLUSION.some((v) => v.indexed)
    ? [`Federal basic exclusion amount for ${year}`]
    : [];
  const fixed: string[] = [];
  for (const entry of Object.values(STATE_TABLES)) {
    const latest = [...entry.versions].sort((a, b) => (a.effectiveDate < b.effectiveDate ? -1 : 1)).at(-1);
    if (latest?.indexed) indexed.push(`${entry.name} exemption for ${year}`);
    else fixed.push(entry.name);
  }
  return { indexed, fixed };
}

/**
 * How many days of dates of death the tables still cover after `today`, and, when fewer than
 * MIN_COVERAGE_DAYS remain, which figures to add: every indexed amount for the next year, and a
 * check that the fixed amounts still stand. Amounts still unconfirmed inside the coverage (a year
 * that uses the latest confirmed amount with a notice) are named too.
 */
export function coverageCheck(today: string, coverage: Coverage = COVERAGE): CoverageReport {
  const daysLeft = daysBetween(today, coverage.to);
  const next = Number(coverage.to.slice(0, 4)) + 1;
  const { indexed, fixed } = figuresOfYear(next);
  const pending = PENDING.filter((p) => `${p.year}-12-31` >= today).map(
    (p) =>
      `${p.code === 'US' ? 'Federal' : (STATE_TABLES[p.code]?.name ?? p.code)} ${p.figure.toLowerCase()}`,
  );
  const ok = daysLeft >= MIN_COVERAGE_DAYS;
  const stillPending = pending.length
    ? [`Still not published: ${pending.join('; ')}.`]
    : ['Every figure inside the coverage is published.'];
  const message = ok
    ? [
        `Estate-tax rules cover dates of death to ${coverage.to}: ${daysLeft} days after ${today}.`,
        ...stillPending,
      ].join('\n')
    : [
        `Estate-tax rules cover dates of death only to ${coverage.to}: ${daysLeft} days after ${today}, fewer than ${MIN_COVERAGE_DAYS}.`,
        `Add the ${next} figures: ${indexed.join('; ')}.`,
        `Confirm that the fixed amounts still apply in ${next} (${fixed.join(', ')}), record every source in calculators/estate-tax/rule-sources.ts, then extend COVERAGE.to in calculators/estate-tax/labels.ts.`,
        ...stillPending,
      ].join('\n');
  return { ok, daysLeft, toAdd: ok ? [] : indexed, notPublished: pending, message };
}
