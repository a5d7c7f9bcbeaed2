import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * The shapes of svc's secrets (DESIGN.md §4). Each carries a recognisable prefix, so a leaked
 * one is easy to spot in a log or a commit, and a checksum, so a typo is caught before any
 * database work.
 */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function toBase62(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(Math.ceil((bytes.length * 8) / Math.log2(62)), '0');
}

function toCrockford(bytes: Uint8Array, chars: number): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < chars) {
      out += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

// License key: SVC-XXXXX-XXXXX-XXXXX-XXXXX-XXXXX-CCCCC — 125 random bits and a 25-bit check group.
const LICENSE_KEY = /^SVC(?:-[0-9A-HJKMNP-TV-Z]{5}){6}$/;

type RandomSource = (size: number) => Uint8Array;

export function generateLicenseKey(random: RandomSource = randomBytes): string {
  const body = toCrockford(random(16), 25);
  return formatLicenseKey(body + toCrockford(sha256(body), 5));
}

function formatLicenseKey(chars: string): string {
  return `SVC-${chars.match(/.{5}/g)!.join('-')}`;
}

/** Normalises what a person typed (case, spaces, Crockford's O/I/L aliases); null when malformed. */
export function normalizeLicenseKey(input: string): string | null {
  const compact = input
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/^SVC/, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  if (compact.length !== 30) return null;
  const key = formatLicenseKey(compact);
  if (!LICENSE_KEY.test(key)) return null;
  const body = compact.slice(0, 25);
  return toCrockford(sha256(body), 5) === compact.slice(25) ? key : null;
}

// Personal API key: svc_pat_ + 32 random bytes in base62 + a 6-character checksum.
const API_KEY = /^svc_pat_([0-9A-Za-z]{43})([0-9A-Za-z]{6})$/;

export function generateApiKey(random: RandomSource = randomBytes): string {
  const body = toBase62(random(32));
  return `svc_pat_${body}${apiKeyChecksum(body)}`;
}

function apiKeyChecksum(body: string): string {
  return toBase62(sha256(`svc_pat_${body}`).subarray(0, 5))
    .slice(-6)
    .padStart(6, '0');
}

export function isWellFormedApiKey(key: string): boolean {
  const match = API_KEY.exec(key);
  return match !== null && apiKeyChecksum(match[1]!) === match[2];
}

// Publishable key: svc_pk_ + 24 random bytes in base62 + a 6-character checksum. Public by design
// (it is the loader's data-key), so it is stored as is; the checksum catches a mangled paste.
const PUBLISHABLE_KEY = /^svc_pk_([0-9A-Za-z]{33})([0-9A-Za-z]{6})$/;

export function generatePublishableKey(random: RandomSource = randomBytes): string {
  const body = toBase62(random(24));
  return `svc_pk_${body}${prefixedChecksum('svc_pk_', body)}`;
}

function prefixedChecksum(prefix: string, body: string): string {
  return toBase62(sha256(`${prefix}${body}`).subarray(0, 5))
    .slice(-6)
    .padStart(6, '0');
}

export function isWellFormedPublishableKey(key: string): boolean {
  const match = PUBLISHABLE_KEY.exec(key);
  return match !== null && prefixedChecksum('svc_pk_', match[1]!) === match[2];
}

/**
 * Which kind of license key a string looks like, from its format alone (never from a database
 * lookup, so an endpoint that refuses the wrong kind is no oracle for valid keys).
 */
export function licenseKeyKindOf(input: string): 'publishable' | 'secret' | undefined {
  const trimmed = input.trim();
  if (/^svc_pk_/i.test(trimmed)) return 'publishable';
  if (/^svc[-\s]/i.test(trimmed) || normalizeLicenseKey(trimmed) !== null) return 'secret';
  return undefined;
}

/**
 * Opaque bearer secrets: prefix + 32 random bytes. Site refresh tokens and Connect codes
 * (`svc_rt_`, `svc_ac_`); MCP refresh tokens, MCP codes and OAuth client secrets (`svc_mrt_`,
 * `svc_mac_`, `svc_cs_`).
 */
export function generateOpaqueToken(
  prefix: 'svc_rt_' | 'svc_ac_' | 'svc_mrt_' | 'svc_mac_' | 'svc_cs_',
): string {
  return prefix + toBase62(randomBytes(32));
}

/** Keyed hash used to store every secret: a database dump alone cannot be used to check guesses. */
export function hmacSecret(pepper: Buffer, value: string): string {
  return createHmac('sha256', pepper).update(value).digest('hex');
}

export const lastFour = (secret: string) => secret.slice(-4);
