import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDollars,
  divRoundHalfUp,
  formatUsd,
  hasAtMostTwoDecimals,
  ppm,
  ratio,
  toCents,
  toDollars,
} from './money.ts';

describe('toCents', () => {
  it.each([
    [0, 0n],
    [0.29, 29n],
    [1.1, 110n],
    [999_999_999_999.99, 99_999_999_999_999n],
    [1_000_000_000_000, 100_000_000_000_000n],
    [-2.5, -250n],
  ])('%d → %d cents', (dollars, cents) => {
    expect(toCents(dollars)).toBe(cents);
  });

  it.each([1.005, 1e-7, Number.NaN, Number.POSITIVE_INFINITY, 1e21])('refuses %d', (amount) => {
    expect(hasAtMostTwoDecimals(amount)).toBe(false);
    expect(() => toCents(amount)).toThrow(RangeError);
  });

  it('reads back every two-decimal amount up to $1 trillion exactly', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 100_000_000_000_000n }), (c) => {
        const dollars = Number(c) / 100;
        expect(hasAtMostTwoDecimals(dollars)).toBe(true);
        expect(toCents(dollars)).toBe(c);
      }),
    );
  });
});

describe('rounding', () => {
  it.each([
    [5n, 10n, 1n],
    [4n, 10n, 0n],
    [15n, 10n, 2n],
    [-5n, 10n, 0n],
    [-6n, 10n, -1n],
  ])('%d / %d → %d (half-up)', (n, d, q) => {
    expect(divRoundHalfUp(n, d)).toBe(q);
  });

  it.each([
    [5_000n, 0.01],
    [4_999n, 0],
    [1_234_565_000n, 1234.57],
  ])('%d micro-dollars → $%d', (micro, dollars) => {
    expect(toDollars(micro)).toBe(dollars);
  });

  it('adds dollars without drift and gives rates to four decimals', () => {
    expect(addDollars(0.1, 0.2)).toBe(0.3);
    expect(ratio(1, 3)).toBe(0.3333);
    expect(ratio(2, 3)).toBe(0.6667);
    expect(ratio(5, 0)).toBe(0);
    expect(ppm('10.25')).toBe(102_500n);
    expect(() => ppm('1.23456')).toThrow(RangeError);
  });
});

describe('formatUsd', () => {
  it.each([
    [0, '$0.00', '$0'],
    [-0, '$0.00', '$0'],
    [1234567.89, '$1,234,567.89', '$1,234,567.89'],
    [-1234, '-$1,234.00', '-$1,234'],
    [-0.004, '$0.00', '$0'],
    [0.005, '$0.01', '$0.01'],
    [1.005, '$1.01', '$1.01'],
    [999.995, '$1,000.00', '$1,000'],
    [12.344, '$12.34', '$12.34'],
    [1e12, '$1,000,000,000,000.00', '$1,000,000,000,000'],
    [-98_765_432.1, '-$98,765,432.10', '-$98,765,432.10'],
    [Number.NaN, '—', '—'],
    [Number.POSITIVE_INFINITY, '—', '—'],
  ])('%d → %s, or %s unless-whole', (amount, always, unlessWhole) => {
    expect(formatUsd(amount)).toBe(always);
    expect(formatUsd(amount, 'unless-whole')).toBe(unlessWhole);
  });

  it('writes cents exactly as Intl.NumberFormat would, without building one', () => {
    const intl = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    fc.assert(
      fc.property(fc.integer({ min: -1e14, max: 1e14 }), (c) => {
        expect(formatUsd(c / 100)).toBe(intl.format(c / 100));
      }),
    );
  });
});
