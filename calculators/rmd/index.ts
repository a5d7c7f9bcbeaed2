import { z } from 'zod';
import { money } from '../fields.ts';
import type { CalculatorDefinition } from '../types.ts';
import { RMD_START_AGE, rmdCore } from './core.ts';

const schema = z.object({
  balance: money('Balance on 31 December of last year'),
  age: z
    .number({ error: 'Age must be a number' })
    .int('Age must be a whole number')
    .min(
      RMD_START_AGE,
      `Required minimum distributions start at age ${RMD_START_AGE} (75 for those reaching 74 after 2032)`,
    )
    .max(130, 'Age must be 130 or less')
    .meta({ label: 'Age at birthday this year', unit: 'years' }),
});

export type RmdInput = z.output<typeof schema>;

export const rmd: CalculatorDefinition<RmdInput> = {
  ...rmdCore,
  inputSchema: schema,
  figures: { basis: 'balance', computed: ['rmd'], main: 'rmd', money: ['balance', 'rmd'] },
};
