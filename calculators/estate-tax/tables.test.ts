import { describe, expect, it } from 'vitest';
import { dollars, toDollars } from '../money.ts';
import { evaluate, type ScheduleRow } from '../schedule.ts';
import { BASIC_EXCLUSION, FEDERAL_SCHEDULE } from './federal-tables.ts';
import * as tables from './state-tables.ts';

const SCHEDULES: [string, readonly ScheduleRow[]][] = [
  ['federal §2001(c)', FEDERAL_SCHEDULE.rows],
  ['former §2011(b) credit', tables.CREDIT_2011B.rows],
  ...[tables.HI, tables.MN, tables.NY, tables.OR, tables.WA].flatMap((entry) =>
    entry.versions.map((v): [string, readonly ScheduleRow[]] => [`${entry.name} ${v.effectiveDate}`, v.rows]),
  ),
];

/**
 * The published figures, row by row (floor, base, rate %), as in the law reference. The modules
 * store them compactly (floors and rates; each base follows from the row below): every decoded row
 * must equal these, so neither a typo in the compact text nor a slip in the decoder goes unseen.
 */
const PUBLISHED: [string, [number, number, string][]][] = [
  [
    'federal §2001(c)',
    [
      [0, 0, '18'],
      [10_000, 1_800, '20'],
      [20_000, 3_800, '22'],
      [40_000, 8_200, '24'],
      [60_000, 13_000, '26'],
      [80_000, 18_200, '28'],
      [100_000, 23_800, '30'],
      [150_000, 38_800, '32'],
      [250_000, 70_800, '34'],
      [500_000, 155_800, '37'],
      [750_000, 248_300, '39'],
      [1_000_000, 345_800, '40'],
    ],
  ],
  [
    'former §2011(b) credit',
    [
      [40_000, 0, '0.8'],
      [90_000, 400, '1.6'],
      [140_000, 1_200, '2.4'],
      [240_000, 3_600, '3.2'],
      [440_000, 10_000, '4'],
      [640_000, 18_000, '4.8'],
      [840_000, 27_600, '5.6'],
      [1_040_000, 38_800, '6.4'],
      [1_540_000, 70_800, '7.2'],
      [2_040_000, 106_800, '8'],
      [2_540_000, 146_800, '8.8'],
      [3_040_000, 190_800, '9.6'],
      [3_540_000, 238_800, '10.4'],
      [4_040_000, 290_800, '11.2'],
      [5_040_000, 402_800, '12'],
      [6_040_000, 522_800, '12.8'],
      [7_040_000, 650_800, '13.6'],
      [8_040_000, 786_800, '14.4'],
      [9_040_000, 930_800, '15.2'],
      [10_040_000, 1_082_800, '16'],
    ],
  ],
  [
    'Hawaii 2026-01-01',
    [
      [0, 0, '10'],
      [1_000_000, 100_000, '11'],
      [2_000_000, 210_000, '12'],
      [3_000_000, 330_000, '13'],
      [4_000_000, 460_000, '14'],
      [5_000_000, 600_000, '15.7'],
      [10_000_000, 1_385_000, '20'],
    ],
  ],
  [
    'Minnesota 2026-01-01',
    [
      [0, 0, '13'],
      [7_100_000, 923_000, '13.6'],
      [8_100_000, 1_059_000, '14.4'],
      [9_100_000, 1_203_000, '15.2'],
      [10_100_000, 1_355_000, '16'],
    ],
  ],
  [
    'New York 2026-01-01',
    [
      [0, 0, '3.06'],
      [500_000, 15_300, '5'],
      [1_000_000, 40_300, '5.5'],
      [1_500_000, 67_800, '6.5'],
      [2_100_000, 106_800, '8'],
      [2_600_000, 146_800, '8.8'],
      [3_100_000, 190_800, '9.6'],
      [3_600_000, 238_800, '10.4'],
      [4_100_000, 290_800, '11.2'],
      [5_100_000, 402_800, '12'],
      [6_100_000, 522_800, '12.8'],
      [7_100_000, 650_800, '13.6'],
      [8_100_000, 786_800, '14.4'],
      [9_100_000, 930_800, '15.2'],
      [10_100_000, 1_082_800, '16'],
    ],
  ],
  [
    'Oregon 2026-01-01',
    [
      [1_000_000, 0, '10'],
      [1_500_000, 50_000, '10.25'],
      [2_500_000, 152_500, '10.5'],
      [3_500_000, 257_500, '11'],
      [4_500_000, 367_500, '11.5'],
      [5_500_000, 482_500, '12'],
      [6_500_000, 602_500, '13'],
      [7_500_000, 732_500, '14'],
      [8_500_000, 872_500, '15'],
      [9_500_000, 1_022_500, '16'],
    ],
  ],
  [
    'Washington 2026-01-01',
    [
      [0, 0, '10'],
      [1_000_000, 100_000, '15'],
      [2_000_000, 250_000, '17'],
      [3_000_000, 420_000, '19'],
      [4_000_000, 610_000, '23'],
      [6_000_000, 1_070_000, '26'],
      [7_000_000, 1_330_000, '30'],
      [9_000_000, 1_930_000, '35'],
    ],
  ],
  [
    'Washington 2026-07-01',
    [
      [0, 0, '10'],
      [1_000_000, 100_000, '14'],
      [2_000_000, 240_000, '15'],
      [3_000_000, 390_000, '16'],
      [4_000_000, 550_000, '18'],
      [6_000_000, 910_000, '19'],
      [7_000_000, 1_100_000, '19.5'],
      [9_000_000, 1_490_000, '20'],
    ],
  ],
  [
    // The same table, kept in 2027 with the frozen $3,000,000.
    'Washington 2027-01-01',
    [
      [0, 0, '10'],
      [1_000_000, 100_000, '14'],
      [2_000_000, 240_000, '15'],
      [3_000_000, 390_000, '16'],
      [4_000_000, 550_000, '18'],
      [6_000_000, 910_000, '19'],
      [7_000_000, 1_100_000, '19.5'],
      [9_000_000, 1_490_000, '20'],
    ],
  ],
];

describe('the compact tables decode to the published figures', () => {
  it('covers every schedule', () => {
    expect(PUBLISHED.map(([name]) => name)).toEqual(SCHEDULES.map(([name]) => name));
  });

  it.each(PUBLISHED)('%s', (name, published) => {
    const rows = SCHEDULES.find(([n]) => n === name)![1];
    expect(rows).toEqual(published.map(([floor, base, rate]) => ({ floor, base, rate })));
  });
});

describe('rate schedules are internally consistent', () => {
  // Each row's base must equal the previous row's tax at its floor: a typo in any figure fails here.
  it.each(SCHEDULES)('%s', (_name, rows) => {
    for (let i = 1; i < rows.length; i++) {
      const previous = rows[i - 1]!;
      const row = rows[i]!;
      expect(row.floor).toBeGreaterThan(previous.floor);
      expect(toDollars(evaluate({ rows: [previous] }, dollars(row.floor)))).toBe(row.base);
    }
  });

  it('gives the 2026 applicable credit T(15,000,000) = 5,945,800', () => {
    expect(toDollars(evaluate(FEDERAL_SCHEDULE, dollars(15_000_000)))).toBe(5_945_800);
  });

  it.each([
    [10_000, 1_800],
    [10_001, 1_800.2],
    [100_000, 23_800],
    [1_000_000, 345_800],
    [1_000_001, 345_800.4],
  ])('federal T(%d) = %d', (amount, tax) => {
    expect(toDollars(evaluate(FEDERAL_SCHEDULE, dollars(amount)))).toBe(tax);
  });
});

describe('state tables', () => {
  const entries = Object.values(tables.STATE_TABLES);

  it('every version has an ISO first day, and versions of one state never share it', () => {
    expect(entries.length).toBe(13);
    for (const entry of entries) {
      const days = entry.versions.map((v) => v.effectiveDate);
      for (const day of days) expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(new Set(days).size).toBe(days.length);
    }
  });

  it('marks as indexed exactly the amounts re-set every year', () => {
    const indexed = Object.entries(tables.STATE_TABLES)
      .filter(([, e]) => e.versions.some((v) => v.indexed))
      .map(([code]) => code);
    expect(indexed.sort()).toEqual(['CT', 'DC', 'ME', 'NY', 'RI']);
  });

  it('makes Connecticut’s exemption from the federal basic exclusion of each year, never by hand', () => {
    expect(tables.CT.versions).toEqual(tables.connecticutVersions(BASIC_EXCLUSION));
    // A federal amount added for a year gives Connecticut the same amount from the same day.
    const next = tables.connecticutVersions([
      { effectiveDate: '2026-01-01', amount: 15_000_000 },
      { effectiveDate: '2027-01-01', amount: 15_480_000 },
    ]);
    expect(next.map((v) => [v.effectiveDate, v.exemption, v.rate, v.cap])).toEqual([
      ['2026-01-01', 15_000_000, '12', 15_000_000],
      ['2027-01-01', 15_480_000, '12', 15_000_000],
    ]);
  });
});
