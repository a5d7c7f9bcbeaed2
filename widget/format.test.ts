import fc from 'fast-check';
import { expect, it } from 'vitest';
import { formatDate, formatOutput } from './format.ts';
import { about, usd } from './forms/words.ts';

it.each([
  ['totalTax', 1234567.5, '$1,234,567.50'],
  ['rmd', 0, '$0'],
  ['effectiveRate', 0.12345, '12.3%'],
  ['factor', 26.5, '26.5'],
  ['totalTax', Number.NaN, '—'],
])('formatOutput(%s, %j) → %s', (key, value, text) => {
  expect(formatOutput(key, value)).toBe(text);
});

it('writes figures for sentences: about $773,200 above $10,000, exact below', () => {
  expect(about(773_212.4)).toBe('about $773,200');
  expect(about(4_065.04)).toBe('$4,065.04');
  expect(usd(8_000_000)).toBe('$8,000,000');
});

it('writes the rule set’s date in words', () => {
  expect(formatDate('2026-01-01')).toBe('January 1, 2026');
});

it('writes dollars exactly as Intl.NumberFormat would (the page builds no formatter of its own)', () => {
  const whole = new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: 0,
  });
  const cents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
  const plain = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });
  fc.assert(
    fc.property(fc.integer({ min: -1e14, max: 1e14 }), (c) => {
      const v = c / 100;
      expect(usd(v)).toBe(Number.isInteger(v) ? whole.format(v) : cents.format(v));
      expect(formatOutput('factor', c / 10_000)).toBe(plain.format(c / 10_000));
    }),
  );
});

it.each([
  ['2024-02-29', 'February 29, 2024'],
  ['2026-12-31', 'December 31, 2026'],
  ['not a date', 'not a date'],
])('formatDate(%s) → %s, as Intl.DateTimeFormat writes it', (iso, text) => {
  expect(formatDate(iso)).toBe(text);
  if (!iso.startsWith('not'))
    expect(
      new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(
        new Date(`${iso}T00:00:00Z`),
      ),
    ).toBe(text);
});
