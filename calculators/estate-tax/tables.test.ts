import { describe, expect, it } from 'vitest';
import { dollars, toDollars } from '../money.ts';
import { evaluate, type ScheduleRow } from '../schedule.ts';
import { FEDERAL_SCHEDULE } from './federal-tables.ts';
import * as tables from './state-tables.ts';

const SCHEDULES: [string, readonly ScheduleRow[]][] = [
  ['federal §2001(c)', FEDERAL_SCHEDULE.rows],
  ['former §2011(b) credit', tables.CREDIT_2011B.rows],
  ...[tables.HI, tables.MN, tables.NY, tables.OR, tables.WA].flatMap((entry) =>
    entry.versions.map((v): [string, readonly ScheduleRow[]] => [`${entry.name} ${v.effectiveDate}`, v.rows]),
  ),
];

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
    expect(indexed.sort()).toEqual(['CT', 'DC', 'ME', 'NY', 'RI', 'WA']);
  });
});
