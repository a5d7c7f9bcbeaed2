/** "8000000" → "8,000,000" (digits only). */
export const groupDigits = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * "1,234.5": `v` with at most `decimals` fraction digits (all of them when `fixed`), grouped.
 * Written out rather than with Intl.NumberFormat: the first formatter a page builds loads its
 * locale data, which cost the widget milliseconds before it could say hello.
 */
export function plainNumber(v: number, decimals: number, fixed = false): string {
  const [whole = '0', frac = ''] = Math.abs(v).toFixed(decimals).split('.');
  const shown = fixed ? frac : frac.replace(/0+$/, '');
  const text = `${groupDigits(whole)}${shown ? `.${shown}` : ''}`;
  return v < 0 && /[1-9]/.test(text) ? `-${text}` : text;
}

const dollars = (v: number, cents: boolean) => {
  const text = plainNumber(v, cents ? 2 : 0, cents);
  return text.startsWith('-') ? `-$${text.slice(1)}` : `$${text}`;
};

/** "$1,234.50"; whole dollars without ".00". */
export const usd = (n: unknown): string => {
  const v = typeof n === 'number' && Number.isFinite(n) ? n : 0;
  return dollars(v, !Number.isInteger(v));
};

/** A figure for a sentence: "about $773,200" above $10,000 (to the hundred), exact below. */
export const about = (n: unknown): string => {
  const v = typeof n === 'number' && Number.isFinite(n) ? n : 0;
  return v >= 10_000 ? `about ${dollars(Math.round(v / 100) * 100, false)}` : usd(v);
};

export const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
