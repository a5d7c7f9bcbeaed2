import type { Schedule } from '../schedule.ts';

/**
 * State estate-tax tables (calculator law reference, 2026). One entry per jurisdiction with its
 * source and whether a second source confirms it, so a correction is a one-line change.
 */
export const CREDIT_2011B: Schedule = {
  source: 'Former IRC §2011(b) state death tax credit table (used by MA and RI on estate − $60,000)',
  verified: true,
  rows: [
    { floor: 0, base: 0, rate: '0' },
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

export const NY_952B: Schedule = {
  source: 'N.Y. Tax Law §952(b) (whole estate)',
  verified: true,
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
};

export const OREGON: Schedule = {
  source: 'ORS 118.010 (whole estate)',
  verified: true,
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
};

export const MINNESOTA: Schedule = {
  source: 'Minn. Stat. §291.03 (on estate − $3,000,000)',
  verified: true,
  rows: [
    { floor: 0, base: 0, rate: '13' },
    { floor: 7_100_000, base: 923_000, rate: '13.6' },
    { floor: 8_100_000, base: 1_059_000, rate: '14.4' },
    { floor: 9_100_000, base: 1_203_000, rate: '15.2' },
    { floor: 10_100_000, base: 1_355_000, rate: '16' },
  ],
};

export const HAWAII: Schedule = {
  source: 'HRS §236E-8 (on estate − exclusion)',
  verified: true,
  rows: [
    { floor: 0, base: 0, rate: '10' },
    { floor: 1_000_000, base: 100_000, rate: '11' },
    { floor: 2_000_000, base: 210_000, rate: '12' },
    { floor: 3_000_000, base: 330_000, rate: '13' },
    { floor: 4_000_000, base: 460_000, rate: '14' },
    { floor: 5_000_000, base: 600_000, rate: '15.7' },
    { floor: 10_000_000, base: 1_385_000, rate: '20' },
  ],
};

/** Washington tables keyed by the first date of death they apply to (ESSB 5813 from 2025-07-01). */
export const WASHINGTON: readonly { from: string; exclusion: number; schedule: Schedule }[] = [
  {
    from: '2025-07-01',
    exclusion: 3_076_000,
    schedule: {
      source: 'RCW 83.100.040 as amended by ESSB 5813 (on estate − exclusion); exclusion [unverified]',
      verified: false,
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
  },
];

/** Exemptions and flat parameters, one line each. */
export const STATE_PARAMETERS = {
  CT: {
    exemption: 15_000_000,
    rate: '12',
    cap: 15_000_000,
    source: 'CGS §12-391 (tied to federal BEA)',
    verified: true,
  },
  DC: {
    exemption: 4_988_400,
    // Bands on the estate value; only the part above the exemption is taxed.
    bands: [
      [5_000_000, '11.2'],
      [6_000_000, '12'],
      [7_000_000, '12.8'],
      [8_000_000, '13.6'],
      [9_000_000, '14.4'],
      [10_000_000, '15.2'],
      [null, '16'],
    ] as const,
    source: 'D.C. Code §47-3702(a-1); exemption [unverified]',
    verified: false,
  },
  HI: { exemption: 5_490_000, source: 'HRS §236E-6', verified: true },
  IL: { exemption: 4_000_000, source: '35 ILCS 405 (interrelated computation; estimate)', verified: true },
  MA: { threshold: 2_000_000, credit: 99_600, source: 'M.G.L. c. 65C §2A (2023 amendment)', verified: true },
  ME: {
    exemption: 7_160_000,
    bands: [
      [3_000_000, '8'],
      [6_000_000, '10'],
      [null, '12'],
    ] as const,
    source: '36 M.R.S. §4119; exemption [unverified]',
    verified: false,
  },
  MD: { exemption: 5_000_000, rate: '16', source: 'Md. Tax-Gen. §7-309', verified: true },
  MN: { exemption: 3_000_000, source: 'Minn. Stat. §291.016', verified: true },
  NY: { exclusion: 7_350_000, source: 'N.Y. Tax Law §952(c); basic exclusion [unverified]', verified: false },
  OR: { exemption: 1_000_000, source: 'ORS 118.010', verified: true },
  RI: {
    exemption: 1_838_056,
    credit: 87_940,
    source: 'R.I. Gen. Laws §44-22-1.1; credit [unverified]',
    verified: false,
  },
  VT: { exemption: 5_000_000, rate: '16', source: '32 V.S.A. §7442a', verified: true },
} as const;

export const ESTATE_TAX_STATES = [
  'CT',
  'DC',
  'HI',
  'IL',
  'MA',
  'ME',
  'MD',
  'MN',
  'NY',
  'OR',
  'RI',
  'VT',
  'WA',
] as const;
