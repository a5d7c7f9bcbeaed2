import { describe, expect, it } from 'vitest';
import { outputsOf } from '../testing.ts';

const stateTax = (state: string, estateValue: number) =>
  outputsOf('estate-tax', { state, estateValue }).stateTax!;

type Edges = [title: string, state: string, cases: [estateValue: number, stateTax: number][]];

// Hand-computed: at each threshold, one dollar above it, and far above. State tax is computed on
// the estate as entered, so the §2058 deduction does not change these figures.
describe.each<Edges>([
  [
    'CT: 12% over $15M, total capped at $15M',
    'CT',
    [
      [15_000_000, 0],
      [15_000_001, 0.12],
      [16_000_000, 120_000],
      [140_000_000, 15_000_000],
      [140_000_001, 15_000_000],
      [500_000_000, 15_000_000],
    ],
  ],
  [
    'DC: bands over $4,988,400',
    'DC',
    [
      [4_988_400, 0],
      [4_988_401, 0.11],
      [5_000_000, 1_299.2],
      [5_000_001, 1_299.32],
      [6_000_000, 121_299.2],
      [7_000_000, 249_299.2],
      [8_000_000, 385_299.2],
      [9_000_000, 529_299.2],
      [10_000_000, 681_299.2],
      [10_000_001, 681_299.36],
      [20_000_000, 2_281_299.2],
    ],
  ],
  [
    'HI: table on the excess over $5,490,000',
    'HI',
    [
      [5_490_000, 0],
      [5_490_001, 0.1],
      [6_490_000, 100_000],
      [6_490_001, 100_000.11],
      [7_490_000, 210_000],
      [8_490_000, 330_000],
      [9_490_000, 460_000],
      [10_490_000, 600_000],
      [10_490_001, 600_000.16],
      [15_490_000, 1_385_000],
      [15_490_001, 1_385_000.2],
      [25_490_000, 3_385_000],
    ],
  ],
  [
    'MA: §2011(b) table on (E − 60,000) less $99,600; zero at or below $2M',
    'MA',
    [
      [1_000_000, 0],
      [2_000_000, 0],
      [2_000_001, 0.07],
      [2_100_000, 7_200],
      [2_100_001, 7_200.08],
      [3_000_000, 82_400],
      [10_100_000, 983_200],
      [20_100_000, 2_583_200],
    ],
  ],
  [
    'ME: 8/10/12% on $3M bands over $7,160,000',
    'ME',
    [
      [7_160_000, 0],
      [7_160_001, 0.08],
      [10_160_000, 240_000],
      [10_160_001, 240_000.1],
      [13_160_000, 540_000],
      [13_160_001, 540_000.12],
      [23_160_000, 1_740_000],
    ],
  ],
  [
    'MD: 16% over $5M',
    'MD',
    [
      [5_000_000, 0],
      [5_000_001, 0.16],
      [6_000_000, 160_000],
      [105_000_000, 16_000_000],
    ],
  ],
  [
    'MN: table on the excess over $3M',
    'MN',
    [
      [3_000_000, 0],
      [3_000_001, 0.13],
      [10_100_000, 923_000],
      [10_100_001, 923_000.14],
      [11_100_000, 1_059_000],
      [12_100_000, 1_203_000],
      [13_100_000, 1_355_000],
      [13_100_001, 1_355_000.16],
      [23_100_000, 2_955_000],
    ],
  ],
  [
    'OR: ORS 118.010 on the whole estate from $1M',
    'OR',
    [
      [999_999, 0],
      [1_000_000, 0],
      [1_000_001, 0.1],
      [1_500_000, 50_000],
      [1_500_001, 50_000.1],
      [2_500_000, 152_500],
      [3_500_000, 257_500],
      [4_500_000, 367_500],
      [5_500_000, 482_500],
      [6_500_000, 602_500],
      [7_500_000, 732_500],
      [8_500_000, 872_500],
      [9_500_000, 1_022_500],
      [9_500_001, 1_022_500.16],
      [19_500_000, 2_622_500],
    ],
  ],
  [
    'RI: §2011(b) table on (E − 60,000) less $87,940; zero at or below $1,838,056',
    'RI',
    [
      [1_838_056, 0],
      [1_838_057, 0.1],
      [2_100_000, 18_860],
      [2_100_001, 18_860.08],
      [10_100_000, 994_860],
      [20_100_000, 2_594_860],
    ],
  ],
  [
    'VT: 16% over $5M',
    'VT',
    [
      [5_000_000, 0],
      [5_000_001, 0.16],
      [6_000_000, 160_000],
    ],
  ],
  [
    'WA: table on the excess over $3,076,000',
    'WA',
    [
      [3_076_000, 0],
      [3_076_001, 0.1],
      [4_076_000, 100_000],
      [4_076_001, 100_000.15],
      [5_076_000, 250_000],
      [6_076_000, 420_000],
      [7_076_000, 610_000],
      [9_076_000, 1_070_000],
      [10_076_000, 1_330_000],
      [12_076_000, 1_930_000],
      [12_076_001, 1_930_000.35],
      [22_076_000, 5_430_000],
    ],
  ],
])('%s', (_title, state, cases) => {
  it.each(cases)(`${state} %d → %d`, (estateValue, expected) => {
    expect(stateTax(state, estateValue)).toBe(expected);
  });
});

// X = 7,350,000; T(X) = 650,800 + 13.6% × 250,000 = 684,800; 1.05·X = 7,717,500.
// Inside the cliff: tax = T(E) − 684,800 × (21X − 20E) / X.
describe('New York cliff (§952(c)) across its whole range', () => {
  it.each([
    ['below X', 1_000_000, 0],
    ['at X', 7_350_000, 0],
    ['one dollar above X: 684,800.136 − 684,798.1366', 7_350_001, 2],
    ['inside: 705,200 − 405,289.80', 7_500_000, 299_910.2],
    ['halfway: 709,790 − 342,400', 7_533_750, 367_390],
    ['one dollar below 1.05X: 734,779.864 − 1.8634', 7_717_499, 734_778],
    ['at 1.05X: whole estate, no credit', 7_717_500, 734_780],
    ['above 1.05X', 7_717_501, 734_780.14],
    ['$10M', 10_000_000, 1_067_600],
    ['top bracket', 10_100_000, 1_082_800],
    ['far above', 20_100_000, 2_682_800],
  ])('%s: %d → %d', (_case, estateValue, expected) => {
    expect(stateTax('NY', estateValue)).toBe(expected);
  });

  it('never lowers the tax anywhere in or around the cliff', () => {
    let previous = -1;
    for (let e = 7_340_000; e <= 7_730_000; e += 1_250) {
      const tax = stateTax('NY', e);
      expect(tax).toBeGreaterThanOrEqual(previous);
      previous = tax;
    }
  });
});

// Our Illinois estimate (see illinois.ts). With both bases above $1M the federal limit is
// 40% × (E − t − 4,000,000), so at $5M: t = 0.4 × (1,000,000 − t) → t = 400,000 / 1.4; at $10M
// the credit table binds: t = 786,800 + 14.4% × (9,940,000 − t − 8,040,000) → t = 1,060,400 / 1.144.
describe('Illinois (estimate)', () => {
  it.each([
    [4_000_000, 0],
    [5_000_000, 285_714.29],
    [10_000_000, 926_923.08],
  ])('%d → %d', (estateValue, expected) => {
    const out = outputsOf('estate-tax', { state: 'IL', estateValue });
    expect(out.stateTax).toBe(expected);
    expect(out.estimate).toBe(true);
  });

  it('is never marked an estimate for a state with a closed form', () => {
    expect(outputsOf('estate-tax', { state: 'NY', estateValue: 9_000_000 }).estimate).toBe(false);
  });
});
