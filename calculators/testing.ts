import { type CalculationResult, runCalculator } from './index.ts';

/** A fixed day inside the 2026 tables, so tests never read the real clock. */
export const NOW = new Date('2026-06-15T12:00:00Z');

/** Runs a calculator on inputs the test knows are valid; fails loudly when they are refused. */
export function compute(slug: string, inputs: unknown, now: Date = NOW): CalculationResult {
  const outcome = runCalculator(slug, inputs, { now });
  if (!outcome.ok) throw new Error(`refused: ${JSON.stringify(outcome.issues)}`);
  return outcome.result;
}

export const outputsOf = (slug: string, inputs: unknown, now?: Date) =>
  compute(slug, inputs, now).outputs as Record<string, number>;

/** The dotted paths of the field issues (empty when the inputs were accepted). */
export function issuePaths(slug: string, inputs: unknown, now: Date = NOW): string[] {
  const outcome = runCalculator(slug, inputs, { now });
  return outcome.ok ? [] : outcome.issues.map((i) => i.path).sort();
}

/** Whole cents of a dollar figure, for exact sums in assertions. */
export const cents = (dollars: number) => Math.round(dollars * 100);
