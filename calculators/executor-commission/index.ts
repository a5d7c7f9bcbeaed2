import { z } from 'zod';
import { money } from '../fields.ts';
import type { CalculatorDefinition } from '../types.ts';
import { executorCommissionCore } from './core.ts';

const schema = z.object({
  estateValue: money('Commissionable estate', { description: 'Sums received and paid out by the executor' }),
});

export type CommissionInput = z.output<typeof schema>;

export const executorCommission: CalculatorDefinition<CommissionInput> = {
  ...executorCommissionCore,
  inputSchema: schema,
  figures: {
    basis: 'estateValue',
    computed: ['commission'],
    main: 'commission',
    money: ['estateValue', 'commission'],
  },
};
