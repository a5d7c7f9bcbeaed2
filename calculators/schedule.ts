import { applyRate, dollars, type Micro, ppm } from './money.ts';

/**
 * A rate schedule: rows `floor : base : rate`, meaning T(x) = base + rate × (x − floor) for the
 * highest floor not above x (the form of every table in the law reference).
 */
export interface ScheduleRow {
  floor: number;
  base: number;
  rate: string;
}

export interface Schedule {
  rows: readonly ScheduleRow[];
  /** Where the figures come from and whether a second source confirms them. */
  source: string;
  verified: boolean;
}

export function evaluate(schedule: Schedule, amount: Micro): Micro {
  if (amount <= 0n) return 0n;
  let row = schedule.rows[0]!;
  for (const candidate of schedule.rows) {
    if (dollars(candidate.floor) <= amount) row = candidate;
  }
  if (dollars(row.floor) > amount) return 0n;
  return dollars(row.base) + applyRate(amount - dollars(row.floor), ppm(row.rate));
}

/** Marginal bands over a base amount: `[[upTo, rate], ..., [null, rate]]` applied to `amount`. */
export function bands(amount: Micro, table: readonly (readonly [number | null, string])[]): Micro {
  let tax = 0n;
  let lower = 0n;
  for (const [upTo, rate] of table) {
    const upper = upTo === null ? amount : dollars(upTo);
    if (amount > lower) {
      const slice = (amount < upper ? amount : upper) - lower;
      tax += applyRate(slice, ppm(rate));
    }
    if (upTo === null || amount <= upper) break;
    lower = upper;
  }
  return tax;
}
