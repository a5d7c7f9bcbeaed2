import type { CalculatorFigures, RuleSet } from '../types.ts';
import { COVERAGE, INPUT_LABELS } from './labels.ts';

/** The calculator's rules in general (its listing); each result names the versions it used. */
const ESTATE_TAX_RULES: RuleSet = {
  id: 'estate-tax-2026',
  taxYear: 2026,
  effectiveDate: COVERAGE.from,
  label: 'Federal and state rules for deaths in 2026 and 2027',
  sources: [],
};

/** What the calculator list and the API's listing say of estate tax (no widget page shows it). */
export const ESTATE_TAX_LISTING: {
  description: string;
  ruleSet: RuleSet;
  inputLabels: typeof INPUT_LABELS;
  outputLabels: Record<string, string>;
  figures: CalculatorFigures;
} = {
  description:
    'Federal estate tax for deaths in 2026 and 2027 (exclusion, portability, adjusted taxable gifts) plus the estate tax of the state of residence.',
  ruleSet: ESTATE_TAX_RULES,
  inputLabels: INPUT_LABELS,
  outputLabels: {
    estateValue: 'Taxable estate',
    federalTax: 'Federal estate tax',
    stateTax: 'State estate tax',
    totalTax: 'Total estate tax',
    effectiveRate: 'Effective rate',
    stateDeathTaxDeduction: 'State death tax deduction (§2058)',
    federalTaxableEstate: 'Federal taxable estate',
    federalExclusion: 'Federal exclusion',
    estimate: 'Estimate (no closed form)',
    dateOfDeath: 'Rules as of',
    rulesUsed: 'Rules used',
  },
  figures: {
    basis: 'estateValue',
    computed: ['federalTax', 'stateTax', 'totalTax'],
    main: 'totalTax',
    money: [
      'estateValue',
      'adjustedTaxableGifts',
      'portableExclusion',
      'federalTax',
      'stateTax',
      'totalTax',
      'stateDeathTaxDeduction',
      'federalTaxableEstate',
      'federalExclusion',
    ],
    rates: ['effectiveRate'],
  },
};
