/**
 * The zod-free facts the schemas (fields.ts) and the browser share: amount ceiling, state codes,
 * date coverage. The widget validates with these without shipping zod.
 */

/** The largest amount any calculator accepts ($1 trillion): beyond any real estate, within exact doubles. */
export const MAX_DOLLARS = 1_000_000_000_000;

/**
 * The one table of state names, for the widget's selects and sentences and the PDF report. Its
 * keys, in this order (alphabetical by name), are the state codes: US_STATES below, so the codes
 * are written once.
 */
const NAMES = {
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
} as const;

export type UsState = keyof typeof NAMES;

export const US_STATE_NAMES: Readonly<Record<UsState, string>> = NAMES;

/** The two-letter codes, in the order of their names (a select lists them alphabetically as is). */
export const US_STATES = Object.keys(NAMES) as [UsState, ...UsState[]];

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
