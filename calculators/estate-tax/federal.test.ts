import { describe, expect, it } from 'vitest';
import { compute, outputsOf } from '../testing.ts';
import { applicableCredit } from './federal.ts';
import { basicExclusionOn } from './federal-tables.ts';

// Florida has no estate tax, so these are federal figures alone. T(x) is the §2001(c) schedule:
// above $1M, T(x) = 345,800 + 40% × (x − 1,000,000); the 2026 credit is T(15M) = 5,945,800.
describe('federal estate tax (FL, no state tax)', () => {
  it.each([
    ['zero estate', { estateValue: 0 }, 0],
    ['one cent', { estateValue: 0.01 }, 0],
    ['exactly the exclusion', { estateValue: 15_000_000 }, 0],
    ['one dollar above', { estateValue: 15_000_001 }, 0.4],
    ['$16M: T(16M) − 5,945,800', { estateValue: 16_000_000 }, 400_000],
    ['$20M', { estateValue: 20_000_000 }, 2_000_000],
    ['far above: $100M', { estateValue: 100_000_000 }, 34_000_000],
    ['a cent above rounds 0.004 down', { estateValue: 15_000_000.01 }, 0],
    ['two cents above round 0.008 up', { estateValue: 15_000_000.02 }, 0.01],
    ['gifts push the estate over', { estateValue: 15_000_000, adjustedTaxableGifts: 1_000_000 }, 400_000],
    ['gifts alone, no estate', { estateValue: 0, adjustedTaxableGifts: 16_000_000 }, 400_000],
    ['DSUE doubles the exclusion', { estateValue: 30_000_000, portableExclusion: 15_000_000 }, 0],
    ['one dollar above a doubled exclusion', { estateValue: 30_000_001, portableExclusion: 15_000_000 }, 0.4],
    ['partial DSUE', { estateValue: 25_000_000, portableExclusion: 5_000_000 }, 2_000_000],
    ['DSUE capped at the BEA', { estateValue: 31_000_000, portableExclusion: 20_000_000 }, 400_000],
  ])('%s → federalTax %d', (_case, inputs, federalTax) => {
    const out = outputsOf('estate-tax', { state: 'FL', ...inputs });
    expect(out.federalTax).toBe(federalTax);
    expect(out.stateTax).toBe(0);
    expect(out.totalTax).toBe(federalTax);
  });

  it('shows the computation as line items that add up', () => {
    const { lineItems, outputs } = compute('estate-tax', { state: 'FL', estateValue: 16_000_000 });
    const amount = (label: RegExp) => lineItems.find((l) => label.test(l.label))?.amount;
    expect(amount(/^Tentative tax/)).toBe(6_345_800);
    expect(amount(/^Applicable credit/)).toBe(-5_945_800);
    expect(amount(/^Federal estate tax/)).toBe(outputs.federalTax);
    expect(lineItems.at(-1)).toMatchObject({ kind: 'total', amount: outputs.totalTax });
  });

  it('reports the DSUE cap, the exclusion used and the zero gift tax assumption in its outputs and notes', () => {
    const capped = compute('estate-tax', { state: 'FL', estateValue: 1, portableExclusion: 20_000_000 });
    expect(capped.outputs.federalExclusion).toBe(30_000_000);
    expect(capped.notes.some((n) => n.includes('DSUE'))).toBe(true);
    const gifts = compute('estate-tax', { state: 'FL', estateValue: 1, adjustedTaxableGifts: 1 });
    expect(gifts.notes.some((n) => n.includes('Gift tax'))).toBe(true);
  });
});

// The applicable credit is computed from the basic exclusion by the rate schedule, never typed:
// T(x) = 345,800 + 40 % × (x − 1,000,000) above $1M.
describe('the applicable credit, recomputed from the rule', () => {
  it.each([
    [15_000_000, 5_945_800],
    // A 2027 amount, once published, gives its own credit with no other change (e.g. $15,480,000).
    [15_480_000, 6_137_800],
    [1_000_000, 345_800],
  ])('T(%d) = %d', (bea, credit) => {
    expect(applicableCredit(bea)).toBe(credit);
  });

  it.each(['2026-12-31', '2027-01-01'])(
    'a death on %s uses the credit of the basic exclusion in force',
    (dateOfDeath) => {
      const { lineItems } = compute('estate-tax', { state: 'FL', estateValue: 16_000_000, dateOfDeath });
      const credit = lineItems.find((l) => /^Applicable credit/.test(l.label))?.amount;
      expect(credit).toBe(-applicableCredit(basicExclusionOn(dateOfDeath).amount));
    },
  );
});
