import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cents, compute, issuePaths, outputsOf } from '../testing.ts';

// 4% of the first 100k, 3% of the next 100k, 2% of the next 800k, 1% of the next 9M, 0.5% of the next 15M.
describe('California statutory probate fees (§10800, §10810)', () => {
  it.each([
    [0, 0],
    [100_000, 4_000],
    [100_001, 4_000.03],
    [200_000, 7_000],
    [200_001, 7_000.02],
    [1_000_000, 23_000],
    [1_000_001, 23_000.01],
    [10_000_000, 113_000],
    [10_000_001, 113_000.01], // 0.005 rounds half-up
    [25_000_000, 188_000],
  ])('%d → %d to each of attorney and executor', (estateValue, fee) => {
    expect(outputsOf('probate-fees', { estateValue })).toMatchObject({
      attorneyFee: fee,
      executorFee: fee,
      totalFees: (cents(fee) * 2) / 100,
      courtSetAboveCap: false,
    });
  });

  it.each([25_000_001, 30_000_000, 1e12])(
    'above $25M (%d) gives the fee on the first $25M, flags it and says the court sets the rest',
    (estateValue) => {
      const result = compute('probate-fees', { estateValue });
      expect(result.outputs).toMatchObject({
        attorneyFee: 188_000,
        executorFee: 188_000,
        totalFees: 376_000,
        courtSetAboveCap: true,
      });
      expect(result.notes.some((n) => n.includes('court'))).toBe(true);
    },
  );

  it('refuses bad amounts', () => {
    expect(issuePaths('probate-fees', { estateValue: -1 })).toEqual(['estateValue']);
    expect(issuePaths('probate-fees', {})).toEqual(['estateValue']);
  });

  it('never decreases and never exceeds 4% of the estate', () => {
    const money = fc.integer({ min: 0, max: 5_000_000_000 }).map((c) => c / 100);
    fc.assert(
      fc.property(money, money, (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const low = outputsOf('probate-fees', { estateValue: lo }).attorneyFee!;
        expect(outputsOf('probate-fees', { estateValue: hi }).attorneyFee).toBeGreaterThanOrEqual(low);
        expect(low).toBeLessThanOrEqual(Math.ceil(lo * 4) / 100);
      }),
    );
  });
});
