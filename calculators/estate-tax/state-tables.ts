import type { Bands, Schedule, ScheduleRow } from '../schedule.ts';

/**
 * State estate-tax law (resident decedent, all property in the state). One entry per jurisdiction;
 * each version holds the figures in force from its first date of death until the next version's,
 * so a correction or a new version is a one-line change. Where each figure comes from, and how far
 * it is confirmed, lives in `rule-sources.ts`, which only the server loads: the widget bundles
 * these numbers and none of the source text.
 */
export interface StateVersion {
  /** First date of death (ISO) this version applies to. */
  effectiveDate: string;
  /**
   * The amount is re-set every calendar year (indexed to inflation or to the federal exclusion):
   * the version speaks for its own year only, and a later year without a version of its own uses
   * it with a notice that the amount for that year was not confirmed.
   */
  indexed?: true;
}

export interface StateEntry<P> {
  name: string;
  versions: readonly (StateVersion & P)[];
}

const Y2026 = '2026-01-01';

/** Former IRC §2011(b) state death tax credit table; MA and RI apply it to (estate − $60,000). */
export const CREDIT_2011B: Schedule = {
  rows: [
    { floor: 40_000, base: 0, rate: '0.8' },
    { floor: 90_000, base: 400, rate: '1.6' },
    { floor: 140_000, base: 1_200, rate: '2.4' },
    { floor: 240_000, base: 3_600, rate: '3.2' },
    { floor: 440_000, base: 10_000, rate: '4' },
    { floor: 640_000, base: 18_000, rate: '4.8' },
    { floor: 840_000, base: 27_600, rate: '5.6' },
    { floor: 1_040_000, base: 38_800, rate: '6.4' },
    { floor: 1_540_000, base: 70_800, rate: '7.2' },
    { floor: 2_040_000, base: 106_800, rate: '8' },
    { floor: 2_540_000, base: 146_800, rate: '8.8' },
    { floor: 3_040_000, base: 190_800, rate: '9.6' },
    { floor: 3_540_000, base: 238_800, rate: '10.4' },
    { floor: 4_040_000, base: 290_800, rate: '11.2' },
    { floor: 5_040_000, base: 402_800, rate: '12' },
    { floor: 6_040_000, base: 522_800, rate: '12.8' },
    { floor: 7_040_000, base: 650_800, rate: '13.6' },
    { floor: 8_040_000, base: 786_800, rate: '14.4' },
    { floor: 9_040_000, base: 930_800, rate: '15.2' },
    { floor: 10_040_000, base: 1_082_800, rate: '16' },
  ],
};

/** Amount deducted before the §2011(b) table is applied ("adjusted taxable estate"). */
export const CREDIT_TABLE_OFFSET = 60_000;

type Flat = { exemption: number; rate: string };
type Rows = { exemption: number; rows: readonly ScheduleRow[] };

export const CT: StateEntry<Flat & { cap: number }> = {
  name: 'Connecticut',
  versions: [
    // The exemption is the federal basic exclusion of the year; total tax capped at $15M.
    {
      effectiveDate: Y2026,
      indexed: true,
      exemption: 15_000_000,
      rate: '12',
      cap: 15_000_000,
    },
  ],
};

export const DC: StateEntry<{ exemption: number; bands: Bands }> = {
  name: 'District of Columbia',
  versions: [
    {
      effectiveDate: Y2026,
      indexed: true,
      exemption: 4_988_400,
      // Bands on the whole estate; only the part above the exemption is taxed (no cliff).
      bands: [
        [5_000_000, '11.2'],
        [6_000_000, '12'],
        [7_000_000, '12.8'],
        [8_000_000, '13.6'],
        [9_000_000, '14.4'],
        [10_000_000, '15.2'],
        [null, '16'],
      ],
    },
  ],
};

export const HI: StateEntry<Rows> = {
  name: 'Hawaii',
  versions: [
    {
      effectiveDate: Y2026,
      exemption: 5_490_000,
      // On (estate − exemption).
      rows: [
        { floor: 0, base: 0, rate: '10' },
        { floor: 1_000_000, base: 100_000, rate: '11' },
        { floor: 2_000_000, base: 210_000, rate: '12' },
        { floor: 3_000_000, base: 330_000, rate: '13' },
        { floor: 4_000_000, base: 460_000, rate: '14' },
        { floor: 5_000_000, base: 600_000, rate: '15.7' },
        { floor: 10_000_000, base: 1_385_000, rate: '20' },
      ],
    },
  ],
};

export const IL: StateEntry<{ exemption: number }> = {
  name: 'Illinois',
  versions: [{ effectiveDate: Y2026, exemption: 4_000_000 }],
};

/** MA and RI: (§2011(b) table on estate − $60,000) − credit; zero at or below the exemption. */
type CreditTable = { exemption: number; credit: number };

export const MA: StateEntry<CreditTable> = {
  name: 'Massachusetts',
  versions: [
    {
      effectiveDate: Y2026,
      exemption: 2_000_000,
      credit: 99_600,
    },
  ],
};

export const ME: StateEntry<{ exemption: number; bands: Bands }> = {
  name: 'Maine',
  versions: [
    {
      effectiveDate: Y2026,
      indexed: true,
      exemption: 7_160_000,
      // Successive $3M bands over the exemption.
      bands: [
        [3_000_000, '8'],
        [6_000_000, '10'],
        [null, '12'],
      ],
    },
  ],
};

export const MD: StateEntry<Flat> = {
  name: 'Maryland',
  versions: [{ effectiveDate: Y2026, exemption: 5_000_000, rate: '16' }],
};

export const MN: StateEntry<Rows> = {
  name: 'Minnesota',
  versions: [
    {
      effectiveDate: Y2026,
      exemption: 3_000_000,
      // On (estate − exemption).
      rows: [
        { floor: 0, base: 0, rate: '13' },
        { floor: 7_100_000, base: 923_000, rate: '13.6' },
        { floor: 8_100_000, base: 1_059_000, rate: '14.4' },
        { floor: 9_100_000, base: 1_203_000, rate: '15.2' },
        { floor: 10_100_000, base: 1_355_000, rate: '16' },
      ],
    },
  ],
};

export const NY: StateEntry<{ exclusion: number; rows: readonly ScheduleRow[] }> = {
  name: 'New York',
  versions: [
    {
      effectiveDate: Y2026,
      indexed: true,
      exclusion: 7_350_000,
      // §952(b), on the whole estate.
      rows: [
        { floor: 0, base: 0, rate: '3.06' },
        { floor: 500_000, base: 15_300, rate: '5' },
        { floor: 1_000_000, base: 40_300, rate: '5.5' },
        { floor: 1_500_000, base: 67_800, rate: '6.5' },
        { floor: 2_100_000, base: 106_800, rate: '8' },
        { floor: 2_600_000, base: 146_800, rate: '8.8' },
        { floor: 3_100_000, base: 190_800, rate: '9.6' },
        { floor: 3_600_000, base: 238_800, rate: '10.4' },
        { floor: 4_100_000, base: 290_800, rate: '11.2' },
        { floor: 5_100_000, base: 402_800, rate: '12' },
        { floor: 6_100_000, base: 522_800, rate: '12.8' },
        { floor: 7_100_000, base: 650_800, rate: '13.6' },
        { floor: 8_100_000, base: 786_800, rate: '14.4' },
        { floor: 9_100_000, base: 930_800, rate: '15.2' },
        { floor: 10_100_000, base: 1_082_800, rate: '16' },
      ],
    },
  ],
};

export const OR: StateEntry<{ rows: readonly ScheduleRow[] }> = {
  name: 'Oregon',
  versions: [
    {
      effectiveDate: Y2026,
      // On the whole estate; base 0 at the $1M exemption, so no cliff.
      rows: [
        { floor: 1_000_000, base: 0, rate: '10' },
        { floor: 1_500_000, base: 50_000, rate: '10.25' },
        { floor: 2_500_000, base: 152_500, rate: '10.5' },
        { floor: 3_500_000, base: 257_500, rate: '11' },
        { floor: 4_500_000, base: 367_500, rate: '11.5' },
        { floor: 5_500_000, base: 482_500, rate: '12' },
        { floor: 6_500_000, base: 602_500, rate: '13' },
        { floor: 7_500_000, base: 732_500, rate: '14' },
        { floor: 8_500_000, base: 872_500, rate: '15' },
        { floor: 9_500_000, base: 1_022_500, rate: '16' },
      ],
    },
  ],
};

export const RI: StateEntry<CreditTable> = {
  name: 'Rhode Island',
  versions: [
    {
      effectiveDate: Y2026,
      indexed: true,
      exemption: 1_838_056,
      credit: 87_940,
    },
  ],
};

export const VT: StateEntry<Flat> = {
  name: 'Vermont',
  versions: [{ effectiveDate: Y2026, exemption: 5_000_000, rate: '16' }],
};

export const WA: StateEntry<Rows> = {
  name: 'Washington',
  versions: [
    {
      // The 10–35 % table (from 1 July 2025) with the exclusion of the first half of 2026.
      effectiveDate: Y2026,
      exemption: 3_076_000,
      // On (estate − exemption).
      rows: [
        { floor: 0, base: 0, rate: '10' },
        { floor: 1_000_000, base: 100_000, rate: '15' },
        { floor: 2_000_000, base: 250_000, rate: '17' },
        { floor: 3_000_000, base: 420_000, rate: '19' },
        { floor: 4_000_000, base: 610_000, rate: '23' },
        { floor: 6_000_000, base: 1_070_000, rate: '26' },
        { floor: 7_000_000, base: 1_330_000, rate: '30' },
        { floor: 9_000_000, base: 1_930_000, rate: '35' },
      ],
    },
    {
      // The 2026 session (ESB 6347): a $3,000,000 exclusion and the 10–20 % table that applied
      // before July 2025. The statute names an annual adjustment from 2027, so a 2027 death is told
      // that its amount was not confirmed (see rule-sources.ts for why it may stay frozen).
      effectiveDate: '2026-07-01',
      indexed: true,
      exemption: 3_000_000,
      rows: [
        { floor: 0, base: 0, rate: '10' },
        { floor: 1_000_000, base: 100_000, rate: '14' },
        { floor: 2_000_000, base: 240_000, rate: '15' },
        { floor: 3_000_000, base: 390_000, rate: '16' },
        { floor: 4_000_000, base: 550_000, rate: '18' },
        { floor: 6_000_000, base: 910_000, rate: '19' },
        { floor: 7_000_000, base: 1_100_000, rate: '19.5' },
        { floor: 9_000_000, base: 1_490_000, rate: '20' },
      ],
    },
  ],
};

/** The version in force on a date of death: the latest whose effective date is not after it. */
export function inForce<P>(entry: StateEntry<P>, date: string): StateVersion & P {
  // ISO dates sort by code unit; a locale collator would cost the widget page its first milliseconds.
  const sorted = [...entry.versions].sort((a, b) =>
    a.effectiveDate < b.effectiveDate ? -1 : a.effectiveDate > b.effectiveDate ? 1 : 0,
  );
  return sorted.filter((v) => v.effectiveDate <= date).at(-1) ?? sorted[0]!;
}

/** Every jurisdiction's table, by two-letter code. */
export const STATE_TABLES: Readonly<Record<string, StateEntry<object>>> = {
  CT,
  DC,
  HI,
  IL,
  MA,
  ME,
  MD,
  MN,
  NY,
  OR,
  RI,
  VT,
  WA,
};
