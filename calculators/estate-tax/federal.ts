import { dollars, type Micro, max, min } from '../money.ts';
import { evaluate, type Schedule } from '../schedule.ts';

/** IRC §2001(c) unified rate schedule (Form 706 instructions, Table A). */
export const FEDERAL_SCHEDULE: Schedule = {
  source: 'IRC §2001(c); Form 706 instructions, Table A',
  verified: true,
  rows: [
    { floor: 0, base: 0, rate: '18' },
    { floor: 10_000, base: 1_800, rate: '20' },
    { floor: 20_000, base: 3_800, rate: '22' },
    { floor: 40_000, base: 8_200, rate: '24' },
    { floor: 60_000, base: 13_000, rate: '26' },
    { floor: 80_000, base: 18_200, rate: '28' },
    { floor: 100_000, base: 23_800, rate: '30' },
    { floor: 150_000, base: 38_800, rate: '32' },
    { floor: 250_000, base: 70_800, rate: '34' },
    { floor: 500_000, base: 155_800, rate: '37' },
    { floor: 750_000, base: 248_300, rate: '39' },
    { floor: 1_000_000, base: 345_800, rate: '40' },
  ],
};

/** Basic exclusion amount by year of death (P.L. 119-21 §70106; Rev. Proc. 2025-32). */
export const BASIC_EXCLUSION: Record<number, number> = { 2026: 15_000_000 };

export interface FederalInput {
  taxableEstate: Micro;
  adjustedTaxableGifts: Micro;
  /** Deceased spouse's unused exclusion; capped at the basic exclusion amount. */
  dsue: Micro;
  basicExclusion: Micro;
}

export interface FederalResult {
  tentativeTax: Micro;
  applicableCredit: Micro;
  exclusion: Micro;
  tax: Micro;
}

/**
 * federalTax = max(0, T(taxable estate + adjusted taxable gifts) − gift tax payable − T(BEA + DSUE)),
 * with gift tax payable taken as 0.
 */
export function federalEstateTax(input: FederalInput): FederalResult {
  const exclusion = input.basicExclusion + min(input.dsue, input.basicExclusion);
  const tentativeTax = evaluate(FEDERAL_SCHEDULE, input.taxableEstate + input.adjustedTaxableGifts);
  const applicableCredit = evaluate(FEDERAL_SCHEDULE, exclusion);
  return { tentativeTax, applicableCredit, exclusion, tax: max(0n, tentativeTax - applicableCredit) };
}

export const basicExclusionFor = (year: number): Micro => dollars(BASIC_EXCLUSION[year] ?? 15_000_000);
