import { randomBytes } from 'node:crypto';

/** Crockford's base32 alphabet in lower case: no i, l, o or u to misread in a log or a ticket. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * Prefixed random ids (`lic_…`, `lead_…`): all 128 bits of 16 random bytes, 26 characters, so an id
 * reveals neither order nor count and cannot be guessed.
 */
export function newId(prefix: string): string {
  let out = '';
  let bits = 0;
  let buffer = 0;
  for (const byte of randomBytes(16)) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(buffer >> bits) & 31];
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return `${prefix}_${out}`;
}
