import { ladder, type Schedule } from '../schedule.ts';

/** IRC §2001(c) unified rate schedule (Form 706 instructions, Table A). */
export const FEDERAL_SCHEDULE: Schedule = {
  rows: ladder('0 18 10 20 20 22 40 24 60 26 80 28 100 30 150 32 250 34 500 37 750 39 1000 40'),
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
