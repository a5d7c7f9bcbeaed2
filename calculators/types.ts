import type { z } from 'zod';

/** One row of a result's breakdown; `amount` in dollars. */
export interface LineItem {
  label: string;
  amount: number;
  kind?: 'income' | 'deduction' | 'tax' | 'credit' | 'fee' | 'subtotal' | 'total' | 'info';
}

export interface RuleSet {
  id: string;
  taxYear: number;
  /** ISO date the rules took effect. */
  effectiveDate: string;
  /**
   * The rules used, in words, with the dates they cover ("Federal rules for deaths in 2026;
   * Washington rules for deaths on or after 1 July 2026"): what a result, its PDF and the lead name.
   */
  label?: string;
  sources: string[];
}

export interface CalculationResult {
  outputs: Record<string, number | string | boolean>;
  lineItems: LineItem[];
  notes: string[];
  ruleSet: RuleSet;
  disclaimer: string;
}

export interface FieldIssue {
  path: string;
  message: string;
}

/**
 * Which of a calculator's figures are money and which one a firm reads first, declared by the
 * calculator itself: the lead's headline, the lead page, the alert mail, the CSV and the PDF read
 * this, and nothing guesses from a field's name. Declared beside the schema (the server's side):
 * the widget's core carries none of it.
 */
export interface CalculatorFigures {
  /** The amount the calculation starts from (the estate, the bequest, the balance): an input, or an output of the same name. */
  basis: string;
  /** The amounts it works out (taxes, fees, the distribution), in order: the report's totals. */
  computed: readonly string[];
  /** The one figure a firm reads first: the lead's headline. */
  main: string;
  /** Every input and output that is a dollar amount (the basis and the computed ones included). */
  money: readonly string[];
  /** Outputs that are rates, shown as percentages. */
  rates?: readonly string[];
  /** Inputs whose value is a code (the heir's class), by the name a person reads for each code. */
  names?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

export interface CalculatorInfo {
  slug: string;
  name: string;
  description: string;
  disclaimer: string;
  ruleSet: RuleSet;
  inputSchema: z.ZodType;
  inputLabels: Record<string, string>;
  outputLabels: Record<string, string>;
  figures: CalculatorFigures;
}

/**
 * A calculator without its zod schema and its figures' declaration: what the browser bundles (the
 * widget validates with its own small checks, and the server, holding the schema, stays authoritative).
 */
export interface CalculatorCore<I> extends Omit<CalculatorInfo, 'inputSchema' | 'figures'> {
  compute(input: I, context: { now: Date }): CalculationResult;
}

/** What a widget page needs of a calculator: the computation, its name and its disclaimer. */
export type WidgetCore<I> = Pick<CalculatorCore<I>, 'slug' | 'name' | 'disclaimer' | 'compute'>;

export interface CalculatorDefinition<I> extends CalculatorCore<I> {
  inputSchema: z.ZodType<I>;
  figures: CalculatorFigures;
}

export const DISCLAIMER =
  'This is an estimate for information only, not legal or tax advice. Actual liability depends on facts and law not captured here; consult a qualified attorney or tax professional.';
