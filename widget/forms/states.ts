import { US_STATE_NAMES, US_STATES } from '../../calculators/limits.ts';
import type { Choice } from './types.ts';

export { stateName } from '../../calculators/limits.ts';

/**
 * The state selects: full names, alphabetical (the order of US_STATES), the value the two-letter
 * code the API takes. No sorting here: a collator costs the page its first milliseconds.
 */
export const STATE_CHOICES: readonly Choice[] = US_STATES.map((value) => ({
  value,
  label: US_STATE_NAMES[value],
}));
