import { dollars, type Micro, max, min, toDollars } from '../money.ts';
import { evaluate } from '../schedule.ts';
import { FEDERAL_SCHEDULE } from './federal-tables.ts';

export interface FederalInput {
  /** Taxable estate after any §2058 deduction. */
  taxableEstate: Micro;
  adjustedTaxableGifts: Micro;
  /** Deceased spouse's unused exclusion; capped at the basic exclusion amount. */
  dsue: Micro;
  basicExclusion: Micro;
}

export interface FederalResult {
  tentativeTax: Micro;
  /** T(BEA + capped DSUE). */
  applicableCredit: Micro;
  exclusion: Micro;
  dsueCapped: boolean;
  tax: Micro;
}

/**
 * federalTax = max(0, T(taxable estate + adjusted taxable gifts) − gift tax payable − T(BEA + DSUE)),
 * with gift tax payable taken as 0 (we do not ask for it; see the note in the result).
 */
export function federalEstateTax(input: FederalInput): FederalResult {
  const exclusion = input.basicExclusion + min(input.dsue, input.basicExclusion);
  const tentativeTax = evaluate(FEDERAL_SCHEDULE, input.taxableEstate + input.adjustedTaxableGifts);
  const applicableCredit = evaluate(FEDERAL_SCHEDULE, exclusion);
  return {
    tentativeTax,
    applicableCredit,
    exclusion,
    dsueCapped: input.dsue > input.basicExclusion,
    tax: max(0n, tentativeTax - applicableCredit),
  };
}

/** The applicable credit of a basic exclusion amount: the rate schedule applied to it (IRC §2010(c)(1)). */
export const applicableCredit = (basicExclusion: number): number =>
  toDollars(evaluate(FEDERAL_SCHEDULE, dollars(basicExclusion)));
