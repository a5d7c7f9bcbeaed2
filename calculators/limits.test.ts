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

it('keeps the 50 states and DC, in the order the selects and the API have always used', () => {
  expect(US_STATES.join(' ')).toBe(
    'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY',
  );
});
