import { describe, expect, it } from 'vitest';
import { US_STATES } from '../fields.ts';
import { compute, issuePaths, outputsOf } from '../testing.ts';

describe('§2058 state death tax deduction', () => {
  // CT $16M: state 12% × 1M = 120,000. With: federal 40% × (15,880,000 − 15M) = 352,000.
  // NY $20M: state 1,082,800 + 16% × 9.9M = 2,666,800. With: 40% × 2,333,200 = 933,280.
  // MA $15.5M: state C(15,440,000) − 99,600 = 1,847,200, which takes the federal base below the BEA.
  it.each([
    ['CT', 16_000_000, true, 120_000, 352_000, 472_000, 0.0295],
    ['CT', 16_000_000, false, 120_000, 400_000, 520_000, 0.0325],
    ['NY', 20_000_000, true, 2_666_800, 933_280, 3_600_080, 0.18],
    ['NY', 20_000_000, false, 2_666_800, 2_000_000, 4_666_800, 0.2333],
    ['MA', 15_500_000, true, 1_847_200, 0, 1_847_200, 0.1192],
    ['MA', 15_500_000, false, 1_847_200, 200_000, 2_047_200, 0.1321],
  ])(
    '%s %d, deduction %s → state %d, federal %d, total %d, rate %d',
    (state, estateValue, apply, st, fed, total, rate) => {
      const out = outputsOf('estate-tax', { state, estateValue, applyStateDeathTaxDeduction: apply });
      expect(out).toMatchObject({ stateTax: st, federalTax: fed, totalTax: total, effectiveRate: rate });
      expect(out.stateDeathTaxDeduction).toBe(apply ? st : 0);
    },
  );

  it('is applied by default and shown as a line item, and absent when turned off', () => {
    const on = compute('estate-tax', { state: 'CT', estateValue: 16_000_000 });
    expect(on.lineItems).toContainEqual(expect.objectContaining({ kind: 'deduction', amount: -120_000 }));
    expect(on.lineItems).toContainEqual(expect.objectContaining({ kind: 'subtotal', amount: 15_880_000 }));
    const off = compute('estate-tax', {
      state: 'CT',
      estateValue: 16_000_000,
      applyStateDeathTaxDeduction: false,
    });
    expect(off.lineItems.some((l) => l.kind === 'deduction')).toBe(false);
  });
});

describe('states, dates and rule sets', () => {
  it.each(US_STATES)('accepts %s', (state) => {
    const result = compute('estate-tax', { state, estateValue: 1_000_000 });
    expect(result.outputs.stateTax).toBeGreaterThanOrEqual(0);
    // The test clock is 15 June 2026: Washington's first-half rules, everyone else's 2026 rules.
    expect(result.ruleSet).toMatchObject({ taxYear: 2026, effectiveDate: '2026-01-01' });
  });

  it('says so when the state has no estate tax, and names the state rules when it has one', () => {
    const tx = compute('estate-tax', { state: 'TX', estateValue: 20_000_000 });
    expect(tx.outputs.stateTax).toBe(0);
    expect(tx.notes.some((n) => n.startsWith('TX has no state estate tax'))).toBe(true);
    const wa = compute('estate-tax', { state: 'WA', estateValue: 20_000_000 });
    expect(wa.ruleSet.id).toBe('estate-tax-2026+WA-2026-01-01');
    expect(wa.ruleSet.sources.some((s) => s.includes('RCW 83.100.020'))).toBe(true);
  });

  it.each(['2026-01-01', '2026-12-31', '2026-02-28', '2027-01-01', '2027-12-31'])(
    'accepts a death on %s',
    (dateOfDeath) => {
      expect(outputsOf('estate-tax', { state: 'WA', estateValue: 1, dateOfDeath }).dateOfDeath).toBe(
        dateOfDeath,
      );
    },
  );

  it.each(['2025-12-31', '2028-01-01', '2026-02-29', '2026-13-01', 'today', 20260101])(
    'refuses a date of death of %j with a field error',
    (dateOfDeath) => {
      expect(issuePaths('estate-tax', { state: 'NY', estateValue: 1, dateOfDeath })).toEqual(['dateOfDeath']);
    },
  );

  it.each([
    ['2026-03-01T00:30:00Z', '2026-03-01', false],
    ['2027-02-01T12:00:00Z', '2027-02-01', false],
    ['2028-02-01T12:00:00Z', '2027-12-31', true],
    ['2025-05-01T12:00:00Z', '2026-01-01', true],
  ])('without a date, a clock at %s uses the rules of %s (note: %s)', (now, date, noted) => {
    const result = compute('estate-tax', { state: 'NY', estateValue: 1 }, new Date(now));
    expect(result.outputs.dateOfDeath).toBe(date);
    expect(result.notes.some((n) => n.startsWith('No date of death'))).toBe(noted);
  });

  it('names the figures confirmed by secondary sources only in a note for the firm', () => {
    for (const state of ['DC', 'ME', 'NY', 'RI']) {
      expect(compute('estate-tax', { state, estateValue: 1 }).notes.join(' ')).toContain('[unverified]');
    }
    for (const state of ['OR', 'HI', 'WA']) {
      expect(compute('estate-tax', { state, estateValue: 1 }).notes.join(' ')).not.toContain('[unverified]');
    }
  });
});

describe('invalid inputs', () => {
  it.each([
    [{ estateValue: 1.234, state: 'NY' }, ['estateValue']],
    [{ estateValue: -1, state: 'NY' }, ['estateValue']],
    [{ estateValue: Number.NaN, state: 'NY' }, ['estateValue']],
    [{ estateValue: 1e12 + 1, state: 'NY' }, ['estateValue']],
    [{ estateValue: '100', state: 'NY' }, ['estateValue']],
    [{ state: 'NY' }, ['estateValue']],
    [{ estateValue: 1, state: 'ny' }, ['state']],
    [{ estateValue: 1, state: 'PR' }, ['state']],
    [
      { estateValue: 1, state: 'NY', portableExclusion: 0.001, adjustedTaxableGifts: -5 },
      ['adjustedTaxableGifts', 'portableExclusion'],
    ],
    [{ estateValue: 1, state: 'NY', applyStateDeathTaxDeduction: 'yes' }, ['applyStateDeathTaxDeduction']],
    [null, ['(inputs)']],
  ])('%j → issues at %j', (inputs, paths) => {
    expect(issuePaths('estate-tax', inputs)).toEqual(paths);
  });

  it('accepts the largest amount', () => {
    expect(outputsOf('estate-tax', { estateValue: 1e12, state: 'CT' }).stateTax).toBe(15_000_000);
  });
});
