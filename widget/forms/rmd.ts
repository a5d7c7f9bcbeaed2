import { RMD_START_AGE } from '../../calculators/rmd/core.ts';
import { t } from '../i18n/t.ts';
import type { FormSpec } from './types.ts';
import { num, usd } from './words.ts';

export const rmdForm: FormSpec = {
  lede: 'See the least you must withdraw this year from an IRA or retirement plan account.',
  fields: [
    {
      name: 'balance',
      label: 'Account balance on December 31 last year',
      help: 'The IRA or retirement plan balance the required minimum distribution is based on.',
      kind: 'money',
      required: true,
      example: '500,000',
      missing: 'Enter the balance, e.g. 500,000',
    },
    {
      name: 'age',
      label: 'Your age on your birthday this year',
      kind: 'number',
      required: true,
      integer: true,
      min: RMD_START_AGE,
      max: 130,
      example: '75',
      missing: 'Enter your age, e.g. 75',
      // `{0}`: the field's `min`, put in by the check.
      tooLow: 'Withdrawals are required from age {0} (75 for those reaching 74 after 2032)',
    },
  ],
  headline: (outputs) => t('You must withdraw at least {0} this year.', usd(outputs.rmd)),
  chart: (outputs) => [
    {
      label: 'Stays in the account',
      amount: Math.max(0, num(outputs.balance) - num(outputs.rmd)),
      tone: 'keep',
    },
    { label: 'Required withdrawal', amount: num(outputs.rmd), tone: 'fees' },
  ],
  figures: [
    ['rmd', 'Required withdrawal'],
    ['factor', 'Life expectancy factor'],
  ],
};
