import { describe, expect, it } from 'vitest';
import { coverageCheck, MIN_COVERAGE_DAYS } from './coverage-check.ts';
import { COVERAGE } from './labels.ts';

// The check that keeps a missing year from reaching a client: `npm test` runs the first case with
// the real clock, so from mid-November of the last covered year CI fails until the figures are in.
describe('estate-tax rule coverage', () => {
  it(`covers at least ${MIN_COVERAGE_DAYS} more days of deaths from today`, () => {
    const today = new Date().toISOString().slice(0, 10);
    const report = coverageCheck(today);
    expect(report.ok, report.message).toBe(true);
  });

  // COVERAGE.to is 2027-12-31: 45 days before is 16 November 2027.
  it.each([
    ['2026-11-24', true, 402],
    ['2027-11-16', true, 45],
    ['2027-11-17', false, 44],
    ['2027-12-31', false, 0],
    ['2028-01-05', false, -5],
  ])('on %s: ok %s, %d days left', (today, ok, days) => {
    const report = coverageCheck(today, COVERAGE);
    expect(report).toMatchObject({ ok, daysLeft: days });
  });

  it('names every figure to add for the next year, and what else to confirm', () => {
    const report = coverageCheck('2027-11-20', COVERAGE);
    expect(report.toAdd).toEqual([
      'Federal basic exclusion amount for 2028',
      'Connecticut exemption for 2028',
      'District of Columbia exemption for 2028',
      'Maine exemption for 2028',
      'New York exemption for 2028',
      'Rhode Island exemption for 2028',
      'Washington exemption for 2028',
    ]);
    expect(report.message).toContain('fewer than 45');
    for (const figure of report.toAdd) expect(report.message).toContain(figure);
    expect(report.message).toMatch(/fixed amounts still apply in 2028 \(Hawaii, Illinois, Massachusetts/);
    expect(report.message).toContain('Still unconfirmed: Federal basic exclusion amount for 2027');
  });

  it('follows the coverage it is given', () => {
    expect(coverageCheck('2026-11-24', { from: '2026-01-01', to: '2026-12-31' })).toMatchObject({
      ok: false,
      daysLeft: 37,
    });
  });
});
