import { describe, expect, it } from 'vitest';
import { runCalculator } from '../../../calculators/index.ts';
import { leadValue, priorityOf, type RatedResult, rateLead, shortUsd } from './lead-priority.ts';

const NOW = new Date('2026-09-01T12:00:00Z');

/** A result as the server stores it: the calculator's real figures and the rule set it named. */
function stored(calculator: string, inputs: Record<string, unknown>): RatedResult {
  const run = runCalculator(calculator, inputs, { now: NOW });
  if (!run.ok) throw new Error(JSON.stringify(run.issues));
  return {
    calculator,
    state: typeof inputs.state === 'string' ? inputs.state : null,
    inputs: run.inputs,
    outputs: run.result.outputs,
    ruleSet: run.result.ruleSet as unknown as Record<string, unknown>,
  };
}

const rate = (calculator: string, inputs: Record<string, unknown>) => {
  const rating = rateLead(stored(calculator, inputs));
  return { ...rating, level: priorityOf(rating)?.level };
};

describe('shortUsd', () => {
  it('says amounts as a person does', () => {
    expect([12_000_000, 1_538_000, 3_076_000, 300_000, 2_500, 850, 0].map(shortUsd)).toEqual([
      '$12M',
      '$1.54M',
      '$3.08M',
      '$300K',
      '$2.5K',
      '$850',
      '$0',
    ]);
  });
});

describe('estate tax priority, at the rule boundaries', () => {
  const estate = (estateValue: number, state = 'WA', dateOfDeath = '2026-08-01') =>
    rate('estate-tax', { estateValue, state, dateOfDeath });

  it('names the state’s exemption and the tax at stake (the issue’s example)', () => {
    const r = estate(12_000_000);
    expect(r.level).toBe('high');
    expect(r.priorityReasons![0]).toMatch(
      /^Estate of \$12M is \$9M over Washington’s \$3M exemption; about \$[\d.]+M in state tax at stake\.$/,
    );
    expect(r.priorityVersion).toBe('estate-tax.1');
    expect(r.valueAmount).toBeGreaterThan(1_000_000);
  });

  it('uses the thresholds of the rule set the result names, not today’s', () => {
    // The first half of 2026 had Washington's $3,076,000 exclusion; the second half $3,000,000.
    expect(estate(3_050_000, 'WA', '2026-03-01').priorityReasons![0]).toContain(
      'within $26K of Washington’s $3.08M exemption',
    );
    expect(estate(3_050_000, 'WA', '2026-08-01').priorityReasons![0]).toContain(
      '$50K over Washington’s $3M exemption',
    );
  });

  it('is low below 80 % of every exemption, medium from 80 %, medium with any tax, high from $250,000 of tax', () => {
    expect(estate(2_399_999).level).toBe('low');
    expect(estate(2_399_999).priorityReasons).toEqual([
      'Estate of $2.4M is below Washington’s $3M exemption and the $15M federal exclusion; no estate tax at stake.',
    ]);
    expect(estate(2_400_000).level).toBe('medium');
    expect(estate(3_000_000).level).toBe('medium');
    expect(estate(3_000_010).level).toBe('medium');
    // Washington from 1 July 2026: 10 %, 14 %, then 15 % on the excess → $250,000 at $5,066,666.67.
    const tax = (estateValue: number) =>
      stored('estate-tax', { estateValue, state: 'WA', dateOfDeath: '2026-08-01' }).outputs.totalTax;
    expect(tax(5_066_666.67)).toBe(250_000);
    expect(tax(5_066_666.6)).toBe(249_999.99);
    expect(estate(5_066_666.67).level).toBe('high');
    expect(estate(5_066_666.6).level).toBe('medium');
  });

  it('in a state without estate tax, only the federal exclusion counts', () => {
    expect(estate(11_999_999, 'TX').level).toBe('low');
    expect(estate(12_000_000, 'TX').level).toBe('medium');
    expect(estate(12_000_000, 'TX').priorityReasons).toEqual([
      'Texas has no state estate tax.',
      'Estate of $12M is within $3M of the $15M federal exclusion.',
    ]);
    expect(estate(15_000_000, 'TX').level).toBe('medium');
    const over = estate(15_000_100, 'TX');
    expect(over.level).toBe('high');
    expect(over.priorityReasons![1]).toBe(
      'Estate of $15M is $100 over the $15M federal exclusion; about $40 in federal tax at stake.',
    );
  });

  it('reads Oregon’s threshold from its table and New York’s exclusion', () => {
    expect(estate(999_999, 'OR').priorityReasons![0]).toContain('within $1 of Oregon’s $1M exemption');
    expect(estate(7_000_000, 'NY').priorityReasons![0]).toContain('New York’s $7.35M exemption');
  });
});

describe('the other calculators’ rules, at their boundaries', () => {
  it('inheritance tax: high from $50,000, medium with any tax, low with none', () => {
    // Pennsylvania, siblings: 12 %.
    expect(rate('inheritance-tax', { state: 'PA', bequest: 416_667, heirClass: 'sibling' }).level).toBe(
      'high',
    );
    expect(rate('inheritance-tax', { state: 'PA', bequest: 416_666, heirClass: 'sibling' }).level).toBe(
      'medium',
    );
    const none = rate('inheritance-tax', { state: 'PA', bequest: 500_000, heirClass: 'spouse' });
    expect(none.level).toBe('low');
    expect(none.priorityReasons).toEqual(['No Pennsylvania inheritance tax on this inheritance of $500K.']);
  });

  it('probate fees: high from $100,000 of fees, medium from $30,000', () => {
    const fees = (estateValue: number) => rate('probate-fees', { estateValue });
    // California: $30,000 of fees (both) at a $600,000 estate, $100,000 at $3,700,000.
    expect(stored('probate-fees', { estateValue: 600_000 }).outputs.totalFees).toBe(30_000);
    expect(stored('probate-fees', { estateValue: 3_700_000 }).outputs.totalFees).toBe(100_000);
    const levels = [599_999, 600_000, 3_699_999, 3_700_000].map((v) => fees(v).level);
    expect(levels).toEqual(['low', 'medium', 'medium', 'high']);
    const high = fees(25_000_000);
    expect(high.level).toBe('high');
    expect(high.priorityReasons![0]).toMatch(
      /^About \$[\d.]+K in statutory probate fees on an estate of \$25M\.$/,
    );
  });

  it('executor commission: high from $100,000, medium from $25,000', () => {
    const at = (estateValue: number) => rate('executor-commission', { estateValue });
    const commission = (estateValue: number) =>
      stored('executor-commission', { estateValue }).outputs.commission as number;
    // SCPA §2307: 5 %, 4 %, 3 %, 2.5 %, 2 % → $25,000 at $700,000; $100,000 at $3,640,000.
    expect([commission(700_000), commission(3_640_000)]).toEqual([25_000, 100_000]);
    expect([699_999, 700_000, 3_639_999, 3_640_000].map((v) => at(v).level)).toEqual([
      'low',
      'medium',
      'medium',
      'high',
    ]);
  });

  it('RMD: high from a $2,000,000 balance, medium from $500,000', () => {
    const at = (balance: number) => rate('rmd', { balance, age: 75 });
    expect([499_999, 500_000, 1_999_999, 2_000_000].map((b) => at(b).level)).toEqual([
      'low',
      'medium',
      'medium',
      'high',
    ]);
  });
});

describe('value and not computed', () => {
  it('is the calculator’s declared main figure with its label', () => {
    expect(leadValue(stored('probate-fees', { estateValue: 1_000_000 }))).toEqual({
      figure: 'totalFees',
      label: expect.any(String),
      amount: 46_000,
    });
  });

  it('a lead without a result, or an unknown calculator, is not rated (nulls, never a guess)', () => {
    const none = { valueAmount: null, priorityRank: null, priorityReasons: null, priorityVersion: null };
    expect(rateLead(null)).toEqual(none);
    expect(rateLead({ calculator: 'gone', state: null, inputs: {}, outputs: { x: 1 } })).toEqual(none);
    expect(priorityOf(none)).toBeUndefined();
  });

  it('a priority rated by an older rule table reads as not rated yet', () => {
    expect(
      priorityOf({ priorityRank: 3, priorityReasons: ['x'], priorityVersion: 'estate-tax.0' }),
    ).toBeUndefined();
    expect(priorityOf({ priorityRank: 3, priorityReasons: ['x'], priorityVersion: 'estate-tax.1' })).toEqual({
      level: 'high',
      reasons: ['x'],
      ruleVersion: 'estate-tax.1',
    });
  });
});
