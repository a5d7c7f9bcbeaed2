import { randomFillSync } from 'node:crypto';

/** Crockford's base32 alphabet in lower case: no i, l, o or u to misread in a log or a ticket. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

// Random bytes drawn 4 KB at a time from the CSPRNG (as node:crypto's randomUUID does): one
// `randomBytes(16)` per id was 2 % of an embed session. Each id takes 16 bytes no other id sees.
const POOL = Buffer.alloc(4096);
let used = POOL.length;
/** The offset in POOL of 16 fresh bytes. */
function take16(): number {
  if (used + 16 > POOL.length) {
    randomFillSync(POOL);
    used = 0;
  }
  used += 16;
  return used - 16;
}

/**
 * Prefixed random ids (`lic_…`, `lead_…`): all 128 bits of 16 random bytes, 26 characters, so an id
 * reveals neither order nor count and cannot be guessed.
 */
export function newId(prefix: string): string {
  let out = '';
  let bits = 0;
  let buffer = 0;
  const at = take16();
  for (let i = at; i < at + 16; i++) {
    buffer = (buffer << 8) | POOL[i]!;
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
