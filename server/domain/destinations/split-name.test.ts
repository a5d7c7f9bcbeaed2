import { describe, expect, it } from 'vitest';
import { NOT_GIVEN, splitName, withBothNames } from './split-name.ts';

describe('splitName', () => {
  it.each([
    ['Jane Doe', 'Jane', 'Doe'],
    ['  Jane   Q.  Public ', 'Jane Q.', 'Public'],
    ['Cher', '', 'Cher'],
    ['Mary-Kate Olsen-Smith', 'Mary-Kate', 'Olsen-Smith'],
    ["Conan O'Brien", 'Conan', "O'Brien"],
    ["D'Arcy O'Neil", "D'Arcy", "O'Neil"],
    ['Martin Luther King Jr.', 'Martin Luther', 'King Jr.'],
    ['Martin Luther King, Jr.', 'Martin Luther', 'King Jr.'],
    ['John Smith III', 'John', 'Smith III'],
    ['Thurston Howell IV', 'Thurston', 'Howell IV'],
    ['Juan de la Cruz', 'Juan', 'de la Cruz'],
    ['María del Carmen de la Torre', 'María del Carmen', 'de la Torre'],
    ['Ludwig van Beethoven', 'Ludwig', 'van Beethoven'],
    ['Johannes van der Waals', 'Johannes', 'van der Waals'],
    ['Smith, John', 'John', 'Smith'],
    ['Robert Brown Esq.', 'Robert', 'Brown Esq.'],
    ['Prince Jr.', '', 'Prince Jr.'],
    ['', '', ''],
  ])('%j → %j / %j', (raw, first, last) => {
    expect(splitName(raw)).toEqual({ first, last });
  });

  it('fills the part a vendor requires and the visitor did not give', () => {
    expect(withBothNames(splitName('Cher'))).toEqual({ first: NOT_GIVEN, last: 'Cher' });
    expect(withBothNames(splitName('Jane Doe'))).toEqual({ first: 'Jane', last: 'Doe' });
  });
});
