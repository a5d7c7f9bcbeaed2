import { type Bands, ladder, type Schedule, type ScheduleRow } from '../schedule.ts';
import { BASIC_EXCLUSION } from './federal-tables.ts';

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
  rows: ladder(
    '40 0.8 90 1.6 140 2.4 240 3.2 440 4 640 4.8 840 5.6 1040 6.4 1540 7.2 2040 8 2540 8.8 3040 9.6 3540 10.4 4040 11.2 5040 12 6040 12.8 7040 13.6 8040 14.4 9040 15.2 10040 16',
  ),
};

/** Amount deducted before the §2011(b) table is applied ("adjusted taxable estate"). */
export const CREDIT_TABLE_OFFSET = 60_000;

type Flat = { exemption: number; rate: string };
type Rows = { exemption: number; rows: readonly ScheduleRow[] };

/**
 * Connecticut's exemption is the federal basic exclusion amount of the year (CGS §12-391), so its
 * versions are made from the federal table, never typed: a federal amount added for a year gives
 * Connecticut the same amount from the same day. 12 % on the excess; total tax capped at $15M.
 */
export const connecticutVersions = (
  federal: readonly { effectiveDate: string; amount: number }[],
): (StateVersion & Flat & { cap: number })[] =>
  federal.map((b) => ({
    effectiveDate: b.effectiveDate,
    indexed: true,
    exemption: b.amount,
    rate: '12',
    cap: 15_000_000,
  }));

export const CT: StateEntry<Flat & { cap: number }> = {
  name: 'Connecticut',
  versions: connecticutVersions(BASIC_EXCLUSION),
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
      rows: ladder('0 10 1000 11 2000 12 3000 13 4000 14 5000 15.7 10000 20'),
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
      rows: ladder('0 13 7100 13.6 8100 14.4 9100 15.2 10100 16'),
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
      rows: ladder(
        '0 3.06 500 5 1000 5.5 1500 6.5 2100 8 2600 8.8 3100 9.6 3600 10.4 4100 11.2 5100 12 6100 12.8 7100 13.6 8100 14.4 9100 15.2 10100 16',
      ),
    },
  ],
};

export const OR: StateEntry<{ rows: readonly ScheduleRow[] }> = {
  name: 'Oregon',
  versions: [
    {
      effectiveDate: Y2026,
      // On the whole estate; base 0 at the $1M exemption, so no cliff.
      rows: ladder('1000 10 1500 10.25 2500 10.5 3500 11 4500 11.5 5500 12 6500 13 7500 14 8500 15 9500 16'),
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

/** RCW 83.100.040's 10–20 % table, restored from 1 July 2026 (on estate − exemption). */
const WA_2026_ROWS = ladder('0 10 1000 14 2000 15 3000 16 4000 18 6000 19 7000 19.5 9000 20');

export const WA: StateEntry<Rows> = {
  name: 'Washington',
  versions: [
    {
      // The 10–35 % table (from 1 July 2025) with the exclusion of the first half of 2026.
      effectiveDate: Y2026,
      exemption: 3_076_000,
      // On (estate − exemption).
      rows: ladder('0 10 1000 15 2000 17 3000 19 4000 23 6000 26 7000 30 9000 35'),
    },
    {
      // The 2026 session (ESB 6347): a $3,000,000 exclusion and the 10–20 % table that applied
      // before July 2025.
      effectiveDate: '2026-07-01',
      exemption: 3_000_000,
      rows: WA_2026_ROWS,
    },
    {
      // The statute adjusts the $3,000,000 from 2027 by a consumer price index the Bureau of
      // Labor Statistics no longer publishes, so it stays at $3,000,000 until the legislature or
      // the Department says otherwise (rule-sources.ts says why and on what sources). Not indexed:
      // a 2028 death uses it too, and the coverage check asks for it to be confirmed each year.
      effectiveDate: '2027-01-01',
      exemption: 3_000_000,
      rows: WA_2026_ROWS,
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
