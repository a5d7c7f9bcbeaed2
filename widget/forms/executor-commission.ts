import { t } from '../i18n/t.ts';
import type { FormSpec } from './types.ts';
import { about, num } from './words.ts';

export const executorCommissionForm: FormSpec = {
  lede: 'See the commission New York law allows an executor for handling an estate.',
  fields: [
    {
      name: 'estateValue',
      label: 'How much does the executor handle?',
      help: 'The sums the executor receives and pays out (the commissionable estate, SCPA §2307).',
      kind: 'money',
      required: true,
      example: '1,500,000',
      missing: 'Enter the amount the executor handles, e.g. 1,500,000',
    },
  ],
  headline: (outputs) => t('A New York executor’s commission would be {0}.', about(outputs.commission)),
  chart: (outputs, inputs) => [
    {
      label: 'Left in the estate',
      amount: Math.max(0, num(inputs.estateValue) - num(outputs.commission)),
      tone: 'keep',
    },
    { label: 'Executor commission', amount: num(outputs.commission), tone: 'fees' },
  ],
  figures: [['commission', 'Executor commission']],
};
