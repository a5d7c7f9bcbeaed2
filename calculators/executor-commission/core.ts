import { dollars, toDollars } from '../money.ts';
import { EXECUTOR_COMMISSION } from '../names.ts';
import { bands } from '../schedule.ts';
import { type CalculationResult, type CalculatorCore, DISCLAIMER, type RuleSet } from '../types.ts';
import type { CommissionInput } from './index.ts';

/** N.Y. SCPA §2307(1): on sums received and paid out. */
const TIERS = [
  [100_000, '5'],
  [300_000, '4'],
  [1_000_000, '3'],
  [5_000_000, '2.5'],
  [null, '2'],
] as const;

const COMMISSION_RULES: RuleSet = {
  id: 'ny-executor-commission-2026',
  taxYear: 2026,
  effectiveDate: '2026-01-01',
  sources: ['N.Y. Surrogate’s Court Procedure Act §2307'],
};

function compute(input: CommissionInput): CalculationResult {
  const commission = toDollars(bands(dollars(input.estateValue), TIERS));
  return {
    outputs: { commission },
    lineItems: [
      { label: 'Commissionable estate', amount: input.estateValue, kind: 'subtotal' },
      { label: 'Executor commission (SCPA §2307)', amount: commission, kind: 'total' },
    ],
    notes: [
      'One full commission. Where several executors serve, SCPA §2307 decides how many commissions are allowed and how they are shared.',
    ],
    ruleSet: COMMISSION_RULES,
    disclaimer: DISCLAIMER,
  };
}

/** Without its schema: what the widget bundles (`index.ts` adds the schema). */
export const executorCommissionCore: CalculatorCore<CommissionInput> = {
  ...EXECUTOR_COMMISSION,
  description: 'The statutory commission of an executor in New York (SCPA §2307).',
  disclaimer: DISCLAIMER,
  ruleSet: COMMISSION_RULES,
  inputLabels: { estateValue: 'Commissionable estate' },
  outputLabels: { commission: 'Executor commission' },
  compute,
};
