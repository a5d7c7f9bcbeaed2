import { addDollars, dollars, max, min, ratio, toDollars } from '../money.ts';
import { ESTATE_TAX } from '../names.ts';
import { type CalculationResult, DISCLAIMER, type WidgetCore } from '../types.ts';
import { ruleDate } from './date-of-death.ts';
import { federalEstateTax } from './federal.ts';
import { basicExclusionOn } from './federal-tables.ts';
import { COVERAGE } from './labels.ts';
import { estateLineItems } from './line-items.ts';
import { federalPart, ruleSetOf, statePart, unconfirmedNotice } from './rule-set.ts';
import type { EstateTaxInput } from './schema.ts';
import { STATE_TABLES } from './state-tables.ts';
import { stateEstateTax } from './state-tax.ts';

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

function estateNotes(input: EstateTaxInput, f: Figures, dateNotes: string[]): string[] {
  return [
    ...dateNotes,
    ...(f.state ? f.state.notes : [`${input.state} has no state estate tax.`]),
    ...(f.deduction > 0 ? [SECTION_2058_NOTE] : []),
    ...(f.federal.dsueCapped ? ['The DSUE is capped at the basic exclusion amount.'] : []),
    ...(input.adjustedTaxableGifts > 0 ? [GIFT_TAX_NOTE] : []),
  ];
}

/** The versions used, in words, and a notice for each amount not yet confirmed for the year. */
function rulesFor(date: string, state: Figures['state']) {
  const entry = state && STATE_TABLES[state.code];
  const parts = [federalPart(date), ...(state && entry ? [statePart(entry, state.version)] : [])];
  const notices = parts.map((p) => unconfirmedNotice(p, date)).filter((n): n is string => Boolean(n));
  return { ruleSet: ruleSetOf(date, parts, state?.id), notices };
}

function compute(input: EstateTaxInput, { now }: { now: Date }): CalculationResult {
  const { date, note } = ruleDate(input.dateOfDeath, now, COVERAGE);
  const f = figures(input, date);
  const rules = rulesFor(date, f.state);
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
      rulesUsed: rules.ruleSet.label ?? '',
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
    notes: estateNotes(input, f, [...(note ? [note] : []), ...rules.notices]),
    ruleSet: rules.ruleSet,
    disclaimer: DISCLAIMER,
  };
}

/**
 * Estate tax as a widget page bundles it: the computation, its name and disclaimer. The listing
 * (description, labels, general rule set) is the server's (`listing.ts`, joined in `index.ts`):
 * the page shows none of it.
 */
export const estateTaxCore: WidgetCore<EstateTaxInput> = {
  ...ESTATE_TAX,
  disclaimer: DISCLAIMER,
  compute,
};
