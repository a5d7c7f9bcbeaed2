import { COVERAGE } from '../../calculators/estate-tax/labels.ts';
import { t } from '../i18n/t.ts';
import { STATE_CHOICES, stateName } from './states.ts';
import type { FormSpec } from './types.ts';
import { about, num } from './words.ts';

export const estateTaxForm: FormSpec = {
  lede: 'See what federal and state estate tax an estate might owe, and how much would go to the heirs.',
  fields: [
    {
      name: 'estateValue',
      label: 'What is the estate worth?',
      help: 'Everything owned, less debts, funeral costs and gifts to a spouse or charity (the taxable estate).',
      kind: 'money',
      required: true,
      example: '2,500,000',
      missing: 'Enter the estate’s value, e.g. 2,500,000',
    },
    {
      name: 'state',
      label: 'State of residence',
      help: 'Where the person lived; it decides which state estate tax applies.',
      kind: 'select',
      required: true,
      options: STATE_CHOICES,
      missing: 'Choose the state where the person lived',
    },
    {
      name: 'adjustedTaxableGifts',
      label: 'Large gifts made during life',
      help: 'Adjusted taxable gifts: taxable gifts made after 1976 that are not already in the estate.',
      kind: 'money',
      required: false,
      default: 0,
      advanced: true,
    },
    {
      name: 'portableExclusion',
      label: 'Exemption left by a spouse who died earlier',
      help: 'The deceased spouse’s unused exclusion (DSUE, “portability”); capped at the basic exclusion.',
      kind: 'money',
      required: false,
      default: 0,
      advanced: true,
    },
    {
      name: 'dateOfDeath',
      label: 'Date of death',
      help: 'Selects the rules; 2026 or 2027. Leave empty to use today’s rules.',
      kind: 'date',
      required: false,
      min: COVERAGE.from,
      max: COVERAGE.to,
      advanced: true,
    },
    {
      name: 'applyStateDeathTaxDeduction',
      label: 'Deduct the state tax before the federal tax is worked out',
      help: 'The state death tax deduction (IRC §2058); on by default, as the law allows.',
      kind: 'boolean',
      required: false,
      default: true,
      advanced: true,
    },
  ],
  headline(outputs, inputs) {
    const federal = num(outputs.federalTax);
    const state = num(outputs.stateTax);
    const name = t(stateName(inputs.state));
    if (federal === 0 && state === 0) return t('Your estate would owe no federal or {0} estate tax.', name);
    if (federal === 0)
      return t('Your estate would owe {0} in {1} estate tax; no federal tax.', about(state), name);
    if (state === 0)
      return t('Your estate would owe {0} in federal estate tax; no {1} estate tax.', about(federal), name);
    return t(
      'Your estate would owe {0} in federal estate tax and {1} in {2} estate tax.',
      about(federal),
      about(state),
      name,
    );
  },
  chart(outputs, inputs) {
    const federal = num(outputs.federalTax);
    const state = num(outputs.stateTax);
    const keep = Math.max(0, num(inputs.estateValue) - federal - state);
    return [
      { label: 'To your heirs', amount: keep, tone: 'keep' },
      { label: 'Federal estate tax', amount: federal, tone: 'federal' },
      { label: t('{0} estate tax', t(stateName(inputs.state))), amount: state, tone: 'state' },
    ];
  },
  figures: [
    ['federalTax', 'Federal estate tax'],
    ['stateTax', 'State estate tax'],
    ['totalTax', 'Total estate tax'],
    ['effectiveRate', 'Share of the estate'],
  ],
};
