import { describe, expect, it } from 'vitest';
import { northAmericanE164 } from './phone.ts';

describe('northAmericanE164', () => {
  it.each([
    ['(212) 555-0123', '+12125550123'],
    ['(212) 123-4567', null], // no exchange starts with 1: not a valid number
    ['555-0100', null], // no area code
    ['(212) 736-5000', '+12127365000'],
    ['212.736.5000', '+12127365000'],
    ['+1 212 736 5000', '+12127365000'],
    ['1-212-736-5000', '+12127365000'],
    ['416 555 2671', '+14165552671'],
    ['(416) 979-2671', '+14169792671'],
    ['+44 20 7946 0958', null],
    ['12345', null],
    ['call me', null],
    ['', null],
    [null, null],
  ])('%j → %j', (typed, e164) => {
    expect(northAmericanE164(typed)).toBe(e164);
  });
});
