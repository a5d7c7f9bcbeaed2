import { expect, it } from 'vitest';
import { formatOutput, visibleOutputs } from './format.ts';

it.each([
  ['totalTax', 1234567.5, '$1,234,567.50'],
  ['rmd', 0, '$0.00'],
  ['effectiveRate', 0.12345, '12.35 %'],
  ['factor', 26.5, '26.5'],
  ['estimate', true, 'yes'],
  ['dateOfDeath', '2026-03-01', '2026-03-01'],
  ['totalTax', Number.NaN, '—'],
])('formatOutput(%s, %j) → %s', (key, value, text) => {
  expect(formatOutput(key, value)).toBe(text);
});

it('shows labelled outputs in label order and hides false flags', () => {
  const rows = visibleOutputs(
    { totalTax: 'Total', estimate: 'Estimate only', stateTax: 'State' },
    { stateTax: 2, totalTax: 3, estimate: false, unlabelled: 9 },
  );
  expect(rows.map((r) => r.key)).toEqual(['totalTax', 'stateTax']);
});
