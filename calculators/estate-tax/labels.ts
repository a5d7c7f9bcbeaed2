import type { Coverage } from '../limits.ts';

/** The dates of death the tables cover (2026 only). */
export const COVERAGE: Coverage = { from: '2026-01-01', to: '2026-12-31' };

export const INPUT_LABELS = {
  estateValue: 'Taxable estate',
  state: 'State of residence',
  adjustedTaxableGifts: 'Adjusted taxable gifts',
  portableExclusion: 'Deceased spouse’s unused exclusion (DSUE)',
  dateOfDeath: 'Date of death',
  applyStateDeathTaxDeduction: 'Deduct state estate tax (IRC §2058)',
} as const;
