import type { Schedule } from '../schedule.ts';

/** IRC §2001(c) unified rate schedule (Form 706 instructions, Table A). */
export const FEDERAL_SCHEDULE: Schedule = {
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

export interface ExclusionVersion {
  effectiveDate: string;
  amount: number;
  /** Indexed to inflation every calendar year from 2027 (IRC §2010(c)(3)(B)). */
  indexed: true;
}

/**
 * Basic exclusion amount (IRC §2010(c)(3)) by first date of death it applies to. Its sources and
 * their status are in `rule-sources.ts` (server only). The 2027 amount is not here: see there.
 */
export const BASIC_EXCLUSION: readonly ExclusionVersion[] = [
  { effectiveDate: '2026-01-01', amount: 15_000_000, indexed: true },
];

/** The basic exclusion in force on a date of death (ISO). */
export const basicExclusionOn = (date: string): ExclusionVersion =>
  [...BASIC_EXCLUSION].reverse().find((b) => b.effectiveDate <= date) ?? BASIC_EXCLUSION[0]!;
