import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  calculatorJsonSchema,
  calculators,
  getCalculator,
  isCalculatorSlug,
  runCalculator,
} from './index.ts';
import { CALCULATOR_NAMES, calculatorName } from './names.ts';
import { NOW } from './testing.ts';

const SLUGS = ['estate-tax', 'inheritance-tax', 'probate-fees', 'executor-commission', 'rmd'];

describe('registry', () => {
  it('lists the calculators in display order', () => {
    expect(calculators.map((c) => c.slug)).toEqual(SLUGS);
    expect(SLUGS.every(isCalculatorSlug)).toBe(true);
    expect(isCalculatorSlug('nope')).toBe(false);
    expect(getCalculator('nope')).toBeUndefined();
  });

  it('names each calculator as names.ts does (the portal reads that table), in the same order', () => {
    expect(calculators.map(({ slug, name }) => ({ slug, name }))).toEqual(CALCULATOR_NAMES);
    expect(calculatorName('executor-commission')).toBe('New York executor commission');
    expect(calculatorName('retired-calculator')).toBe('retired-calculator');
  });

  it.each(SLUGS)('%s has labels, a rule set, a disclaimer and a JSON Schema a form can use', (slug) => {
    const c = getCalculator(slug)!;
    expect(c.name.length).toBeGreaterThan(3);
    expect(c.description.length).toBeGreaterThan(10);
    expect(c.disclaimer).toMatch(/estimate.*not legal or tax advice/i);
    expect(c.ruleSet).toMatchObject({ taxYear: 2026, effectiveDate: '2026-01-01' });
    expect(c.ruleSet.sources.length).toBeGreaterThan(0);
    const schema = calculatorJsonSchema(slug) as {
      type: string;
      properties: Record<string, Record<string, unknown>>;
    };
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties)).toEqual(Object.keys(c.inputLabels));
    for (const property of Object.values(schema.properties)) expect(property.label).toBeTruthy();
    for (const property of Object.values(schema.properties).filter((p) => p.unit === 'USD')) {
      expect(property).toMatchObject({ type: 'number', minimum: 0, maximum: 1e12 });
    }
  });

  it('refuses an unknown calculator and a broken clock without throwing', () => {
    expect(runCalculator('nope', {})).toMatchObject({ ok: false, issues: [{ path: 'calculator' }] });
    expect(runCalculator('rmd', { balance: 1, age: 80 }, { now: new Date('x') })).toMatchObject({
      ok: false,
      issues: [{ path: 'now' }],
    });
  });

  it.each(SLUGS)('%s answers arbitrary input with a result or field issues, never an exception', (slug) => {
    fc.assert(
      fc.property(fc.anything(), (junk) => {
        const outcome = runCalculator(slug, junk, { now: NOW });
        if (!outcome.ok) {
          expect(outcome.issues.length).toBeGreaterThan(0);
          for (const issue of outcome.issues) expect(typeof issue.path).toBe('string');
        }
      }),
      { numRuns: 200 },
    );
  });

  it('returns the validated inputs with defaults applied, and the result carries the rule set and disclaimer', () => {
    const outcome = runCalculator('estate-tax', { estateValue: 1, state: 'NY', extra: true }, { now: NOW });
    if (!outcome.ok) throw new Error('refused');
    expect(outcome.inputs).toEqual({
      estateValue: 1,
      state: 'NY',
      adjustedTaxableGifts: 0,
      portableExclusion: 0,
      applyStateDeathTaxDeduction: true,
    });
    expect(outcome.result.disclaimer).toMatch(/not legal or tax advice/);
    expect(outcome.result.ruleSet.taxYear).toBe(2026);
  });
});

describe('each calculator declares its figures', () => {
  it.each(calculators.map((c) => [c.slug, c] as const))(
    '%s: money, main and computed name real fields',
    (_, c) => {
      const fields = new Set([...Object.keys(c.inputLabels), ...Object.keys(c.outputLabels)]);
      const { basis, computed, main, money, rates = [] } = c.figures;
      for (const key of [basis, ...computed, main, ...money, ...rates]) expect(fields).toContain(key);
      expect(computed).toContain(main);
      for (const key of [basis, ...computed]) expect(money).toContain(key);
      for (const key of rates) expect(money).not.toContain(key);
    },
  );
});
