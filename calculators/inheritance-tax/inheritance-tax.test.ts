import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cents, compute, issuePaths, outputsOf } from '../testing.ts';
import { HEIR_CLASSES } from './index.ts';

const tax = (state: string, heirClass: string | undefined, bequest: number) =>
  outputsOf('inheritance-tax', { state, heirClass, bequest }).inheritanceTax;

describe('inheritance tax by state and heir class (hand-computed)', () => {
  it.each([
    // PA: flat rates on the whole bequest.
    ['PA', 'spouse', 5_000_000, 0],
    ['PA', 'lineal', 100_000, 4_500],
    ['PA', 'lineal', 100_000.01, 4_500],
    ['PA', 'sibling', 250_000, 30_000],
    ['PA', 'other', 1_000_000, 150_000],
    // NJ class C: first 25,000 free, 11% to 1.1M, 13% to 1.4M, 14% to 1.7M, 16% above.
    ['NJ', 'A', 5_000_000, 0],
    ['NJ', 'C', 25_000, 0],
    ['NJ', 'C', 25_001, 0.11],
    ['NJ', 'C', 1_100_000, 118_250],
    ['NJ', 'C', 1_100_001, 118_250.13],
    ['NJ', 'C', 1_400_000, 157_250],
    ['NJ', 'C', 1_400_001, 157_250.14],
    ['NJ', 'C', 1_700_000, 199_250],
    ['NJ', 'C', 1_700_001, 199_250.16],
    ['NJ', 'C', 2_700_000, 359_250],
    // NJ class D: 15% to 700,000, 16% above.
    ['NJ', 'D', 1, 0.15],
    ['NJ', 'D', 700_000, 105_000],
    ['NJ', 'D', 700_001, 105_000.16],
    ['NJ', 'D', 1_700_000, 265_000],
    // NE: exemptions, then a flat rate on the excess.
    ['NE', 'close', 100_000, 0],
    ['NE', 'close', 100_001, 0.01],
    ['NE', 'close', 1_100_000, 10_000],
    ['NE', 'remote', 40_000, 0],
    ['NE', 'remote', 40_001, 0.11],
    ['NE', 'remote', 140_000, 11_000],
    ['NE', 'other', 25_000, 0],
    ['NE', 'other', 25_001, 0.15],
    ['NE', 'other', 125_000, 15_000],
    // MD: 10% for non-exempt heirs.
    ['MD', 'exempt', 1_000_000, 0],
    ['MD', 'other', 1, 0.1],
    ['MD', 'other', 100_000, 10_000],
    // No inheritance tax.
    ['IA', undefined, 100_000, 0],
    ['FL', 'other', 100_000, 0],
  ])('%s %s %d → %d', (state, heirClass, bequest, expected) => {
    expect(tax(state, heirClass, bequest)).toBe(expected);
  });

  it('gives the net to the heir exactly', () => {
    expect(outputsOf('inheritance-tax', { state: 'NJ', heirClass: 'C', bequest: 1_700_001 })).toMatchObject({
      inheritanceTax: 199_250.16,
      netInheritance: 1_500_750.84,
    });
  });

  it('names the state rules it used and explains a repeal', () => {
    expect(compute('inheritance-tax', { state: 'PA', heirClass: 'lineal', bequest: 1 }).ruleSet.id).toBe(
      'inheritance-tax-2026+PA-2026-01-01',
    );
    expect(compute('inheritance-tax', { state: 'IA', bequest: 1 }).notes.join(' ')).toContain('repealed');
  });
});

describe('refusals', () => {
  it.each([
    [{ state: 'KY', heirClass: 'other', bequest: 1 }, ['state']],
    [{ state: 'KY', bequest: 1 }, ['state']],
    [{ state: 'NJ', heirClass: 'lineal', bequest: 1 }, ['heirClass']],
    [{ state: 'PA', heirClass: 'A', bequest: 1 }, ['heirClass']],
    [{ state: 'PA', bequest: 1 }, ['heirClass']],
    [{ state: 'MD', heirClass: 'cousin', bequest: 1 }, ['heirClass']],
    [{ state: 'NE', heirClass: 'close', bequest: 0.001 }, ['bequest']],
  ])('%j → issues at %j', (inputs, paths) => {
    expect(issuePaths('inheritance-tax', inputs)).toEqual(paths);
  });
});

describe('properties', () => {
  const pairs = Object.entries(HEIR_CLASSES).flatMap(([state, classes]) =>
    (classes as string[]).map((heirClass) => [state, heirClass] as const),
  );
  const money = fc.bigInt({ min: 0n, max: 100_000_000_000_000n }).map((c) => Number(c) / 100);

  it('never gives a negative, fractional-cent or decreasing tax, nor more than the bequest', () => {
    fc.assert(
      fc.property(fc.constantFrom(...pairs), money, money, ([state, heirClass], a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const low = tax(state, heirClass, lo)!;
        const high = tax(state, heirClass, hi)!;
        expect(low).toBeGreaterThanOrEqual(0);
        expect(cents(low) / 100).toBe(low);
        expect(low).toBeLessThanOrEqual(lo);
        expect(high).toBeGreaterThanOrEqual(low);
      }),
      { numRuns: 400 },
    );
  });
});
