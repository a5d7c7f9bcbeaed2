import { z } from 'zod';
import { dateIn, money, usState } from '../fields.ts';
import { dollars, type Micro, max, ratio, toDollars } from '../money.ts';
import {
  type CalculationResult,
  type CalculatorDefinition,
  DISCLAIMER,
  type LineItem,
  type RuleSet,
} from '../types.ts';
import { basicExclusionFor, FEDERAL_SCHEDULE, federalEstateTax } from './federal.ts';
import { stateEstateTax } from './state-tax.ts';

const YEARS = [2026] as const;

export const ESTATE_TAX_RULES: RuleSet = {
  id: 'us-estate-2026',
  taxYear: 2026,
  effectiveDate: '2026-01-01',
  sources: [
    FEDERAL_SCHEDULE.source,
    'P.L. 119-21 §70106; Rev. Proc. 2025-32 (2026 basic exclusion $15,000,000)',
  ],
};

const schema = z.object({
  estateValue: money('Taxable estate', {
    description: 'Gross estate less deductions, before any state death tax deduction',
  }),
  state: usState('State of residence'),
  adjustedTaxableGifts: money('Adjusted taxable gifts', { default: 0 }),
  portableExclusion: money('Deceased spouse’s unused exclusion (DSUE)', { default: 0 }),
  dateOfDeath: dateIn('Date of death', YEARS).optional(),
  applyStateDeathTaxDeduction: z
    .boolean()
    .default(true)
    .meta({ label: 'Deduct state estate tax (IRC §2058)' }),
});

export type EstateTaxInput = z.output<typeof schema>;

function compute(input: EstateTaxInput, { now }: { now: Date }): CalculationResult {
  const dateOfDeath = input.dateOfDeath ?? now.toISOString().slice(0, 10);
  const year = Number(dateOfDeath.slice(0, 4));
  const estate = dollars(input.estateValue);
  const notes: string[] = [];
  const state = stateEstateTax(input.state, estate, dateOfDeath);
  if (!state) notes.push(`${input.state} has no state estate tax.`);
  notes.push(...(state?.notes ?? []));
  // The deduction is the state tax actually paid: a cent amount.
  const stateTax = state ? toDollars(state.tax, state.denominator) : 0;
  const deduction: Micro = input.applyStateDeathTaxDeduction ? dollars(stateTax) : 0n;
  const taxableEstate = max(0n, estate - deduction);
  const federal = federalEstateTax({
    taxableEstate,
    adjustedTaxableGifts: dollars(input.adjustedTaxableGifts),
    dsue: dollars(input.portableExclusion),
    basicExclusion: basicExclusionFor(year),
  });
  if (input.portableExclusion > toDollars(basicExclusionFor(year)))
    notes.push('DSUE is capped at the basic exclusion amount.');
  const federalTax = toDollars(federal.tax);
  const totalTax = Math.round((federalTax + stateTax) * 100) / 100;
  const lineItems: LineItem[] = [
    { label: 'Taxable estate', amount: input.estateValue, kind: 'subtotal' },
    ...(state ? [{ label: `${input.state} estate tax`, amount: stateTax, kind: 'tax' as const }] : []),
    ...(deduction > 0n
      ? [{ label: 'State death tax deduction (IRC §2058)', amount: -stateTax, kind: 'deduction' as const }]
      : []),
    ...(input.adjustedTaxableGifts > 0
      ? [{ label: 'Adjusted taxable gifts', amount: input.adjustedTaxableGifts, kind: 'income' as const }]
      : []),
    { label: 'Federal tentative tax (§2001(c))', amount: toDollars(federal.tentativeTax), kind: 'info' },
    {
      label: `Applicable credit on ${formatMillions(federal.exclusion)} exclusion`,
      amount: -toDollars(federal.applicableCredit),
      kind: 'credit',
    },
    { label: 'Federal estate tax', amount: federalTax, kind: 'tax' },
    { label: 'Total estate tax', amount: totalTax, kind: 'total' },
  ];
  return {
    outputs: {
      estateValue: input.estateValue,
      federalTax,
      stateTax,
      totalTax,
      effectiveRate: ratio(totalTax, input.estateValue),
      stateDeathTaxDeduction: toDollars(deduction),
      federalExclusion: toDollars(federal.exclusion),
      estimate: state?.estimate ?? false,
      dateOfDeath,
    },
    lineItems,
    notes,
    ruleSet: {
      ...ESTATE_TAX_RULES,
      sources: [...ESTATE_TAX_RULES.sources, ...(state ? [state.source] : [])],
    },
    disclaimer: DISCLAIMER,
  };
}

const formatMillions = (micro: Micro) =>
  `$${(toDollars(micro) / 1_000_000).toLocaleString('en-US', { maximumFractionDigits: 2 })}M`;

export const estateTax: CalculatorDefinition<EstateTaxInput> = {
  slug: 'estate-tax',
  name: 'Estate tax',
  description:
    'Federal estate tax (2026 exclusion, portability, adjusted taxable gifts) plus the state estate tax.',
  disclaimer: DISCLAIMER,
  ruleSet: ESTATE_TAX_RULES,
  inputSchema: schema,
  inputLabels: {
    estateValue: 'Taxable estate',
    state: 'State of residence',
    adjustedTaxableGifts: 'Adjusted taxable gifts',
    portableExclusion: 'Deceased spouse’s unused exclusion (DSUE)',
    dateOfDeath: 'Date of death',
    applyStateDeathTaxDeduction: 'Deduct state estate tax (IRC §2058)',
  },
  outputLabels: {
    estateValue: 'Taxable estate',
    federalTax: 'Federal estate tax',
    stateTax: 'State estate tax',
    totalTax: 'Total estate tax',
    effectiveRate: 'Effective rate',
    stateDeathTaxDeduction: 'State death tax deduction',
    federalExclusion: 'Federal exclusion',
    estimate: 'Estimate only',
    dateOfDeath: 'Date of death',
  },
  compute,
};
