import { z } from 'zod';

export const MAX_DOLLARS = 1_000_000_000_000;

/** A dollar amount: a finite number ≥ 0 with at most two decimals. */
export const money = (label: string, options: { default?: number; description?: string } = {}) => {
  const base = z
    .number({ error: `${label} must be a number` })
    .finite()
    .min(0, `${label} cannot be negative`)
    .max(MAX_DOLLARS, `${label} is too large`)
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, `${label} may have at most two decimals`)
    .meta({ label, unit: 'USD', ...(options.description ? { description: options.description } : {}) });
  return options.default === undefined ? base : base.default(options.default);
};

export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
] as const;

export const usState = (label = 'State') =>
  z.enum(US_STATES, { error: 'Expected a two-letter US state code such as NY' }).meta({ label });

/** ISO date (YYYY-MM-DD) within the years our tables cover. */
export const dateIn = (label: string, years: readonly number[]) =>
  z.iso
    .date({ error: `${label} must be a date (YYYY-MM-DD)` })
    .refine(
      (d) => years.includes(Number(d.slice(0, 4))),
      `${label} must fall in ${years.join(', ')}: the tables cover only those years`,
    )
    .meta({ label });
