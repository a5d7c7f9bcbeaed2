/**
 * Solves the server's proof-of-work challenge (ALTCHA format) when the visitor presses send. Its
 * own small SHA-256, because `crypto.subtle` is undefined on plain-HTTP pages (and a hash per
 * call through a promise would be slow anyway). The embed CSP (`script-src 'self'`, no blob:
 * workers) leaves the main thread: the search runs in slices that yield between them, so the
 * page stays responsive.
 */
export interface Challenge {
  algorithm: string;
  challenge: string;
  maxnumber: number;
  salt: string;
  signature: string;
}

const K = new Uint32Array(64);
const H = new Uint32Array(8);
// Fractional parts of the cube roots (K) and square roots (H) of the first primes.
for (let n = 2, i = 0; i < 64; n++) {
  let d = 2;
  while (n % d) d++;
  if (d === n) {
    if (i < 8) H[i] = ((Math.sqrt(n) % 1) * 2 ** 32) >>> 0;
    K[i++] = ((Math.cbrt(n) % 1) * 2 ** 32) >>> 0;
  }
}
const W = new Uint32Array(64);

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** SHA-256 of bytes, as eight 32-bit words. */
export function sha256Words(bytes: Uint8Array): Uint32Array {
  const h = H.slice();
  const length = bytes.length;
  const m = new Uint8Array(Math.ceil((length + 9) / 64) * 64);
  m.set(bytes);
  m[length] = 0x80;
  const view = new DataView(m.buffer);
  view.setUint32(m.length - 4, length * 8);
  for (let b = 0; b < m.length; b += 64) {
    for (let i = 0; i < 64; i++) {
      const x = W[i - 15]!;
      const y = W[i - 2]!;
      W[i] =
        i < 16
          ? view.getUint32(b + i * 4)
          : W[i - 16]! +
            (rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3)) +
            W[i - 7]! +
            (rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10));
    }
    const v = h.slice();
    for (let i = 0; i < 64; i++) {
      const a = v[0]!;
      const e = v[4]!;
      const t1 =
        v[7]! + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & v[5]!) ^ (~e & v[6]!)) + K[i]! + W[i]!;
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & v[1]!) ^ (a & v[2]!) ^ (v[1]! & v[2]!));
      v.copyWithin(1, 0, 7);
      v[4]! += t1;
      v[0] = t1 + t2;
    }
    for (let i = 0; i < 8; i++) h[i]! += v[i]!;
  }
  return h;
}

/** 32-bit words as lowercase hex, eight digits each (the digest here, the lead's Idempotency-Key too). */
export const hex = (words: Uint32Array) =>
  [...words].map((w) => (w + 2 ** 32).toString(16).slice(1)).join('');

export const sha256Hex = (text: string) => hex(sha256Words(new TextEncoder().encode(text)));

/**
 * Finds the number and returns the `altcha` field (base64 JSON). Undefined when the range holds
 * no answer (a broken challenge: the server then says what to do).
 */
export async function solveChallenge(c: Challenge): Promise<string | undefined> {
  for (let number = 0; number <= c.maxnumber; number++) {
    const h = sha256Words(new TextEncoder().encode(c.salt + number));
    if (hex(h) === c.challenge) return btoa(JSON.stringify({ ...c, number }));
    // Yield to the page every few thousand hashes, so it stays responsive.
    if (!(number % 4_000)) await new Promise((resolve) => setTimeout(resolve));
  }
  return undefined;
}
