import { z } from 'zod';
import { type Coverage, isCovered, MAX_DOLLARS, US_STATES } from './limits.ts';
import { hasAtMostTwoDecimals } from './money.ts';

export { type Coverage, US_STATES } from './limits.ts';

/**
 * A dollar amount: a number ≥ 0, at most MAX_DOLLARS, with at most two decimals. zod 4 already
 * refuses NaN and ±Infinity. `unit: 'USD'` is what the widget reads to render a money control.
 */
export const money = (label: string, options: { default?: number; description?: string } = {}) => {
  const base = z
    .number({ error: `${label} must be a number` })
    .min(0, `${label} cannot be negative`)
    .max(MAX_DOLLARS, `${label} cannot exceed $1,000,000,000,000`)
    .refine(hasAtMostTwoDecimals, `${label} may have at most two decimals (cents)`)
    .meta({
      label,
      unit: 'USD',
      decimals: 2,
      ...(options.description ? { description: options.description } : {}),
    });
  return options.default === undefined ? base : base.default(options.default);
};

export const usState = (label = 'State') =>
  z.enum(US_STATES, { error: 'Expected a two-letter US state code such as NY' }).meta({ label });

/** An ISO calendar date (YYYY-MM-DD, a real day) inside the coverage of the tables. */
export const dateIn = (label: string, coverage: Coverage) =>
  z.iso
    .date({ error: `${label} must be a date (YYYY-MM-DD)`, abort: true })
    .refine(
      (d) => isCovered(d, coverage),
      `${label} must be between ${coverage.from} and ${coverage.to}: the tables cover only those dates`,
    )
    // formatMinimum/formatMaximum: the JSON Schema keywords for date bounds (ajv-formats).
    .meta({ label, formatMinimum: coverage.from, formatMaximum: coverage.to });
