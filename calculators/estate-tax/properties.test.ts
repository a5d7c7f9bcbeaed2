import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { US_STATES } from '../fields.ts';
import { runCalculator } from '../index.ts';
import { cents, NOW, outputsOf } from '../testing.ts';
import { estateTaxStates } from './state-tax.ts';

const money = fc.bigInt({ min: 0n, max: 100_000_000_000_000n }).map((c) => Number(c) / 100);
const modest = fc.integer({ min: 0, max: 5_000_000_000 }).map((c) => c / 100);
const state = fc.constantFrom(...US_STATES);
const taxState = fc.constantFrom(...estateTaxStates());
const run = (inputs: Record<string, unknown>) => outputsOf('estate-tax', inputs);

describe('estate-tax properties', () => {
  it('gives finite, non-negative, whole-cent figures with totalTax = federalTax + stateTax', () => {
    fc.assert(
      fc.property(money, state, modest, modest, fc.boolean(), (estateValue, st, gifts, dsue, apply) => {
        const out = run({
          estateValue,
          state: st,
          adjustedTaxableGifts: gifts,
          portableExclusion: dsue,
          applyStateDeathTaxDeduction: apply,
        });
        for (const key of ['federalTax', 'stateTax', 'totalTax', 'effectiveRate'] as const) {
          expect(Number.isFinite(out[key])).toBe(true);
          expect(out[key]).toBeGreaterThanOrEqual(0);
        }
        for (const key of ['federalTax', 'stateTax', 'totalTax'] as const) {
          expect(cents(out[key]!) / 100).toBe(out[key]);
        }
        expect(cents(out.totalTax!)).toBe(cents(out.federalTax!) + cents(out.stateTax!));
        expect(Math.round(out.effectiveRate! * 10_000) / 10_000).toBe(out.effectiveRate);
      }),
      { numRuns: 500 },
    );
  });

  // No statute here makes a larger estate owe less total tax. (The NY cliff can make the estate
  // left after tax smaller, because its marginal rate exceeds 100%, but the tax itself rises.)
  it('never charges less state or total tax on a larger estate', () => {
    fc.assert(
      fc.property(money, money, taxState, modest, modest, fc.boolean(), (a, b, st, gifts, dsue, apply) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const common = {
          state: st,
          adjustedTaxableGifts: gifts,
          portableExclusion: dsue,
          applyStateDeathTaxDeduction: apply,
        };
        const low = run({ ...common, estateValue: lo });
        const high = run({ ...common, estateValue: hi });
        expect(high.stateTax).toBeGreaterThanOrEqual(low.stateTax!);
        expect(high.totalTax).toBeGreaterThanOrEqual(low.totalTax!);
      }),
      { numRuns: 500 },
    );
  });

  it.each(estateTaxStates())('%s: total tax rises step by step from $0 to $30M', (st) => {
    let previous = { stateTax: -1, totalTax: -1 };
    for (let e = 0; e <= 30_000_000; e += 25_000) {
      const out = run({ state: st, estateValue: e });
      expect(out.stateTax).toBeGreaterThanOrEqual(previous.stateTax);
      expect(out.totalTax).toBeGreaterThanOrEqual(previous.totalTax);
      previous = { stateTax: out.stateTax!, totalTax: out.totalTax! };
    }
  });

  it('answers any input with a result or field issues, never an exception', () => {
    fc.assert(
      fc.property(fc.anything(), (junk) => {
        const outcome = runCalculator('estate-tax', junk, { now: NOW });
        if (!outcome.ok) expect(outcome.issues.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it('gives a field issue at the right path for each bad amount', () => {
    const bad = fc.oneof(
      fc.double({ noNaN: false }).filter((d) => !(d >= 0 && d <= 1e12 && cents(d) / 100 === d)),
      fc.string(),
      fc.constant(null),
    );
    fc.assert(
      fc.property(bad, (estateValue) => {
        const outcome = runCalculator('estate-tax', { estateValue, state: 'NY' }, { now: NOW });
        expect(outcome.ok ? [] : outcome.issues.map((i) => i.path)).toContain('estateValue');
      }),
      { numRuns: 300 },
    );
  });
});
