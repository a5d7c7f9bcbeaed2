import { liveLeadsByDay } from '../../db/repos/lead-search-repo.ts';
import { AppError } from '../../lib/errors.ts';
import type { PortalPrincipal } from '../accounts/portal-deps.ts';
import { countLeadsByDay } from '../leads/lead-query.ts';
import type { PortalAppDeps } from './deps.ts';
import type { FirmLeadFilter } from './firm-leads.ts';

const DAY_MS = 86_400_000;
/** The chart covers this many days, today included, unless the filters name a period. */
const CHART_DAYS = 90;
/** The longest period the chart draws (53 weeks); an earlier start is drawn from there. */
const MAX_DAYS = 371;

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** The Monday (UTC) of the week holding `day`. */
function weekStart(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  return dayOf(new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * DAY_MS));
}

interface LeadWeek {
  /** The week's first day in the window (a Monday, or the window's first day). */
  from: string;
  /** The week's last day in the window (a Sunday, or today). */
  to: string;
  /** Live leads per calculator slug; calculators without leads that week are absent. */
  counts: Record<string, number>;
  total: number;
}

const addDays = (day: string, n: number) =>
  dayOf(new Date(new Date(`${day}T00:00:00Z`).getTime() + n * DAY_MS));

function validDay(day: string, path: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || dayOf(d) !== day)
    throw new AppError('INVALID_REQUEST', `${path} must be a calendar day like 2026-05-31 (UTC).`);
  return day;
}

/** The filters that narrow the chart (the order of the list, `sort`, does not). */
const narrows = (f: FirmLeadFilter) =>
  Boolean(
    f.status ||
      f.calculator ||
      f.state ||
      f.language ||
      f.from ||
      f.to ||
      f.month ||
      f.q ||
      f.includeTest ||
      (f.quarantined && f.quarantined !== 'exclude'),
  );

/** The days the chart covers: the filter's month or from/to (to inclusive), else the last 90 days. */
function periodOf(today: string, f: FirmLeadFilter): { first: string; last: string } {
  if (f.month) {
    const first = validDay(`${f.month}-01`, 'month');
    const end = addDays(
      dayOf(new Date(Date.UTC(Number(f.month.slice(0, 4)), Number(f.month.slice(5, 7)), 1))),
      -1,
    );
    return { first, last: first <= today && end > today ? today : end };
  }
  const last = f.to ? validDay(f.to, 'to') : today;
  const first = f.from ? validDay(f.from, 'from') : addDays(last, -(CHART_DAYS - 1));
  if (first > last) throw new AppError('INVALID_REQUEST', 'from must be on or before to.');
  return { first: first < addDays(last, -(MAX_DAYS - 1)) ? addDays(last, -(MAX_DAYS - 1)) : first, last };
}

/**
 * Leads per week (Monday to Sunday, UTC) and calculator. Without filters: live leads over the last
 * 90 days, today included, read from the daily counters that the lead triggers keep exact (one row
 * per day and calculator, however many leads there are); test-mode and quarantined leads are not
 * part of the firm's pipeline. With the Leads list's filters (the same object the list reads):
 * the leads the list would show, over the filter's period (its month, or from/to; at most 53
 * weeks), counted by the lead query the list uses. The first and last weeks may be partial.
 */
export async function leadsPerWeek(
  deps: PortalAppDeps,
  principal: PortalPrincipal,
  filter: FirmLeadFilter = {},
) {
  const today = dayOf(deps.clock.now());
  const filtered = narrows(filter);
  const { first, last } = filtered
    ? periodOf(today, filter)
    : { first: addDays(today, -(CHART_DAYS - 1)), last: today };
  const rows = filtered
    ? await countLeadsByDay(deps.queries, principal.accountId, {
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.calculator ? { calculator: filter.calculator } : {}),
        ...(filter.state ? { state: filter.state } : {}),
        ...(filter.language ? { language: filter.language } : {}),
        ...(filter.q ? { q: filter.q } : {}),
        includeTest: filter.includeTest ?? false,
        quarantined: filter.quarantined ?? 'exclude',
        createdFrom: first,
        createdTo: addDays(last, 1),
      })
    : await liveLeadsByDay(deps.db, principal.accountId, first);
  const weeks: LeadWeek[] = [];
  for (let start = first; start <= last; ) {
    const sunday = addDays(weekStart(start), 6);
    const to = sunday < last ? sunday : last;
    weeks.push({ from: start, to, counts: {}, total: 0 });
    start = addDays(to, 1);
  }
  const totals = new Map<string, number>();
  for (const row of rows) {
    const week = weeks.find((w) => row.day >= w.from && row.day <= w.to);
    if (!week || row.n === 0) continue;
    week.counts[row.calculator] = (week.counts[row.calculator] ?? 0) + row.n;
    week.total += row.n;
    totals.set(row.calculator, (totals.get(row.calculator) ?? 0) + row.n);
  }
  // Calculators by their share of the period, largest first (the chart's stacking order).
  const calculators = [...totals.entries()]
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([slug]) => slug);
  return { from: first, to: last, filtered, calculators, weeks };
}
