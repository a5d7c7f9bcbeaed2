import { getCalculator } from '../../../calculators/index.ts';
import type { Funnel, FunnelStages } from '../../contracts/funnel.ts';
import type { Db } from '../../db/engine/database.ts';
import { funnelDays, funnelSums } from '../../db/repos/funnel-repo.ts';
import { AppError } from '../../lib/errors.ts';
import type { FunnelCounter } from './counter.ts';
import { OTHER_PAGES } from './pages.ts';

export interface FunnelDeps {
  db: Db;
  /** This instance's counter: flushed before a read, so what it counted is in the answer. */
  funnel?: FunnelCounter;
}

/** A period of whole UTC days, both ends included (YYYY-MM-DD). */
export interface FunnelPeriod {
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;
const MAX_DAYS = 366;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (day: string, n: number) => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));

/**
 * The period a request names: a `month` (YYYY-MM), or `createdFrom` (inclusive) / `createdTo`
 * (exclusive), dates or date-times, widened to whole UTC days; by default the last 30 days ending
 * today (UTC). `createdFrom=2026-03-01&createdTo=2026-04-01` is March, as in the lead list.
 */
export function funnelPeriod(
  now: Date,
  q: { month?: string | undefined; createdFrom?: string | undefined; createdTo?: string | undefined },
): FunnelPeriod {
  const bad = (message: string) => new AppError('INVALID_REQUEST', message);
  if (q.month !== undefined) {
    if (q.createdFrom !== undefined || q.createdTo !== undefined)
      throw bad('Give either month or createdFrom/createdTo, not both.');
    const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(q.month);
    if (!m) throw bad('month must be YYYY-MM.');
    const from = `${q.month}-01`;
    const next = new Date(Date.UTC(Number(m[1]), Number(m[2]), 1));
    return { from, to: dayOf(new Date(next.getTime() - DAY_MS)) };
  }
  const time = (value: string, name: string) => {
    const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
    if (Number.isNaN(t)) throw bad(`${name} must be a date (YYYY-MM-DD) or an ISO 8601 date-time.`);
    return t;
  };
  // As the lead list reads them: createdFrom inclusive, createdTo exclusive; counted in whole UTC days.
  const to = q.createdTo !== undefined ? dayOf(new Date(time(q.createdTo, 'createdTo') - 1)) : dayOf(now);
  const from =
    q.createdFrom !== undefined ? dayOf(new Date(time(q.createdFrom, 'createdFrom'))) : addDays(to, -29);
  if (from > to) throw bad('createdFrom is after createdTo.');
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > MAX_DAYS)
    throw bad(`A funnel period is at most ${MAX_DAYS} days.`);
  return { from, to };
}

/** The period of the same length just before `period` (the portal's comparison). */
export function periodBefore(period: FunnelPeriod): FunnelPeriod {
  const days = (Date.parse(period.to) - Date.parse(period.from)) / DAY_MS + 1;
  return { from: addDays(period.from, -days), to: addDays(period.from, -1) };
}

const zero = (): FunnelStages => ({
  views: 0,
  calculations: 0,
  leads: 0,
  heldLeads: 0,
  contacted: 0,
  converted: 0,
  lost: 0,
});

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 10_000) / 10_000 : null);
const withRates = <T extends FunnelStages>(s: T) => ({
  ...s,
  calculationRate: ratio(s.calculations, s.views),
  leadRate: ratio(s.leads, s.calculations),
  conversionRate: ratio(s.converted, s.leads),
});

/**
 * A firm's funnel over whole UTC days, all read from the daily counters: views, calculations and
 * leads (live traffic; test traffic apart), and — for the leads created in the period — how many
 * were contacted (any status past `new`), converted and lost, as they stand now (kept by triggers
 * on leads, migration 0028). By calculator and by page, busiest first.
 */
export async function funnelReport(
  deps: FunnelDeps,
  accountId: string,
  period: FunnelPeriod,
): Promise<Funnel> {
  await deps.funnel?.flush().catch(() => {});
  const sums = await funnelSums(deps.db, accountId, period.from, period.to);
  const totals = zero();
  const test = { views: 0, calculations: 0, leads: 0 };
  const byCalculator = new Map<string, FunnelStages>();
  const byPage = new Map<string, FunnelStages>();
  const at = <K>(map: Map<K, FunnelStages>, key: K) => {
    const s = map.get(key) ?? zero();
    map.set(key, s);
    return s;
  };
  for (const row of sums) {
    if (row.test) {
      test.views += row.views;
      test.calculations += row.calculations;
      test.leads += row.leads;
      continue;
    }
    // Rows that carry only outcomes (their lead counted elsewhere) add no page of their own here.
    if (row.views + row.calculations + row.leads + row.heldLeads === 0) continue;
    for (const s of [totals, at(byCalculator, row.calculator), at(byPage, row.page)]) {
      s.views += row.views;
      s.calculations += row.calculations;
      s.leads += row.leads;
      s.heldLeads += row.heldLeads;
    }
  }
  for (const row of sums) {
    if (row.test || row.contacted + row.converted + row.lost === 0) continue;
    let page = row.page;
    // A lead the counters put under "other pages" (past the day's cap) is found there.
    if (page && !byPage.has(page) && byPage.has(OTHER_PAGES)) page = OTHER_PAGES;
    for (const s of [totals, at(byCalculator, row.calculator), at(byPage, page)]) {
      s.contacted += row.contacted;
      s.converted += row.converted;
      s.lost += row.lost;
    }
  }
  const busiest = (a: FunnelStages, b: FunnelStages) => b.views - a.views || b.leads - a.leads;
  return {
    from: period.from,
    to: period.to,
    totals: withRates(totals),
    byCalculator: [...byCalculator]
      .sort(([x, a], [y, b]) => busiest(a, b) || (x < y ? -1 : 1))
      .map(([calculator, s]) => ({
        calculator,
        name: getCalculator(calculator)?.name ?? calculator,
        ...withRates(s),
      })),
    byPage: [...byPage]
      .sort(([x, a], [y, b]) => busiest(a, b) || (x < y ? -1 : 1))
      .map(([page, s]) => ({ page, ...withRates(s) })),
    test,
  };
}

/** The portal's chart: live views, calculations and leads per UTC day, every day of the period present. */
export async function funnelSeries(deps: FunnelDeps, accountId: string, period: FunnelPeriod) {
  await deps.funnel?.flush().catch(() => {});
  const rows = new Map((await funnelDays(deps.db, accountId, period.from, period.to)).map((r) => [r.day, r]));
  const days: { day: string; views: number; calculations: number; leads: number }[] = [];
  for (let d = period.from; d <= period.to; d = addDays(d, 1))
    days.push(rows.get(d) ?? { day: d, views: 0, calculations: 0, leads: 0 });
  return days;
}
