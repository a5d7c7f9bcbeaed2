const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const PLAIN = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });

/** Numeric outputs that are not dollar amounts; every other number a calculator returns is in dollars. */
const NON_MONEY: Record<string, 'percent' | 'plain'> = { effectiveRate: 'percent', factor: 'plain' };

/** An output value as the visitor reads it: "$1,234.50", "12.34 %", "yes". */
export function formatOutput(key: string, value: unknown): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value !== 'number') return String(value);
  if (!Number.isFinite(value)) return '—';
  const kind = NON_MONEY[key];
  if (kind === 'percent') return `${(value * 100).toFixed(2)} %`;
  if (kind === 'plain') return PLAIN.format(value);
  return USD.format(value);
}

export const formatUsd = (amount: number): string => (Number.isFinite(amount) ? USD.format(amount) : '—');

/** Outputs worth a row: labelled by the calculator, and not a `false` flag (e.g. "estimate only: no"). */
export function visibleOutputs(
  labels: Record<string, string>,
  outputs: Record<string, unknown>,
): { key: string; label: string; text: string }[] {
  return Object.keys(labels)
    .filter((key) => key in outputs && outputs[key] !== false && outputs[key] !== null)
    .map((key) => ({ key, label: labels[key]!, text: formatOutput(key, outputs[key]) }));
}
