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
    // The passing message is the next pack's checklist: it names every figure still not published.
    for (const figure of report.notPublished) expect(report.message).toContain(figure);
    console.info(report.message);
  });

  it('names each figure still not published when it passes', () => {
    const report = coverageCheck('2026-11-28', COVERAGE);
    expect(report.ok).toBe(true);
    expect(report.notPublished).toEqual([
      'Federal basic exclusion amount for 2027',
      'Federal annual gift tax exclusion for 2027',
      'Connecticut exemption for 2027',
      'District of Columbia exemption for 2027',
      'Maine exclusion for 2027',
      'New York basic exclusion amount for 2027',
      'Rhode Island exemption and credit for 2027',
    ]);
    expect(report.message).toContain('Still not published: Federal basic exclusion amount for 2027;');
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
    ]);
    expect(report.message).toContain('fewer than 45');
    for (const figure of report.toAdd) expect(report.message).toContain(figure);
    expect(report.message).toMatch(/fixed amounts still apply in 2028 \(Hawaii, Illinois, Massachusetts/);
    expect(report.message).toMatch(/Vermont, Washington\)/);
    expect(report.message).toContain('Still not published: Federal basic exclusion amount for 2027');
  });

  it('follows the coverage it is given', () => {
    expect(coverageCheck('2026-11-24', { from: '2026-01-01', to: '2026-12-31' })).toMatchObject({
      ok: false,
      daysLeft: 37,
    });
  });
});
