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
