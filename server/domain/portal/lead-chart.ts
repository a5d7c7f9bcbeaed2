import { liveLeadsByDay } from '../../db/repos/lead-search-repo.ts';
import type { PortalPrincipal } from '../accounts/portal-deps.ts';
import type { PortalAppDeps } from './deps.ts';

const DAY_MS = 86_400_000;
/** The chart covers this many days, today included. */
const CHART_DAYS = 90;

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

/**
 * Live leads per week (Monday to Sunday, UTC) and calculator over the last 90 days, today
 * included, read from the daily counters that the lead triggers keep exact (so the cost is one
 * row per day and calculator, however many leads there are). Test-mode and quarantined leads are
 * not counted: they are not part of the firm's pipeline. The first and last weeks may be partial.
 */
export async function leadsPerWeek(deps: PortalAppDeps, principal: PortalPrincipal) {
  const today = dayOf(deps.clock.now());
  const first = dayOf(new Date(new Date(`${today}T00:00:00Z`).getTime() - (CHART_DAYS - 1) * DAY_MS));
  const rows = await liveLeadsByDay(deps.db, principal.accountId, first);
  const weeks: LeadWeek[] = [];
  for (let start = first; start <= today; ) {
    const sunday = dayOf(new Date(new Date(`${weekStart(start)}T00:00:00Z`).getTime() + 6 * DAY_MS));
    const to = sunday < today ? sunday : today;
    weeks.push({ from: start, to, counts: {}, total: 0 });
    start = dayOf(new Date(new Date(`${to}T00:00:00Z`).getTime() + DAY_MS));
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
  return { from: first, to: today, calculators, weeks };
}
