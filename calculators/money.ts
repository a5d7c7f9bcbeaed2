/**
 * Money without floating-point drift. Amounts are bigint micro-dollars (1e-6 USD): inputs have at
 * most two decimals and rates are whole parts-per-million, so every bracket step is exact; a
 * result is rounded half-up to cents once, at the end.
 */
export type Micro = bigint;

const MICRO_PER_CENT = 10_000n;

// A JSON number's shortest round-trip text is what the sender wrote, so reading the digits is exact
// where `amount * 100` is not (999999999999.99 * 100 lands between two doubles).
const TWO_DECIMALS = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

/** True for a finite number written with at most two decimals (no exponent). */
export const hasAtMostTwoDecimals = (amount: number): boolean => TWO_DECIMALS.test(String(amount));

/** Dollars (a number with ≤ 2 decimals) to whole cents, exactly; throws on anything else. */
export function toCents(amount: number): bigint {
  const match = TWO_DECIMALS.exec(String(amount));
  if (!match) throw new RangeError(`${amount} is not a dollar amount with at most two decimals`);
  const cents = BigInt(match[2]!) * 100n + BigInt((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -cents : cents;
}

/** Dollars (a number with ≤ 2 decimals) to micro-dollars, exactly. */
export const dollars = (amount: number): Micro => toCents(amount) * MICRO_PER_CENT;

/** Whole cents to a JSON number of dollars (division by 100 is correctly rounded). */
export const centsToDollars = (cents: bigint): number => Number(cents) / 100;

export const max = (a: Micro, b: Micro): Micro => (a > b ? a : b);
export const min = (a: Micro, b: Micro): Micro => (a < b ? a : b);

/** numerator / denominator rounded half-up (ties toward +∞); denominator > 0. */
export function divRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const twice = 2n * numerator + denominator;
  const q = twice / (2n * denominator);
  // bigint division truncates toward zero; floor it for negative numerators.
  return twice < 0n && twice % (2n * denominator) !== 0n ? q - 1n : q;
}

/** Micro-dollars (or the rational micro / denominator) to whole cents, half-up. */
const microToCents = (micro: Micro, denominator = 1n): bigint =>
  divRoundHalfUp(micro, denominator * MICRO_PER_CENT);

/** Micro-dollars (or a rational of them) to a JSON number of dollars, rounded half-up to cents. */
export const toDollars = (micro: Micro, denominator = 1n): number =>
  centsToDollars(microToCents(micro, denominator));

/** Exact sum of dollar amounts that each have at most two decimals. */
export const addDollars = (...amounts: number[]): number =>
  centsToDollars(amounts.reduce((sum, a) => sum + toCents(a), 0n));

/** "8000000" → "8,000,000" (digits only). */
export const groupDigits = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * "$1,234,567.89": how dollars are written everywhere (PDF, mails, lead results, the widget, the
 * rules' texts). Rounds half away from zero to cents after trimming binary noise, so 1.005 (stored
 * as 1.00499…) shows "$1.01" as a person expects. `'unless-whole'` drops ".00" from whole dollars
 * ("$8,000,000"), as the widget and sentences do. Negatives use an ASCII hyphen, "-$1,234.00",
 * which survives copy-paste into spreadsheets; a non-finite amount shows "—" rather than "$NaN".
 * Written out rather than with Intl.NumberFormat: the first formatter a page builds loads its
 * locale data, which cost the widget milliseconds before it could say hello.
 */
export function formatUsd(amount: number, cents: 'always' | 'unless-whole' = 'always'): string {
  if (!Number.isFinite(amount)) return '—';
  const total = Math.round(Number((Math.abs(amount) * 100).toPrecision(15)));
  const rest = total % 100;
  const fraction = cents === 'always' || rest !== 0 ? `.${String(rest).padStart(2, '0')}` : '';
  const sign = amount < 0 && total !== 0 ? '-' : '';
  return `${sign}$${groupDigits(String(Math.floor(total / 100)))}${fraction}`;
}

/** A percentage as parts-per-million, exactly: '10.25' → 102500. */
export function ppm(percent: string): bigint {
  const [whole = '0', fraction = ''] = percent.split('.');
  if (fraction.length > 4) throw new RangeError(`rate ${percent}% has more precision than supported`);
  return BigInt(whole) * 10_000n + BigInt(fraction.padEnd(4, '0'));
}

/** amount × rate, exact: micro-dollars × ppm is a whole number of micro-dollars only after / 1e6. */
export const applyRate = (amount: Micro, ratePpm: bigint): Micro => (amount * ratePpm) / 1_000_000n;

/** A fraction with four decimals (0.1234), half-up; 0 for a zero whole. */
export function ratio(part: number, whole: number): number {
  const w = toCents(whole);
  if (w <= 0n) return 0;
  return Number(divRoundHalfUp(toCents(part) * 10_000n, w)) / 10_000;
}
