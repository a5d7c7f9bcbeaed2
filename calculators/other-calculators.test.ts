import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculatorJsonSchema, calculators, getCalculator, runCalculator } from './index.ts';
import { UNIFORM_LIFETIME_TABLE } from './rmd/uniform-lifetime-table.ts';

function outputs(slug: string, inputs: Record<string, unknown>) {
  const outcome = runCalculator(slug, inputs);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.issues));
  return outcome.result.outputs as Record<string, number | boolean>;
}

function issues(slug: string, inputs: unknown) {
  const outcome = runCalculator(slug, inputs);
  return outcome.ok ? [] : outcome.issues.map((i) => i.path);
}

describe('inheritance tax', () => {
  it.each([
    ['PA', 'spouse', 100_000, 0],
    ['PA', 'lineal', 100_000, 4_500],
    ['PA', 'sibling', 100_000, 12_000],
    ['PA', 'other', 100_000, 15_000],
    ['NJ', 'A', 5_000_000, 0],
    ['NJ', 'C', 25_000, 0],
    ['NJ', 'C', 25_001, 0.11],
    ['NJ', 'C', 1_100_000, 118_250],
    ['NJ', 'C', 1_400_000, 157_250],
    ['NJ', 'C', 1_700_000, 199_250],
    ['NJ', 'C', 2_000_000, 247_250],
    ['NJ', 'D', 700_000, 105_000],
    ['NJ', 'D', 800_000, 121_000],
    ['NE', 'close', 100_000, 0],
    ['NE', 'close', 150_000, 500],
    ['NE', 'remote', 40_000, 0],
    ['NE', 'remote', 50_000, 1_100],
    ['NE', 'other', 25_000, 0],
    ['NE', 'other', 35_000, 1_500],
    ['MD', 'exempt', 1_000_000, 0],
    ['MD', 'other', 100_000, 10_000],
    ['IA', 'any', 100_000, 0],
    ['FL', 'any', 100_000, 0],
  ])('%s %s %d → %d', (state, heirClass, bequest, tax) => {
    expect(outputs('inheritance-tax', { state, heirClass, bequest }).inheritanceTax).toBeCloseTo(tax, 2);
  });

  it('refuses Kentucky (brackets not sourced) and a heir class of another state', () => {
    expect(issues('inheritance-tax', { state: 'KY', heirClass: 'B', bequest: 1 })).toEqual(['state']);
    expect(issues('inheritance-tax', { state: 'NJ', heirClass: 'lineal', bequest: 1 })).toEqual([
      'heirClass',
    ]);
  });
});

describe('California probate fees', () => {
  it.each([
    [0, 0],
    [100_000, 4_000],
    [200_000, 7_000],
    [1_000_000, 23_000],
    [10_000_000, 113_000],
    [25_000_000, 188_000],
    [100_000.01, 4_000],
  ])('%d → %d to each', (estateValue, fee) => {
    const out = outputs('probate-fees', { estateValue });
    expect(out).toMatchObject({
      attorneyFee: fee,
      executorFee: fee,
      totalFees: fee * 2,
      courtSetAboveCap: false,
    });
  });

  it('says plainly that the court sets the fee above $25M instead of inventing one', () => {
    const outcome = runCalculator('probate-fees', { estateValue: 30_000_000 });
    if (!outcome.ok) throw new Error('refused');
    expect(outcome.result.outputs).toMatchObject({ attorneyFee: 188_000, courtSetAboveCap: true });
    expect(outcome.result.notes.join(' ')).toMatch(/court sets a reasonable/);
  });
});

describe('New York executor commission', () => {
  it.each([
    [100_000, 5_000],
    [300_000, 13_000],
    [1_000_000, 34_000],
    [5_000_000, 134_000],
    [6_000_000, 154_000],
    [100_001, 5_000.04],
  ])('%d → %d', (estateValue, commission) => {
    expect(outputs('executor-commission', { estateValue }).commission).toBe(commission);
  });
});

describe('required minimum distribution', () => {
  it.each([
    [73, 26.5],
    [75, 24.6],
    [80, 20.2],
    [85, 16.0],
    [90, 12.2],
    [120, 2.0],
    [125, 2.0],
  ])('age %d uses factor %d', (age, factor) => {
    expect(outputs('rmd', { balance: 100_000, age })).toMatchObject({
      factor,
      rmd: Math.round((100_000 / factor) * 100) / 100,
    });
  });

  it('holds the whole table from 72 to 120 with falling factors', () => {
    const ages = Object.keys(UNIFORM_LIFETIME_TABLE).map(Number);
    expect(ages).toEqual(Array.from({ length: 49 }, (_, i) => 72 + i));
    for (const age of ages.slice(1))
      expect(UNIFORM_LIFETIME_TABLE[age]!).toBeLessThan(UNIFORM_LIFETIME_TABLE[age - 1]!);
  });

  it('refuses ages before the required beginning age', () => {
    expect(issues('rmd', { balance: 1, age: 72 })).toEqual(['age']);
    expect(issues('rmd', { balance: 1, age: 73.5 })).toEqual(['age']);
  });
});

describe('registry', () => {
  it('lists every calculator with a usable JSON Schema and never throws', () => {
    expect(calculators.map((c) => c.slug)).toEqual([
      'estate-tax',
      'inheritance-tax',
      'probate-fees',
      'executor-commission',
      'rmd',
    ]);
    for (const c of calculators) {
      const schema = calculatorJsonSchema(c.slug);
      expect(schema.type).toBe('object');
      expect(Object.keys(schema.properties as object).length).toBeGreaterThan(0);
      expect(getCalculator(c.slug)?.disclaimer).toMatch(/not legal or tax advice/);
      fc.assert(
        fc.property(fc.anything(), (junk) => {
          runCalculator(c.slug, junk);
        }),
        { numRuns: 100 },
      );
    }
    expect(issues('nope', {})).toEqual(['calculator']);
  });

  it('computes every calculator for random valid money without NaN or negatives', () => {
    const money = fc.integer({ min: 0, max: 10_000_000_000 }).map((c) => c / 100);
    fc.assert(
      fc.property(money, fc.integer({ min: 73, max: 130 }), (amount, age) => {
        const all = [
          outputs('probate-fees', { estateValue: amount }),
          outputs('executor-commission', { estateValue: amount }),
          outputs('rmd', { balance: amount, age }),
          outputs('inheritance-tax', { state: 'NJ', heirClass: 'C', bequest: amount }),
        ];
        for (const out of all) {
          for (const value of Object.values(out)) {
            if (typeof value === 'number') {
              expect(Number.isFinite(value)).toBe(true);
              expect(value).toBeGreaterThanOrEqual(0);
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
