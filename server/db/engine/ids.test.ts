import { describe, expect, it } from 'vitest';
import { newId } from './ids.ts';

describe('newId', () => {
  it.each(['acct', 'lic', 'act', 'rt', 'code', 'key', 'res', 'lead', 'evt'])(
    'makes %s_ ids of 128 random bits in lower-case Crockford base32',
    (prefix) => {
      // 26 characters: 25 carry 5 bits each, the last the remaining 3 bits, padded with zeros.
      expect(newId(prefix)).toMatch(new RegExp(`^${prefix}_[0-9a-hjkmnp-tv-z]{25}[048cgmrw]$`));
    },
  );

  it('uses every symbol at every full position and never repeats', () => {
    const ids = Array.from({ length: 4000 }, () => newId('x').slice(2));
    expect(new Set(ids).size).toBe(ids.length);
    for (const position of [0, 12, 24]) {
      expect(new Set(ids.map((id) => id[position])).size).toBe(32);
    }
    expect(new Set(ids.map((id) => id[25])).size).toBe(8);
  });
});
