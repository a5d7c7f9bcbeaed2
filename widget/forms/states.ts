import { US_STATES } from '../../calculators/limits.ts';
import type { Choice } from './types.ts';

/** Full names for the state selects; the value stays the two-letter code the API takes. */
const NAMES =
  'Alabama,Alaska,Arizona,Arkansas,California,Colorado,Connecticut,Delaware,District of Columbia,Florida,Georgia,Hawaii,Idaho,Illinois,Indiana,Iowa,Kansas,Kentucky,Louisiana,Maine,Maryland,Massachusetts,Michigan,Minnesota,Mississippi,Missouri,Montana,Nebraska,Nevada,New Hampshire,New Jersey,New Mexico,New York,North Carolina,North Dakota,Ohio,Oklahoma,Oregon,Pennsylvania,Rhode Island,South Carolina,South Dakota,Tennessee,Texas,Utah,Vermont,Virginia,Washington,West Virginia,Wisconsin,Wyoming'.split(
    ',',
  );

export const STATE_CHOICES: readonly Choice[] = US_STATES.map((value, i) => ({
  value,
  label: NAMES[i]!,
})).sort((a, b) => a.label.localeCompare(b.label));

export const stateName = (code: unknown): string =>
  STATE_CHOICES.find((c) => c.value === code)?.label ?? String(code ?? '');
