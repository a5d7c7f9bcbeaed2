import { getCalculator } from '../../../calculators/index.ts';
import type { DirectoryStats } from '../../contracts/stats.ts';
import { countLiveLeads, leadWindowBreakdown } from '../../db/repos/lead-search-repo.ts';
import type { LeadStatus } from '../../db/repos/leads-repo.ts';
import type { QueryDeps } from './lead-query.ts';

const DAY_MS = 86_400_000;
const TOP_CALCULATORS = 10;

export type { DirectoryStats };

/**
 * Lead statistics of one firm over the last `windowDays` days (ending now), live data only (test
 * mode and quarantined leads are left out). Counts are exact; `byStatus` and `topCalculators`
 * describe the window.
 */
export async function directoryStats(
  deps: QueryDeps,
  accountId: string,
  windowDays: number,
  /** A calendar month instead (`[start, end)`, UTC): `windowDays` is then its length in days. */
  month?: { start: Date; end: Date },
): Promise<DirectoryStats> {
  const end = month ? month.end : deps.clock.now();
  const start = month ? month.start : new Date(end.getTime() - windowDays * DAY_MS);
  // A rolling window's upper bound is inclusive of "now": a lead stored this millisecond counts.
  const until = month ? month.end : new Date(end.getTime() + 1);
  const [total, breakdown] = await Promise.all([
    countLiveLeads(deps.db, accountId),
    leadWindowBreakdown(deps.db, accountId, start, until),
  ]);
  const byStatus: Record<LeadStatus, number> = { new: 0, contacted: 0, converted: 0, lost: 0 };
  const byCalculator = new Map<string, number>();
  let inWindow = 0;
  for (const row of breakdown) {
    const n = Number(row.n);
    if (n === 0) continue; // a counter that went back to zero
    inWindow += n;
    if (row.status in byStatus) byStatus[row.status as LeadStatus] += n;
    byCalculator.set(row.calculator, (byCalculator.get(row.calculator) ?? 0) + n);
  }
  const topCalculators = [...byCalculator]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, TOP_CALCULATORS)
    .map(([slug, count]) => ({ slug, name: getCalculator(slug)?.name ?? slug, count }));
  return {
    windowDays,
    windowStart: start.toISOString(),
    windowEnd: end.toISOString(),
    totalLeadsAllTime: Number(total),
    leadsInWindow: inWindow,
    byStatus,
    topCalculators,
  };
}
