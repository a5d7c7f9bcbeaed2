/**
 * The zod-free facts the schemas (fields.ts) and the browser share: amount ceiling, state codes,
 * date coverage. The widget validates with these without shipping zod.
 */

/** The largest amount any calculator accepts ($1 trillion): beyond any real estate, within exact doubles. */
export const MAX_DOLLARS = 1_000_000_000_000;

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

/** The dates of death (inclusive ISO dates) that a calculator's law tables cover. */
export interface Coverage {
  from: string;
  to: string;
}

export const isCovered = (date: string, coverage: Coverage): boolean =>
  date >= coverage.from && date <= coverage.to;
