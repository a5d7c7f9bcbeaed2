import { addDollars, dollars, max, min, ratio, toDollars } from '../money.ts';
import { type CalculationResult, type CalculatorDefinition, DISCLAIMER, type RuleSet } from '../types.ts';
import { ruleDate } from './date-of-death.ts';
import { federalEstateTax } from './federal.ts';
import { basicExclusionOn, FEDERAL_SCHEDULE } from './federal-tables.ts';
import { estateLineItems } from './line-items.ts';
import { COVERAGE, type EstateTaxInput, estateTaxSchema, INPUT_LABELS } from './schema.ts';
import { stateEstateTax } from './state-tax.ts';

export const ESTATE_TAX_RULES: RuleSet = {
  id: 'estate-tax-2026',
  taxYear: 2026,
  effectiveDate: COVERAGE.from,
  sources: [
    FEDERAL_SCHEDULE.source,
    basicExclusionOn(COVERAGE.from).source,
    'IRC §2010(c)(4) (DSUE)',
    'IRC §2058',
  ],
};

const SECTION_2058_NOTE =
  'The state tax is computed on the estate as entered and then deducted from the federal taxable estate (IRC §2058).';

function compute(input: EstateTaxInput, { now }: { now: Date }): CalculationResult {
  const { date, note: dateNote } = ruleDate(input.dateOfDeath, now, COVERAGE);
  const estate = dollars(input.estateValue);
  const state = stateEstateTax(input.state, estate, date);
  const stateTax = state ? toDollars(state.tax, state.denominator) : 0;
  // §2058 deducts the state tax actually paid: the rounded cent amount.
  const deduction = input.applyStateDeathTaxDeduction ? stateTax : 0;
  const federalTaxable = max(0n, estate - dollars(deduction));
  const bea = basicExclusionOn(date);
  const federal = federalEstateTax({
    taxableEstate: federalTaxable,
    adjustedTaxableGifts: dollars(input.adjustedTaxableGifts),
    dsue: dollars(input.portableExclusion),
    basicExclusion: dollars(bea.amount),
  });
  const federalTax = toDollars(federal.tax);
  const totalTax = addDollars(federalTax, stateTax);
  const notes = [
    ...(dateNote ? [dateNote] : []),
    ...(state ? state.notes : [`${input.state} has no state estate tax.`]),
    ...(state && deduction > 0 ? [SECTION_2058_NOTE] : []),
    ...(federal.dsueCapped ? ['The DSUE is capped at the basic exclusion amount.'] : []),
    ...(input.adjustedTaxableGifts > 0
      ? [
          'Gift tax already paid on the adjusted taxable gifts is taken as 0; if gift tax was paid, the federal tax here is overstated by that amount.',
        ]
      : []),
  ];
  return {
    outputs: {
      estateValue: input.estateValue,
      federalTax,
      stateTax,
      totalTax,
      effectiveRate: ratio(totalTax, input.estateValue),
      stateDeathTaxDeduction: deduction,
      federalTaxableEstate: toDollars(federalTaxable),
      federalExclusion: toDollars(federal.exclusion),
      estimate: state?.estimate ?? false,
      dateOfDeath: date,
    },
    lineItems: estateLineItems({
      state: input.state,
      ...(state ? { stateName: state.name } : {}),
      estateValue: input.estateValue,
      stateTax,
      deduction,
      federalTaxableEstate: toDollars(federalTaxable),
      adjustedTaxableGifts: input.adjustedTaxableGifts,
      tentativeTax: toDollars(federal.tentativeTax),
      exclusion: toDollars(federal.exclusion),
      creditUsed: toDollars(min(federal.applicableCredit, federal.tentativeTax)),
      federalTax,
      totalTax,
    }),
    notes,
    ruleSet: {
      ...ESTATE_TAX_RULES,
      id: state ? `${ESTATE_TAX_RULES.id}+${state.id}` : ESTATE_TAX_RULES.id,
      sources: [
        ...ESTATE_TAX_RULES.sources,
        ...(state ? [`${state.name}: ${state.version.source} (from ${state.version.effectiveDate})`] : []),
      ],
    },
    disclaimer: DISCLAIMER,
  };
}

export const estateTax: CalculatorDefinition<EstateTaxInput> = {
  slug: 'estate-tax',
  name: 'Estate tax',
  description:
    'Federal estate tax for 2026 (exclusion, portability, adjusted taxable gifts) plus the estate tax of the state of residence.',
  disclaimer: DISCLAIMER,
  ruleSet: ESTATE_TAX_RULES,
  inputSchema: estateTaxSchema,
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
  },
  compute,
};
