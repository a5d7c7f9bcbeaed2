import { describe, expect, it } from 'vitest';
import { RULE_WORDS, rulesInWords } from './rules-in-words.ts';

describe('rulesInWords', () => {
  it.each([
    ['estate-tax', 'estate-tax-2026+NY-2026-01-01', 2026, 'Federal and New York rules for deaths in 2026'],
    ['estate-tax', 'estate-tax-2027', 2027, 'Federal rules for deaths in 2027'],
    ['estate-tax', 'estate-tax-2026+WA-2026-07-01', 2026, 'Federal and Washington rules for deaths in 2026'],
    ['inheritance-tax', 'inheritance-tax-2026+PA-2026-01-01', 2026, 'Pennsylvania rules for deaths in 2026'],
    ['probate-fees', 'ca-probate-fees-2026', 2026, 'California rules for probate estates in 2026'],
    ['executor-commission', 'ny-executor-commission-2026', 2026, 'New York rules for estates in 2026'],
    ['rmd', 'rmd-2026', 2026, 'Federal rules for distributions in 2026'],
  ])('%s %s → %s', (calculator, id, taxYear, words) => {
    expect(rulesInWords(calculator, { id, taxYear })).toBe(words);
  });

  it.each([
    [
      'estate-tax',
      'estate-tax-2026+NY-2026-01-01',
      2026,
      'Normas federales y de Nueva York para fallecimientos en 2026',
    ],
    [
      'estate-tax',
      'estate-tax-2026+DC-2026-01-01',
      2026,
      'Normas federales y del Distrito de Columbia para fallecimientos en 2026',
    ],
    [
      'inheritance-tax',
      'inheritance-tax-2026+PA-2026-01-01',
      2026,
      'Normas de Pensilvania para fallecimientos en 2026',
    ],
    ['probate-fees', 'ca-probate-fees-2026', 2026, 'Normas de California para sucesiones (probate) en 2026'],
    ['rmd', 'rmd-2026', 2026, 'Normas federales para distribuciones en 2026'],
  ])('in Spanish: %s %s → %s', (calculator, id, taxYear, words) => {
    expect(rulesInWords(calculator, { id, taxYear }, 'es')).toBe(words);
  });

  it('says nothing for a calculator it does not know, or an inheritance tax without a state', () => {
    expect(rulesInWords('gift-tax', { id: 'gift-tax-2026', taxYear: 2026 })).toBeUndefined();
    expect(rulesInWords('inheritance-tax', { id: 'inheritance-tax-2026', taxYear: 2026 })).toBeUndefined();
  });

  it('names every calculator in every language', () => {
    for (const words of Object.values(RULE_WORDS))
      expect(Object.keys(words.subject).sort()).toEqual(
        ['estate-tax', 'executor-commission', 'inheritance-tax', 'probate-fees', 'rmd'].sort(),
      );
    expect(RULE_WORDS.en.list(['A', 'B', 'C'])).toBe('A, B and C');
  });
});
