import { formatUsd, groupDigits } from '../../calculators/money.ts';
import { t } from '../i18n/t.ts';

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

export const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** "$1,234.50"; whole dollars without ".00"; anything but a number reads "$0". */
export const usd = (n: unknown): string => formatUsd(num(n), 'unless-whole');

/** A figure for a sentence: "about $773,200" above $10,000 (to the hundred), exact below. */
export const about = (n: unknown): string => {
  const v = num(n);
  return v >= 10_000 ? t('about {0}', formatUsd(Math.round(v / 100) * 100, 'unless-whole')) : usd(v);
};
