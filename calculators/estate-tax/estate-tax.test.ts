import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCalculator } from '../index.ts';
import { ESTATE_TAX_STATES } from './state-tax.ts';

const now = new Date('2026-06-15T12:00:00Z');

function outputs(inputs: Record<string, unknown>) {
  const outcome = runCalculator('estate-tax', inputs, { now });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.issues));
  return outcome.result.outputs as Record<string, number>;
}

describe('federal estate tax (no state tax)', () => {
  it.each([
    [{ estateValue: 0 }, 0],
    [{ estateValue: 15_000_000 }, 0],
    [{ estateValue: 15_000_001 }, 0.4],
    [{ estateValue: 16_000_000 }, 400_000],
    [{ estateValue: 20_000_000 }, 2_000_000],
    [{ estateValue: 15_000_000, adjustedTaxableGifts: 1_000_000 }, 400_000],
    [{ estateValue: 30_000_000, portableExclusion: 15_000_000 }, 0],
    [{ estateValue: 31_000_000, portableExclusion: 20_000_000 }, 400_000], // DSUE capped at the BEA
    [{ estateValue: 15_000_000.01 }, 0], // 0.004 rounds down
    [{ estateValue: 15_000_000.02 }, 0.01], // 0.008 rounds up
  ])('%j → federalTax %d', (inputs, federalTax) => {
    const out = outputs({ state: 'FL', ...inputs });
    expect(out.federalTax).toBe(federalTax);
    expect(out.stateTax).toBe(0);
    expect(out.totalTax).toBe(federalTax);
  });

  it('says when a state has no estate tax', () => {
    const outcome = runCalculator('estate-tax', { estateValue: 1, state: 'TX' }, { now });
    expect(outcome.ok && outcome.result.notes.join(' ')).toMatch(/TX has no state estate tax/);
  });
});

describe('state estate taxes at their edges', () => {
  it.each([
    ['CT', 15_000_000, 0],
    ['CT', 15_000_001, 0.12],
    ['CT', 16_000_000, 120_000],
    ['CT', 200_000_000, 15_000_000], // the $15M cap
    ['DC', 4_988_400, 0],
    ['DC', 4_988_401, 0.11],
    ['DC', 6_000_000, 121_299.2],
    ['DC', 11_000_000, 11_600 * 0.112 + 120_000 + 128_000 + 136_000 + 144_000 + 152_000 + 160_000],
    ['HI', 5_490_000, 0],
    ['HI', 6_490_000, 100_000],
    ['HI', 15_490_000, 1_385_000],
    ['HI', 16_490_000, 1_585_000],
    ['MA', 2_000_000, 0],
    ['MA', 2_000_001, 0.07],
    ['MA', 3_000_000, 82_400],
    ['ME', 7_160_000, 0],
    ['ME', 8_160_000, 80_000],
    ['ME', 10_160_000, 240_000],
    ['ME', 11_160_000, 340_000],
    ['MD', 5_000_000, 0],
    ['MD', 6_000_000, 160_000],
    ['MN', 3_000_000, 0],
    ['MN', 4_000_000, 130_000],
    ['MN', 10_100_000, 923_000],
    ['MN', 11_100_000, 1_059_000],
    ['OR', 1_000_000, 0],
    ['OR', 1_000_001, 0.1],
    ['OR', 1_500_000, 50_000],
    ['OR', 2_000_000, 101_250],
    ['OR', 10_500_000, 1_182_500],
    ['RI', 1_838_056, 0],
    ['RI', 2_000_000, 11_660],
    ['VT', 5_000_000, 0],
    ['VT', 6_000_000, 160_000],
    ['WA', 3_076_000, 0],
    ['WA', 4_076_000, 100_000],
    ['WA', 12_076_000, 1_930_000],
    ['WA', 13_076_000, 2_280_000],
  ])('%s %d → stateTax %d', (state, estateValue, stateTax) => {
    expect(outputs({ state, estateValue }).stateTax).toBeCloseTo(stateTax, 2);
  });

  it('applies the §2058 deduction by default and shows it as a line item; off when asked', () => {
    const withDeduction = runCalculator('estate-tax', { state: 'CT', estateValue: 16_000_000 }, { now });
    const without = runCalculator(
      'estate-tax',
      { state: 'CT', estateValue: 16_000_000, applyStateDeathTaxDeduction: false },
      { now },
    );
    if (!withDeduction.ok || !without.ok) throw new Error('refused');
    expect(withDeduction.result.outputs).toMatchObject({
      stateTax: 120_000,
      federalTax: 352_000,
      totalTax: 472_000,
    });
    expect(without.result.outputs).toMatchObject({
      stateTax: 120_000,
      federalTax: 400_000,
      totalTax: 520_000,
    });
    expect(withDeduction.result.lineItems).toContainEqual({
      label: 'State death tax deduction (IRC §2058)',
      amount: -120_000,
      kind: 'deduction',
    });
    expect(without.result.lineItems.some((l) => l.kind === 'deduction')).toBe(false);
  });

  it('marks Illinois as an estimate that stays between zero and a flat 16%', () => {
    expect(outputs({ state: 'IL', estateValue: 4_000_000 }).stateTax).toBe(0);
    const out = outputs({ state: 'IL', estateValue: 6_000_000 });
    expect(out.estimate).toBe(true);
    expect(out.stateTax).toBeGreaterThan(0);
    expect(out.stateTax).toBeLessThan(0.16 * 6_000_000);
  });
});

describe('New York cliff (§952(c), exclusion $7,350,000)', () => {
  const T = (e: number) => (e <= 7_100_000 ? Number.NaN : 650_800 + 0.136 * (e - 7_100_000));
  it.each([
    [7_000_000, 0],
    [7_350_000, 0],
    [7_350_001, 2],
    [7_533_750, 709_790 - 342_400],
    [7_500_000, 299_910.2],
    [
      7_717_499,
      Math.round((T(7_717_499) - (684_800 * (21 * 7_350_000 - 20 * 7_717_499)) / 7_350_000) * 100) / 100,
    ],
    [7_717_500, 734_780],
    [8_000_000, 773_200],
    [10_000_000, 1_067_600],
    [12_000_000, 1_082_800 + 0.16 * 1_900_000],
  ])('%d → stateTax %d', (estateValue, stateTax) => {
    expect(outputs({ state: 'NY', estateValue }).stateTax).toBeCloseTo(stateTax, 2);
  });

  it('never decreases across the whole cliff', () => {
    let previous = -1;
    for (let e = 7_300_000; e <= 7_800_000; e += 2_500) {
      const tax = outputs({ state: 'NY', estateValue: e }).stateTax!;
      expect(tax).toBeGreaterThanOrEqual(previous);
      previous = tax;
    }
  });
});

describe('estate-tax properties', () => {
  const cents = fc.integer({ min: 0, max: 5_000_000_000 }).map((c) => c / 100);
  const state = fc.constantFrom(...ESTATE_TAX_STATES, 'FL', 'TX', 'CA');

  it('gives finite, non-negative figures that add up, for any valid input', () => {
    fc.assert(
      fc.property(cents, state, cents, cents, fc.boolean(), (estateValue, st, gifts, dsue, deduct) => {
        const out = outputs({
          estateValue,
          state: st,
          adjustedTaxableGifts: gifts,
          portableExclusion: dsue,
          applyStateDeathTaxDeduction: deduct,
        });
        for (const key of ['federalTax', 'stateTax', 'totalTax', 'effectiveRate']) {
          expect(Number.isFinite(out[key])).toBe(true);
          expect(out[key]).toBeGreaterThanOrEqual(0);
        }
        expect(Math.round(out.totalTax! * 100)).toBe(
          Math.round(out.federalTax! * 100) + Math.round(out.stateTax! * 100),
        );
        expect(Math.round(out.totalTax! * 100) / 100).toBe(out.totalTax);
      }),
      { numRuns: 400 },
    );
  });

  it('never charges less tax on a larger estate', () => {
    fc.assert(
      fc.property(cents, cents, state, (a, b, st) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(outputs({ estateValue: hi, state: st }).totalTax).toBeGreaterThanOrEqual(
          outputs({ estateValue: lo, state: st }).totalTax!,
        );
      }),
      { numRuns: 400 },
    );
  });

  it('answers invalid input with field issues and never throws', () => {
    fc.assert(
      fc.property(fc.anything(), (junk) => {
        const outcome = runCalculator('estate-tax', junk, { now });
        if (!outcome.ok) expect(outcome.issues.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
    const outcome = runCalculator(
      'estate-tax',
      { estateValue: 1.234, state: 'ZZ', dateOfDeath: '2027-01-01' },
      { now },
    );
    expect(outcome.ok ? [] : outcome.issues.map((i) => i.path).sort()).toEqual([
      'dateOfDeath',
      'estateValue',
      'state',
    ]);
  });
});
