/**
 * Money without floating-point drift. Amounts are bigint micro-dollars (1e-6 USD): inputs have at
 * most two decimals, rates are whole parts-per-million, so every bracket step is exact; results
 * are rounded half-up to cents once, at the end.
 */
export type Micro = bigint;

export const MICRO_PER_DOLLAR = 1_000_000n;
const MICRO_PER_CENT = 10_000n;

/** Dollars (a JSON number with ≤ 2 decimals) to micro-dollars, exactly. */
export function dollars(amount: number): Micro {
  return BigInt(Math.round(amount * 100)) * MICRO_PER_CENT;
}

export const ZERO: Micro = 0n;

export const max = (a: Micro, b: Micro): Micro => (a > b ? a : b);
export const min = (a: Micro, b: Micro): Micro => (a < b ? a : b);

/** Half-up division of non-negative rationals (negative numerators round toward +∞ at .5). */
export function divRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const twice = 2n * numerator + denominator;
  const q = twice / (2n * denominator);
  return twice < 0n && twice % (2n * denominator) !== 0n ? q - 1n : q;
}

/** Micro-dollars (or a rational of them) to a JSON number of dollars, rounded half-up to cents. */
export function toDollars(micro: Micro, denominator = 1n): number {
  const cents = divRoundHalfUp(micro, denominator * MICRO_PER_CENT);
  return Number(cents) / 100;
}

/** A percentage as parts-per-million, exactly: '10.25' → 102500. */
export function ppm(percent: string): bigint {
  const [whole = '0', fraction = ''] = percent.split('.');
  if (fraction.length > 4) throw new RangeError(`rate ${percent}% has more precision than supported`);
  return BigInt(whole) * 10_000n + BigInt(fraction.padEnd(4, '0'));
}

export const applyRate = (amount: Micro, ratePpm: bigint): Micro => (amount * ratePpm) / 1_000_000n;

/** `effectiveRate` as a fraction with four decimals (0.1234), half-up; 0 for a zero base. */
export function ratio(part: number, whole: number): number {
  if (whole <= 0) return 0;
  const p = BigInt(Math.round(part * 100));
  const w = BigInt(Math.round(whole * 100));
  return Number(divRoundHalfUp(p * 10_000n, w)) / 10_000;
}
