const USD = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** "$1,234,567.89"; negatives as "−$1,234.00" would confuse copy-paste, so "-$1,234.00". */
export function formatUsd(amount: number): string {
  const cents = Math.round(Math.abs(amount) * 100);
  const text = USD.format(cents / 100);
  return amount < 0 && cents !== 0 ? `-${text}` : text;
}

export const isoDate = (date: Date) => date.toISOString().slice(0, 10);
