import type { Coverage } from '../limits.ts';

/**
 * The dates of death the tables cover: the rule sets a visitor can choose (2026 and 2027). The
 * coverage check (coverage-check.test.ts) fails 45 days before `to`, naming the figures to add.
 */
export const COVERAGE: Coverage = { from: '2026-01-01', to: '2027-12-31' };

export const INPUT_LABELS = {
  estateValue: 'Taxable estate',
  state: 'State of residence',
  adjustedTaxableGifts: 'Adjusted taxable gifts',
  portableExclusion: 'Deceased spouse’s unused exclusion (DSUE)',
  dateOfDeath: 'Date of death',
  applyStateDeathTaxDeduction: 'Deduct state estate tax (IRC §2058)',
} as const;
