import { getCalculator } from '../../../calculators/index.ts';
import { stateName } from '../../../calculators/limits.ts';
import { formatUsd } from '../../../calculators/money.ts';
import type { CalculatorFigures } from '../../../calculators/types.ts';

/** What an unknown calculator (a result stored by a calculator since removed) declares: nothing. */
const NO_FIGURES: CalculatorFigures = { basis: '', computed: [], main: '', money: [] };

/** The calculator's own declaration of which figures are money, which are rates, which comes first. */
export const figuresOf = (calculator: string): CalculatorFigures =>
  getCalculator(calculator)?.figures ?? NO_FIGURES;

function formatValue(value: unknown): string {
  if (typeof value === 'number')
    return Number.isInteger(value) && Math.abs(value) < 10_000
      ? String(value)
      : value.toLocaleString('en-US');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value ?? '—');
}

/**
 * An input as a person reads it: the amounts its calculator declares money (estate value, gifts,
 * balances) as dollars, the state by its name ("New York", as the widget's select said it), a
 * code by the name the calculator gives it ("Brother or sister (PA)", not `sibling`).
 */
export const formatInput = (figures: CalculatorFigures, key: string, value: unknown) =>
  typeof value === 'number' && figures.money.includes(key)
    ? formatUsd(value)
    : key === 'state' && typeof value === 'string'
      ? stateName(value)
      : (typeof value === 'string' && figures.names?.[key]?.[value]) || formatValue(value);

/** An output as a person reads it: declared money as dollars, declared rates as percentages. */
export function formatOutput(figures: CalculatorFigures, key: string, value: unknown): string {
  if (typeof value !== 'number') return formatValue(value);
  if (figures.rates?.includes(key)) return `${(value * 100).toFixed(2)} %`;
  if (figures.money.includes(key)) return formatUsd(value);
  return formatValue(value);
}

/** Entries in the calculator's own field order (stored JSON does not keep key order). */
export function inLabelOrder(
  values: Record<string, unknown>,
  labels: Record<string, string>,
): [string, unknown][] {
  const known = Object.keys(labels).filter((k) => k in values);
  const rest = Object.keys(values).filter((k) => !(k in labels));
  return [...known, ...rest].map((k) => [k, values[k]]);
}

export interface Figure {
  label: string;
  value: string;
}

/**
 * A result's figures in words, for a person reading a lead: the visitor's inputs and the outputs
 * (dollar amounts formatted, rates as percentages), both labelled and in the calculator's order.
 */
export function resultFigures(
  calculator: string,
  inputs: Record<string, unknown>,
  outputs: Record<string, unknown>,
): { inputs: Figure[]; outputs: Figure[] } {
  const info = getCalculator(calculator);
  const figures = figuresOf(calculator);
  const inLabels = info?.inputLabels ?? {};
  const outLabels = info?.outputLabels ?? {};
  return {
    inputs: inLabelOrder(inputs, inLabels).map(([k, v]) => ({
      label: inLabels[k] ?? k,
      value: formatInput(figures, k, v),
    })),
    // "no" flags (e.g. "Estimate (no closed form): no") say nothing to a reader; left out.
    outputs: inLabelOrder(outputs, outLabels)
      .filter(([, v]) => v !== false)
      .map(([k, v]) => ({ label: outLabels[k] ?? k, value: formatOutput(figures, k, v) })),
  };
}
