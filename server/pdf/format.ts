const USD = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/**
 * "$1,234,567.89". Rounds half away from zero to cents after trimming binary noise, so 1.005
 * (stored as 1.00499…) shows "$1.01" as a person expects. Negatives use an ASCII hyphen,
 * "-$1,234.00", which survives copy-paste into spreadsheets. A non-finite amount shows "—"
 * rather than "$NaN": a client's report must never print a raw error.
 */
export function formatUsd(amount: number): string {
  if (!Number.isFinite(amount)) return '—';
  const cents = Math.round(Number((Math.abs(amount) * 100).toPrecision(15)));
  const text = USD.format(cents / 100);
  return amount < 0 && cents !== 0 ? `-${text}` : text;
}

/** "2026-03-01", the UTC calendar date. */
export const isoDate = (date: Date): string => date.toISOString().slice(0, 10);
