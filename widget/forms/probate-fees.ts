import { t } from '../i18n/t.ts';
import type { FormSpec } from './types.ts';
import { about, num } from './words.ts';

export const probateFeesForm: FormSpec = {
  lede: 'See the fees California law sets for the executor and the attorney in a probate.',
  fields: [
    {
      name: 'estateValue',
      label: 'What is the estate in probate worth?',
      help: 'Gross value of the inventory, mortgages not deducted, plus gains and receipts (Cal. Prob. Code §10800).',
      kind: 'money',
      required: true,
      example: '1,200,000',
      missing: 'Enter the estate’s value, e.g. 1,200,000',
    },
  ],
  headline: (outputs) =>
    t(
      'California’s statutory fees would come to {0}: {1} to the executor and the same to the attorney.',
      about(outputs.totalFees),
      about(outputs.executorFee),
    ),
  chart: (outputs, inputs) => [
    {
      label: 'Left in the estate',
      amount: Math.max(0, num(inputs.estateValue) - num(outputs.totalFees)),
      tone: 'keep',
    },
    { label: 'Executor fee', amount: num(outputs.executorFee), tone: 'fees' },
    { label: 'Attorney fee', amount: num(outputs.attorneyFee), tone: 'federal' },
  ],
  figures: [
    ['executorFee', 'Executor fee'],
    ['attorneyFee', 'Attorney fee'],
    ['totalFees', 'Total fees'],
  ],
};
