import { describe, expect, it } from 'vitest';
import {
  challengeKeyOf,
  createChallenge,
  DIFFICULTY,
  isTooEasy,
  maxNumberFor,
  priceFor,
  solveChallenge,
  verifySolution,
} from './proof-of-work.ts';

const key = challengeKeyOf(Buffer.alloc(32, 7));
const now = new Date('2026-03-01T12:00:00Z');
const fresh = () => createChallenge(key, { licenseId: 'lic_1', maxnumber: 2_000, now });

describe('proof of work (ALTCHA challenge format, node:crypto)', () => {
  it('a solved challenge verifies for its license until it expires', () => {
    const c = fresh();
    expect(c).toMatchObject({ algorithm: 'SHA-256', maxnumber: 2_000 });
    expect(c.salt).toMatch(/^[0-9a-f]{24}\?expires=\d+&license=lic_1&maxnumber=2000$/);
    const s = solveChallenge(c);
    expect(verifySolution(key, s, { licenseId: 'lic_1', now })).toMatchObject({ ok: true, maxnumber: 2_000 });
    expect(verifySolution(key, s, { licenseId: 'lic_2', now })).toEqual({
      ok: false,
      reason: 'other_license',
    });
    const later = new Date(now.getTime() + 5 * 60_000 + 1_000);
    expect(verifySolution(key, s, { licenseId: 'lic_1', now: later })).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it.each([
    [
      'a wrong number',
      (s: ReturnType<typeof solveChallenge>) => ({ ...s, number: s.number + 1 }),
      'wrong_answer',
    ],
    [
      'another salt (a longer expiry)',
      (s: ReturnType<typeof solveChallenge>) => ({
        ...s,
        salt: s.salt.replace(/expires=\d+/, 'expires=9999999999'),
      }),
      'wrong_answer',
    ],
    [
      'a cheaper price in the salt',
      (s: ReturnType<typeof solveChallenge>) => ({
        ...s,
        salt: s.salt.replace(/maxnumber=\d+/, 'maxnumber=1'),
      }),
      'wrong_answer',
    ],
    [
      'a challenge not signed by us',
      (s: ReturnType<typeof solveChallenge>) => ({ ...s, signature: 'a'.repeat(64) }),
      'bad_signature',
    ],
    [
      'another algorithm',
      (s: ReturnType<typeof solveChallenge>) => ({ ...s, algorithm: 'SHA-1' }),
      'malformed',
    ],
  ])('refuses %s', (_name, tamper, reason) => {
    const s = solveChallenge(fresh());
    expect(verifySolution(key, tamper(s), { licenseId: 'lic_1', now })).toEqual({ ok: false, reason });
  });

  it('the curve: cheap for a firm’s usual few leads, ≥ 10× past the first few dozen, capped', () => {
    expect(maxNumberFor(0)).toBe(DIFFICULTY.BASE);
    expect(maxNumberFor(DIFFICULTY.FREE_LEADS)).toBe(DIFFICULTY.BASE);
    expect(maxNumberFor(DIFFICULTY.FREE_LEADS + DIFFICULTY.STEP)).toBe(2 * DIFFICULTY.BASE);
    expect(maxNumberFor(30) / DIFFICULTY.BASE).toBeGreaterThanOrEqual(10);
    expect(maxNumberFor(10_000)).toBe(DIFFICULTY.CAP);
  });

  it('the price per network: a fresh network pays about the base price during a flood from elsewhere; the flooding network pays steeply', () => {
    // 60 paid leads in the hour from other networks: the license's traffic is a factor of at most 4.
    const fresh = priceFor({ license: 60, network: 0 });
    expect(fresh).toBeGreaterThanOrEqual(DIFFICULTY.BASE);
    expect(fresh).toBeLessThanOrEqual(DIFFICULTY.LICENSE_FACTOR * DIFFICULTY.BASE);
    expect(DIFFICULTY.LICENSE_FACTOR).toBeLessThanOrEqual(4);
    // The same 60 from the requester's own network: the full curve.
    expect(priceFor({ license: 60, network: 60 })).toBe(DIFFICULTY.CAP);
    expect(priceFor({ license: 30, network: 30 }) / DIFFICULTY.BASE).toBeGreaterThanOrEqual(10);
    // A quiet hour is the base price whatever the network.
    expect(priceFor({ license: 0, network: 0 })).toBe(DIFFICULTY.BASE);
    expect(priceFor({ license: 3, network: 3 })).toBe(DIFFICULTY.BASE);
    // An unknown network (no client address, or a private one) pays the license-wide price, as before.
    expect(priceFor({ license: 60, network: null })).toBe(maxNumberFor(60));
    // Never above the license-wide price: a challenge priced for the license is never too easy
    // for any one network's lead.
    for (let license = 0; license <= 120; license++)
      for (let network = 0; network <= license; network++)
        expect(priceFor({ license, network })).toBeLessThanOrEqual(maxNumberFor(license));
  });

  it('a challenge priced more than one step below today’s price is too easy to spend', () => {
    expect(isTooEasy(maxNumberFor(0), maxNumberFor(DIFFICULTY.FREE_LEADS + DIFFICULTY.STEP))).toBe(false);
    expect(isTooEasy(maxNumberFor(0), maxNumberFor(DIFFICULTY.FREE_LEADS + DIFFICULTY.STEP + 1))).toBe(true);
    expect(isTooEasy(DIFFICULTY.CAP, DIFFICULTY.CAP)).toBe(false);
  });
});
