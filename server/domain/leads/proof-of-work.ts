import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * Proof of work on lead submission in ALTCHA's challenge format, with node:crypto only (no
 * dependency, no third-party service, no cookie). The server picks a secret number n ≤ maxnumber
 * and publishes `challenge = hex SHA-256(salt + n)`; the widget finds n by trying 0, 1, 2, …
 * (maxnumber/2 hashes on average). `signature = hex HMAC-SHA256(key, challenge)` proves the
 * challenge is ours; the salt carries its expiry, the license it is bound to and the difficulty it
 * was priced at (`<random>?expires=<unix s>&license=<id>&maxnumber=<n>`), so none of them can be
 * changed without breaking the hash. The price is checked again when the lead spends it
 * (`isTooEasy`): a challenge fetched in a quiet hour cannot be spent cheaply during a flood.
 */
export interface Challenge {
  algorithm: 'SHA-256';
  challenge: string;
  maxnumber: number;
  salt: string;
  signature: string;
}

export interface Solution {
  algorithm: string;
  challenge: string;
  number: number;
  salt: string;
  signature: string;
}

/**
 * A challenge is good for this long after it is issued. The widget fetches it when send is
 * pressed, so a visitor needs seconds; a short life keeps a stockpile from lasting.
 */
const CHALLENGE_TTL_MS = 5 * 60_000;

/**
 * The difficulty curve: maxnumber by a count of paid leads in the last hour (`recent`). Up to
 * FREE_LEADS it is BASE (a few milliseconds in a browser); past them it doubles every STEP
 * leads, up to CAP (100× BASE), so a flood pays steeply and a firm's usual few leads stay cheap.
 * LICENSE_FACTOR bounds how much the license's traffic from other networks adds (`priceFor`).
 */
export const DIFFICULTY = {
  BASE: 20_000,
  FREE_LEADS: 10,
  STEP: 5,
  CAP: 2_000_000,
  LICENSE_FACTOR: 4,
} as const;

export function maxNumberFor(recent: number): number {
  const { BASE, FREE_LEADS, STEP, CAP } = DIFFICULTY;
  const factor = 2 ** (Math.max(0, recent - FREE_LEADS) / STEP);
  return Math.min(CAP, Math.round(BASE * factor));
}

/**
 * Paid leads of one license in the last hour: all of them (`license`) and those from the
 * requester's network (`network`; null when the requester's network is unknown).
 */
export interface PaidTraffic {
  license: number;
  network: number | null;
}

/**
 * The price a requester pays: the curve of its own network's paid leads, times the curve of the
 * license's other paid leads bounded at LICENSE_FACTOR. A flood raises the flooding network's
 * price steeply, while a visitor from a fresh network pays at most LICENSE_FACTOR × BASE however
 * many networks flood (a flooder with many networks is limited by the spam rule's per-network
 * counts, not by the price). Never above `maxNumberFor(license)`, the license-wide price: so a
 * challenge priced for the license is never too easy for one network's lead. An unknown network
 * (no address, or a private one: every visitor would look alike) pays that license-wide price.
 */
export function priceFor({ license, network }: PaidTraffic): number {
  if (network === null) return maxNumberFor(license);
  const { BASE, CAP, LICENSE_FACTOR } = DIFFICULTY;
  const others = Math.min(LICENSE_FACTOR, maxNumberFor(Math.max(0, license - network)) / BASE);
  return Math.min(CAP, Math.round(maxNumberFor(network) * others));
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const sign = (key: Buffer, challenge: string) => createHmac('sha256', key).update(challenge).digest('hex');

/** The HMAC key of challenges, derived from the server's pepper (identical on every instance). */
export const challengeKeyOf = (pepper: Buffer) =>
  createHmac('sha256', pepper).update('svc lead challenge v1').digest();

export function createChallenge(
  key: Buffer,
  input: { licenseId: string; maxnumber: number; now: Date },
): Challenge {
  const expires = Math.floor((input.now.getTime() + CHALLENGE_TTL_MS) / 1000);
  const salt = `${randomBytes(12).toString('hex')}?expires=${expires}&license=${encodeURIComponent(input.licenseId)}&maxnumber=${input.maxnumber}`;
  const challenge = sha256(salt + randomInt(0, input.maxnumber + 1));
  return {
    algorithm: 'SHA-256',
    challenge,
    maxnumber: input.maxnumber,
    salt,
    signature: sign(key, challenge),
  };
}

export type Verdict =
  | { ok: true; expiresAt: Date; maxnumber: number }
  | { ok: false; reason: 'malformed' | 'wrong_answer' | 'bad_signature' | 'expired' | 'other_license' };

/** Checks a solution: our signature, the right number, not expired, this license's. */
export function verifySolution(key: Buffer, s: Solution, input: { licenseId: string; now: Date }): Verdict {
  if (s.algorithm !== 'SHA-256' || !/^[0-9a-f]{64}$/.test(s.challenge) || !/^[0-9a-f]{64}$/.test(s.signature))
    return { ok: false, reason: 'malformed' };
  if (!timingSafeEqual(Buffer.from(sign(key, s.challenge), 'hex'), Buffer.from(s.signature, 'hex')))
    return { ok: false, reason: 'bad_signature' };
  if (sha256(s.salt + s.number) !== s.challenge) return { ok: false, reason: 'wrong_answer' };
  const params = new URLSearchParams(s.salt.split('?')[1] ?? '');
  const expires = Number(params.get('expires'));
  if (!Number.isFinite(expires) || expires * 1000 <= input.now.getTime())
    return { ok: false, reason: 'expired' };
  if (params.get('license') !== input.licenseId) return { ok: false, reason: 'other_license' };
  // Challenges issued before the price was written into the salt count as the cheapest.
  const maxnumber = Number(params.get('maxnumber') ?? 0);
  return {
    ok: true,
    expiresAt: new Date(expires * 1000),
    maxnumber: Number.isSafeInteger(maxnumber) ? maxnumber : 0,
  };
}

/**
 * Stockpiling: a challenge priced more than one step (one doubling) below what the license's
 * lead rate asks now is too cheap to spend. The widget then fetches a new one and solves again.
 */
export const isTooEasy = (issued: number, required: number) => issued * 2 < required;

/** What an attacker (or a test) does: try every number until the hash matches. */
export function solveChallenge(c: Challenge): Solution & { tries: number } {
  for (let n = 0; n <= c.maxnumber; n++)
    if (sha256(c.salt + n) === c.challenge)
      return {
        algorithm: c.algorithm,
        challenge: c.challenge,
        number: n,
        salt: c.salt,
        signature: c.signature,
        tries: n + 1,
      };
  throw new Error('no solution in range');
}
