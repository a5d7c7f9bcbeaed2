import { z } from 'zod';
import { estateTax } from './estate-tax/index.ts';
import { executorCommission } from './executor-commission/index.ts';
import { inheritanceTax } from './inheritance-tax/index.ts';
import { probateFees } from './probate-fees/index.ts';
import { rmd } from './rmd/index.ts';
import type { CalculationResult, CalculatorDefinition, CalculatorInfo, FieldIssue } from './types.ts';

export type { CalculationResult, CalculatorInfo } from './types.ts';

// biome-ignore lint/suspicious/noExplicitAny: the registry holds calculators of different input types
const DEFINITIONS: readonly CalculatorDefinition<any>[] = [
  estateTax,
  inheritanceTax,
  probateFees,
  executorCommission,
  rmd,
];

/** Every calculator, in display order. */
export const calculators: readonly CalculatorInfo[] = DEFINITIONS;

export function getCalculator(slug: string): CalculatorInfo | undefined {
  return DEFINITIONS.find((c) => c.slug === slug);
}

export const isCalculatorSlug = (slug: string): boolean => DEFINITIONS.some((c) => c.slug === slug);

/** The JSON Schema of a calculator's inputs, for clients that render their own forms. */
export function calculatorJsonSchema(slug: string): Record<string, unknown> {
  const calculator = getCalculator(slug);
  // A programming error (callers list slugs from `calculators`), so it throws rather than guess.
  if (!calculator) throw new Error(`unknown calculator ${slug}`);
  return z.toJSONSchema(calculator.inputSchema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
}

export type RunOutcome =
  | { ok: true; inputs: Record<string, unknown>; result: CalculationResult }
  | { ok: false; issues: FieldIssue[] };

/**
 * Validates with the calculator's own schema, then computes. Never throws: an unknown slug, invalid
 * input or an invalid clock gives field-level issues with dotted paths. `now` selects the rules
 * when the inputs name no date; the real clock is read here, at the edge, and nowhere below.
 */
export function runCalculator(slug: string, rawInputs: unknown, options: { now?: Date } = {}): RunOutcome {
  const calculator = DEFINITIONS.find((c) => c.slug === slug);
  if (!calculator) {
    return { ok: false, issues: [{ path: 'calculator', message: `Unknown calculator "${String(slug)}"` }] };
  }
  const now = options.now ?? new Date();
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    return { ok: false, issues: [{ path: 'now', message: 'The clock gave an invalid date' }] };
  }
  try {
    const parsed = calculator.inputSchema.safeParse(rawInputs);
    if (!parsed.success) return { ok: false, issues: parsed.error.issues.map(toFieldIssue) };
    const result = calculator.compute(parsed.data, { now });
    return { ok: true, inputs: parsed.data as Record<string, unknown>, result };
  } catch (error) {
    // Not expected for validated input; kept so that callers can rely on "never throws".
    return {
      ok: false,
      issues: [{ path: '(inputs)', message: error instanceof Error ? error.message : 'Cannot compute' }],
    };
  }
}

const toFieldIssue = (issue: z.core.$ZodIssue): FieldIssue => ({
  path: issue.path.map(String).join('.') || '(inputs)',
  message: issue.message,
});
