import { formatUsd } from '../calculators/money.ts';
import { plainNumber } from './forms/words.ts';
import { localDate } from './i18n/t.ts';

const MONTHS = 'January February March April May June July August September October November December'.split(
  ' ',
);

/** Numeric outputs that are not dollar amounts; every other number a calculator returns is in dollars. */
const NON_MONEY: Record<string, 'percent' | 'plain'> = { effectiveRate: 'percent', factor: 'plain' };

/** A numeric output as the visitor reads it ("$1,234.50", "12.3%"); the widget shows no others. */
export function formatOutput(key: string, value: unknown): string {
  if (typeof value !== 'number') return String(value);
  if (!Number.isFinite(value)) return '—';
  const kind = NON_MONEY[key];
  if (kind === 'percent') return `${(value * 100).toFixed(1)}%`;
  if (kind === 'plain') return plainNumber(value, 4);
  return formatUsd(value, 'unless-whole');
}

/** "2026-01-01" → "January 1, 2026". */
export const formatDate = (iso: string): string => {
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime())
    ? iso
    : (localDate(iso) ?? `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`);
};
