import { addDollars, dollars, max, min, ratio, toDollars } from '../money.ts';
import { type CalculationResult, type CalculatorCore, DISCLAIMER, type RuleSet } from '../types.ts';
import { ruleDate } from './date-of-death.ts';
import { federalEstateTax } from './federal.ts';
import { basicExclusionOn, FEDERAL_SCHEDULE } from './federal-tables.ts';
import { COVERAGE, INPUT_LABELS } from './labels.ts';
import { estateLineItems } from './line-items.ts';
import type { EstateTaxInput } from './schema.ts';
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

const GIFT_TAX_NOTE =
  'Gift tax already paid on the adjusted taxable gifts is taken as 0; if gift tax was paid, the federal tax here is overstated by that amount.';

const SECTION_2058_NOTE =
  'The state tax is computed on the estate as entered and then deducted from the federal taxable estate (IRC §2058).';

/** The amounts, in the order the law computes them: state tax first, then federal (§2058). */
function figures(input: EstateTaxInput, date: string) {
  const estate = dollars(input.estateValue);
  const state = stateEstateTax(input.state, estate, date);
  const stateTax = state ? toDollars(state.tax, state.denominator) : 0;
  // §2058 deducts the state tax actually paid: the rounded cent amount.
  const deduction = input.applyStateDeathTaxDeduction ? stateTax : 0;
  const federalTaxable = max(0n, estate - dollars(deduction));
  const federal = federalEstateTax({
    taxableEstate: federalTaxable,
    adjustedTaxableGifts: dollars(input.adjustedTaxableGifts),
    dsue: dollars(input.portableExclusion),
    basicExclusion: dollars(basicExclusionOn(date).amount),
  });
  const federalTax = toDollars(federal.tax);
  return {
    state,
    stateTax,
    deduction,
    federalTaxable,
    federal,
    federalTax,
    totalTax: addDollars(federalTax, stateTax),
  };
}

type Figures = ReturnType<typeof figures>;

function estateNotes(input: EstateTaxInput, f: Figures, dateNote: string | undefined): string[] {
  return [
    ...(dateNote ? [dateNote] : []),
    ...(f.state ? f.state.notes : [`${input.state} has no state estate tax.`]),
    ...(f.deduction > 0 ? [SECTION_2058_NOTE] : []),
    ...(f.federal.dsueCapped ? ['The DSUE is capped at the basic exclusion amount.'] : []),
    ...(input.adjustedTaxableGifts > 0 ? [GIFT_TAX_NOTE] : []),
  ];
}

function ruleSetFor(state: Figures['state']): RuleSet {
  if (!state) return ESTATE_TAX_RULES;
  return {
    ...ESTATE_TAX_RULES,
    id: `${ESTATE_TAX_RULES.id}+${state.id}`,
    sources: [
      ...ESTATE_TAX_RULES.sources,
      `${state.name}: ${state.version.source} (from ${state.version.effectiveDate})`,
    ],
  };
}

function compute(input: EstateTaxInput, { now }: { now: Date }): CalculationResult {
  const { date, note } = ruleDate(input.dateOfDeath, now, COVERAGE);
  const f = figures(input, date);
  const federalTaxableEstate = toDollars(f.federalTaxable);
  return {
    outputs: {
      estateValue: input.estateValue,
      federalTax: f.federalTax,
      stateTax: f.stateTax,
      totalTax: f.totalTax,
      effectiveRate: ratio(f.totalTax, input.estateValue),
      stateDeathTaxDeduction: f.deduction,
      federalTaxableEstate,
      federalExclusion: toDollars(f.federal.exclusion),
      estimate: f.state?.estimate ?? false,
      dateOfDeath: date,
    },
    lineItems: estateLineItems({
      ...(f.state ? { stateName: f.state.name } : {}),
      estateValue: input.estateValue,
      stateTax: f.stateTax,
      deduction: f.deduction,
      federalTaxableEstate,
      adjustedTaxableGifts: input.adjustedTaxableGifts,
      tentativeTax: toDollars(f.federal.tentativeTax),
      exclusion: toDollars(f.federal.exclusion),
      creditUsed: toDollars(min(f.federal.applicableCredit, f.federal.tentativeTax)),
      federalTax: f.federalTax,
      totalTax: f.totalTax,
    }),
    notes: estateNotes(input, f, note),
    ruleSet: ruleSetFor(f.state),
    disclaimer: DISCLAIMER,
  };
}

/** Estate tax without its schema (the widget bundles this; `definition.ts` adds the schema). */
export const estateTaxCore: CalculatorCore<EstateTaxInput> = {
  slug: 'estate-tax',
  name: 'Estate tax',
  description:
    'Federal estate tax for 2026 (exclusion, portability, adjusted taxable gifts) plus the estate tax of the state of residence.',
  disclaimer: DISCLAIMER,
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
  },
  compute,
};
