import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { issuePaths, outputsOf } from '../testing.ts';

// 5% of the first 100k, 4% of the next 200k, 3% of the next 700k, 2.5% of the next 4M, 2% above 5M.
describe('New York executor commission (SCPA §2307)', () => {
  it.each([
    [0, 0],
    [100_000, 5_000],
    [100_001, 5_000.04],
    [300_000, 13_000],
    [300_001, 13_000.03],
    [1_000_000, 34_000],
    [1_000_001, 34_000.03], // 0.025 rounds half-up
    [5_000_000, 134_000],
    [5_000_001, 134_000.02],
    [10_000_000, 234_000],
  ])('%d → %d', (estateValue, commission) => {
    expect(outputsOf('executor-commission', { estateValue }).commission).toBe(commission);
  });

  it('refuses bad amounts', () => {
    expect(issuePaths('executor-commission', { estateValue: 10.001 })).toEqual(['estateValue']);
  });

  it('never decreases', () => {
    const money = fc.integer({ min: 0, max: 5_000_000_000 }).map((c) => c / 100);
    fc.assert(
      fc.property(money, money, (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(outputsOf('executor-commission', { estateValue: hi }).commission).toBeGreaterThanOrEqual(
          outputsOf('executor-commission', { estateValue: lo }).commission!,
        );
      }),
    );
  });
});
