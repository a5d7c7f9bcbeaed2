import { addDollars, dollars, min, toDollars } from '../money.ts';
import { PROBATE_FEES } from '../names.ts';
import { bands } from '../schedule.ts';
import { type CalculationResult, type CalculatorCore, DISCLAIMER, type RuleSet } from '../types.ts';
import type { ProbateInput } from './index.ts';

/** Cal. Prob. Code §10800 / §10810: the same tiers, paid to the representative and the attorney each. */
const TIERS = [
  [100_000, '4'],
  [200_000, '3'],
  [1_000_000, '2'],
  [10_000_000, '1'],
  [25_000_000, '0.5'],
] as const;
const CAP = 25_000_000;

const PROBATE_RULES: RuleSet = {
  id: 'ca-probate-fees-2026',
  taxYear: 2026,
  effectiveDate: '2026-01-01',
  sources: ['Cal. Prob. Code §10800 (personal representative)', 'Cal. Prob. Code §10810 (attorney)'],
};

function compute(input: ProbateInput): CalculationResult {
  const base = dollars(input.estateValue);
  const fee = toDollars(bands(min(base, dollars(CAP)), TIERS));
  const courtSetAboveCap = input.estateValue > CAP;
  const notes = ['Base is the gross inventory value: mortgages and other debts are not deducted.'];
  if (courtSetAboveCap) {
    notes.push(
      'Above $25,000,000 the court sets a reasonable amount for the excess (Prob. Code §10800, §10810); this calculator does not estimate it. The fees shown are for the first $25,000,000 only.',
    );
  }
  const totalFees = addDollars(fee, fee);
  return {
    outputs: { attorneyFee: fee, executorFee: fee, totalFees, courtSetAboveCap },
    lineItems: [
      { label: 'Estate value for fees', amount: input.estateValue, kind: 'subtotal' },
      { label: 'Personal representative (§10800)', amount: fee, kind: 'fee' },
      { label: 'Attorney (§10810)', amount: fee, kind: 'fee' },
      { label: 'Total statutory fees', amount: totalFees, kind: 'total' },
    ],
    notes,
    ruleSet: PROBATE_RULES,
    disclaimer: DISCLAIMER,
  };
}

/** Without its schema: what the widget bundles (`index.ts` adds the schema). */
export const probateFeesCore: CalculatorCore<ProbateInput> = {
  ...PROBATE_FEES,
  description: 'Statutory fees of the personal representative and the attorney in a California probate.',
  disclaimer: DISCLAIMER,
  ruleSet: PROBATE_RULES,
  inputLabels: { estateValue: 'Estate value for fees' },
  outputLabels: {
    attorneyFee: 'Attorney fee',
    executorFee: 'Executor fee',
    totalFees: 'Total fees',
    courtSetAboveCap: 'Court sets fee above $25M',
  },
  compute,
};
