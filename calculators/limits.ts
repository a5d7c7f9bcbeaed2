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

export type UsState = (typeof US_STATES)[number];

/**
 * The one table of state names, for the widget's selects and sentences and the PDF report.
 * US_STATES is in the order of these names, so a select lists them alphabetically as is.
 */
export const US_STATE_NAMES: Readonly<Record<UsState, string>> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
};

/** "New York" for "NY"; anything that is not a state code comes back as given. */
export const stateName = (code: unknown): string =>
  Object.hasOwn(US_STATE_NAMES, String(code)) ? US_STATE_NAMES[code as UsState] : String(code ?? '');

/** The dates of death (inclusive ISO dates) that a calculator's law tables cover. */
export interface Coverage {
  from: string;
  to: string;
}

export const isCovered = (date: string, coverage: Coverage): boolean =>
  date >= coverage.from && date <= coverage.to;
