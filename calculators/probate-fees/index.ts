import { z } from 'zod';
import { money } from '../fields.ts';
import type { CalculatorDefinition } from '../types.ts';
import { probateFeesCore } from './core.ts';

const schema = z.object({
  estateValue: money('Estate value for fees', {
    description:
      'Gross inventory value plus gains on sales, minus losses, plus receipts; mortgages are not deducted',
  }),
});

export type ProbateInput = z.output<typeof schema>;

export const probateFees: CalculatorDefinition<ProbateInput> = {
  ...probateFeesCore,
  inputSchema: schema,
  figures: {
    basis: 'estateValue',
    computed: ['attorneyFee', 'executorFee', 'totalFees'],
    main: 'totalFees',
    money: ['estateValue', 'attorneyFee', 'executorFee', 'totalFees'],
  },
};
