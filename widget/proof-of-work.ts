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
// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
for (let n = 2, i = 0; i < 64; n++) {
  let prime = true;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) prime = false;
  if (prime) K[i++] = ((Math.cbrt(n) % 1) * 2 ** 32) >>> 0;
}
const W = new Uint32Array(64);

/** SHA-256 of bytes, as eight 32-bit words. */
export function sha256Words(bytes: Uint8Array): Uint32Array {
  const h = Uint32Array.of(
    0x6a09e667,
    0xbb67ae85,
    0x3c6ef372,
    0xa54ff53a,
    0x510e527f,
    0x9b05688c,
    0x1f83d9ab,
    0x5be0cd19,
  );
  const blocks = Math.ceil((bytes.length + 9) / 64);
  const m = new Uint8Array(blocks * 64);
  m.set(bytes);
  m[bytes.length] = 0x80;
  const bits = bytes.length * 8;
  const view = new DataView(m.buffer);
  view.setUint32(m.length - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(m.length - 4, bits >>> 0);
  for (let b = 0; b < m.length; b += 64) {
    for (let i = 0; i < 16; i++) W[i] = view.getUint32(b + i * 4);
    for (let i = 16; i < 64; i++) {
      const x = W[i - 15]!;
      const y = W[i - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) >>> 0;
    }
    let [a, bb, c, d, e, f, g, hh] = h as unknown as number[];
    for (let i = 0; i < 64; i++) {
      const S1 = ((e! >>> 6) | (e! << 26)) ^ ((e! >>> 11) | (e! << 21)) ^ ((e! >>> 25) | (e! << 7));
      const t1 = (hh! + S1 + ((e! & f!) ^ (~e! & g!)) + K[i]! + W[i]!) >>> 0;
      const S0 = ((a! >>> 2) | (a! << 30)) ^ ((a! >>> 13) | (a! << 19)) ^ ((a! >>> 22) | (a! << 10));
      const t2 = (S0 + ((a! & bb!) ^ (a! & c!) ^ (bb! & c!))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d! + t1) >>> 0;
      d = c;
      c = bb;
      bb = a;
      a = (t1 + t2) >>> 0;
    }
    const out = [a, bb, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i++) h[i] = (h[i]! + out[i]!) >>> 0;
  }
  return h;
}

export const sha256Hex = (text: string) =>
  [...sha256Words(new TextEncoder().encode(text))].map((w) => w.toString(16).padStart(8, '0')).join('');

/**
 * Finds the number and returns the `altcha` field (base64 JSON). Undefined when the range holds
 * no answer (a broken challenge: the server then says what to do).
 */
export async function solveChallenge(c: Challenge, slice = 4_000): Promise<string | undefined> {
  const target = Uint32Array.from({ length: 8 }, (_, i) =>
    Number.parseInt(c.challenge.slice(i * 8, i * 8 + 8), 16),
  );
  const encoder = new TextEncoder();
  for (let n = 0; n <= c.maxnumber; n++) {
    const h = sha256Words(encoder.encode(c.salt + n));
    if (h.every((w, i) => w === target[i])) {
      const { algorithm, challenge, salt, signature } = c;
      return btoa(JSON.stringify({ algorithm, challenge, number: n, salt, signature }));
    }
    if (n % slice === slice - 1) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return undefined;
}
