import { expect, it } from 'vitest';
import { stateName, US_STATE_NAMES, US_STATES } from './limits.ts';

it('names every state code, in alphabetical order of the names (the selects list them as is)', () => {
  const names = US_STATES.map((code) => US_STATE_NAMES[code]);
  expect(Object.keys(US_STATE_NAMES)).toHaveLength(US_STATES.length);
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
});

it.each([
  ['NY', 'New York'],
  ['DC', 'District of Columbia'],
  ['XX', 'XX'],
  ['toString', 'toString'],
  [undefined, ''],
])('stateName(%j) → %j', (code, name) => {
  expect(stateName(code)).toBe(name);
});
