import { applyRate, dollars, type Micro, ppm, toDollars } from './money.ts';

/**
 * A rate schedule: rows `floor : base : rate`, meaning T(x) = base + rate × (x − floor) for the
 * highest floor not above x (the form of every table in the law reference); 0 below the first floor.
 */
export interface ScheduleRow {
  floor: number;
  base: number;
  /** Percent, as text so that it converts to parts-per-million exactly. */
  rate: string;
}

export interface Schedule {
  rows: readonly ScheduleRow[];
}

export function evaluate(schedule: { rows: readonly ScheduleRow[] }, amount: Micro): Micro {
  let row: ScheduleRow | undefined;
  for (const candidate of schedule.rows) {
    if (dollars(candidate.floor) <= amount) row = candidate;
  }
  if (!row || amount <= 0n) return 0n;
  return dollars(row.base) + applyRate(amount - dollars(row.floor), ppm(row.rate));
}

/**
 * A schedule written compactly, as `"floor rate floor rate …"` with floors in thousands of dollars,
 * so the widget page ships the law's figures and not a row object per bracket. Each row's base is
 * the tax at its floor by the row below (0 for the first), which is how the law's tables are built;
 * tables.test.ts holds the published figures and checks every decoded row against them.
 */
export function ladder(text: string): ScheduleRow[] {
  const rows: ScheduleRow[] = [];
  const parts = text.split(' ');
  for (let i = 0; i < parts.length; i += 2) {
    const floor = +parts[i]! * 1_000;
    const below = rows[rows.length - 1];
    rows.push({
      floor,
      base: below ? toDollars(evaluate({ rows: [below] }, dollars(floor))) : 0,
      rate: parts[i + 1]!,
    });
  }
  return rows;
}

/** Marginal bands: `[[upTo, rate], ..., [null, rate]]`, each rate on the slice of `amount` below `upTo`. */
export type Bands = readonly (readonly [number | null, string])[];

export function bands(amount: Micro, table: Bands): Micro {
  let tax = 0n;
  let lower = 0n;
  for (const [upTo, rate] of table) {
    const upper = upTo === null ? amount : dollars(upTo);
    if (amount > lower) tax += applyRate((amount < upper ? amount : upper) - lower, ppm(rate));
    if (upTo === null || amount <= upper) break;
    lower = upper;
  }
  return tax;
}
