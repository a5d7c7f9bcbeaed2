import { z } from 'zod';
import { money, usState } from '../fields.ts';
import type { CalculatorDefinition } from '../types.ts';
import { ALL_CLASSES, INPUT_LABELS, inheritanceTaxCore } from './core.ts';
import { HEIR_CLASS_NAMES, HEIR_CLASSES, REFUSED } from './tables.ts';

export { HEIR_CLASSES } from './tables.ts';

const schema = z
  .object({
    state: usState(INPUT_LABELS.state),
    bequest: money(INPUT_LABELS.bequest, { description: 'Value this heir receives' }),
    heirClass: z
      .enum(ALL_CLASSES, { error: `Heir class must be one of ${ALL_CLASSES.join(', ')}` })
      .optional()
      .meta({
        label: INPUT_LABELS.heirClass,
        description: 'PA spouse|lineal|sibling|other; NJ A|C|D; NE close|remote|other; MD exempt|other',
        // The classes each state accepts, so that a form can narrow its choices.
        heirClassesByState: HEIR_CLASSES,
      }),
  })
  .superRefine((input, ctx) => {
    const refusal = REFUSED[input.state];
    if (refusal) {
      ctx.addIssue({ code: 'custom', path: ['state'], message: refusal });
      return;
    }
    const classes = HEIR_CLASSES[input.state as keyof typeof HEIR_CLASSES] as readonly string[] | undefined;
    if (classes && !classes.includes(input.heirClass ?? '')) {
      ctx.addIssue({
        code: 'custom',
        path: ['heirClass'],
        message: `For ${input.state} choose one of: ${classes.join(', ')}`,
      });
    }
  });

export type InheritanceInput = z.output<typeof schema>;

export const inheritanceTax: CalculatorDefinition<InheritanceInput> = {
  ...inheritanceTaxCore,
  inputSchema: schema,
  figures: {
    basis: 'bequest',
    computed: ['inheritanceTax'],
    main: 'inheritanceTax',
    money: ['bequest', 'inheritanceTax', 'netInheritance'],
    names: { heirClass: HEIR_CLASS_NAMES },
  },
};
