const WHOLE = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});
const CENTS = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** "$1,234.50"; whole dollars without ".00". */
export const usd = (n: unknown): string => {
  const v = typeof n === 'number' && Number.isFinite(n) ? n : 0;
  return Number.isInteger(v) ? WHOLE.format(v) : CENTS.format(v);
};

/** A figure for a sentence: "about $773,200" above $10,000 (to the hundred), exact below. */
export const about = (n: unknown): string => {
  const v = typeof n === 'number' && Number.isFinite(n) ? n : 0;
  return v >= 10_000 ? `about ${WHOLE.format(Math.round(v / 100) * 100)}` : usd(v);
};

export const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
