import { divRoundHalfUp, dollars } from '../money.ts';
import { RMD } from '../names.ts';
import { type CalculationResult, type CalculatorCore, DISCLAIMER, type RuleSet } from '../types.ts';
import type { RmdInput } from './index.ts';
import { lifetimeFactor, TABLE_SOURCE } from './uniform-lifetime-table.ts';

/** SECURE 2.0 §107: required beginning age 73 (75 for those reaching 74 after 2032). */
export const RMD_START_AGE = 73;

const RMD_RULES: RuleSet = {
  id: 'rmd-2026',
  taxYear: 2026,
  effectiveDate: '2026-01-01',
  sources: [TABLE_SOURCE, 'IRC §401(a)(9)(C) as amended by SECURE 2.0 §107'],
};

function compute(input: RmdInput): CalculationResult {
  const factor = lifetimeFactor(input.age);
  // balance / factor with the factor as tenths: exact, then half-up to cents.
  const cents = divRoundHalfUp(dollars(input.balance) * 10n, BigInt(Math.round(factor * 10)) * 10_000n);
  const rmd = Number(cents) / 100;
  return {
    outputs: { rmd, factor, balance: input.balance },
    lineItems: [
      { label: 'Balance on 31 December', amount: input.balance, kind: 'subtotal' },
      { label: `Required minimum distribution (÷ ${factor.toFixed(1)})`, amount: rmd, kind: 'total' },
    ],
    notes: [
      `Required minimum distributions start at age ${RMD_START_AGE} (75 for those reaching 74 after 2032); younger ages are refused.`,
      'Uses the Uniform Lifetime Table; an owner whose sole beneficiary is a spouse more than 10 years younger uses the Joint and Last Survivor Table instead.',
    ],
    ruleSet: RMD_RULES,
    disclaimer: DISCLAIMER,
  };
}

/** Without its schema: what the widget bundles (`index.ts` adds the schema). */
export const rmdCore: CalculatorCore<RmdInput> = {
  ...RMD,
  description:
    'This year’s required minimum distribution from an IRA or plan account (Uniform Lifetime Table).',
  disclaimer: DISCLAIMER,
  ruleSet: RMD_RULES,
  inputLabels: { balance: 'Balance on 31 December of last year', age: 'Age at birthday this year' },
  outputLabels: {
    rmd: 'Required minimum distribution',
    factor: 'Life expectancy factor',
    balance: 'Balance',
  },
  compute,
};
