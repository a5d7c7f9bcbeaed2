import { z } from 'zod';
import { dateIn, money, usState } from '../fields.ts';
import { COVERAGE, INPUT_LABELS } from './labels.ts';

export const estateTaxSchema = z.object({
  estateValue: money(INPUT_LABELS.estateValue, {
    description:
      'Gross estate less deductions (debts, expenses, marital and charitable), before any state death tax deduction',
  }),
  state: usState(INPUT_LABELS.state),
  adjustedTaxableGifts: money(INPUT_LABELS.adjustedTaxableGifts, {
    default: 0,
    description: 'Taxable gifts made after 1976, other than those included in the estate',
  }),
  portableExclusion: money(INPUT_LABELS.portableExclusion, {
    default: 0,
    description: 'Unused exclusion of a predeceased spouse (portability); capped at the basic exclusion',
  }),
  dateOfDeath: dateIn(INPUT_LABELS.dateOfDeath, COVERAGE)
    .optional()
    .meta({ description: 'Selects the rule set; 2026 or 2027. Leave empty for today.' }),
  applyStateDeathTaxDeduction: z.boolean().default(true).meta({
    label: INPUT_LABELS.applyStateDeathTaxDeduction,
    description: 'Deduct the state estate tax from the federal taxable estate',
  }),
});

export type EstateTaxInput = z.output<typeof estateTaxSchema>;
