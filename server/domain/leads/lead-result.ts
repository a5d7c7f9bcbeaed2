import { type CalculatorInfo, calculators, getCalculator } from '../../../calculators/index.ts';
import { formatUsd } from '../../../calculators/money.ts';
import { textCode } from '../../../calculators/texts.ts';
import type { LeadResult } from '../../contracts/lead.ts';
import type { Db } from '../../db/engine/database.ts';
import { findResult, type ResultRow } from '../../db/repos/results-repo.ts';
import { AppError } from '../../lib/errors.ts';

/** The result a lead carries (declared in server/contracts/lead.ts): the same object in REST, webhooks, the alert mail, the CSV and MCP. */
export type { LeadResult };

/**
 * The figure a firm wants first, as its calculator declares it (total estate tax, total fees, the
 * inheritance tax, the distribution); failing that (a result stored before an output existed), the
 * first of its computed amounts the result has.
 */
export function headlineOf(calculator: string, outputs: Record<string, unknown> | undefined): string | null {
  const info = getCalculator(calculator);
  if (!info || !outputs) return null;
  for (const key of [info.figures.main, ...info.figures.computed]) {
    const label = info.outputLabels[key] ?? key;
    const value = outputs[key];
    if (typeof value === 'number') return `${label}: ${formatUsd(value)}`;
    if (typeof value === 'string') return `${label}: ${value}`;
  }
  return null;
}

export type ResultSource = Pick<ResultRow, 'id' | 'calculator' | 'state' | 'inputs' | 'outputs'>;

export const leadResult = (row: ResultSource | null | undefined): LeadResult | null =>
  row
    ? {
        id: row.id,
        calculator: row.calculator,
        state: row.state,
        inputs: row.inputs,
        outputs: row.outputs,
        ...headlineWithCode(row.calculator, row.outputs),
      }
    : null;

/** The headline and its stable code (`<calculator>.headline.<figure>`, its amount as written). */
function headlineWithCode(
  calculator: string,
  outputs: Record<string, unknown> | undefined,
): Pick<LeadResult, 'headline' | 'headlineCode'> {
  const headline = headlineOf(calculator, outputs);
  const ref = headline ? textCode(headline) : undefined;
  return {
    headline,
    headlineCode: ref?.code.startsWith(`${calculator}.headline.`)
      ? (ref as LeadResult['headlineCode'])
      : null,
  };
}

/**
 * `GET /results/{id}`: one result of the firm as data, test-mode ones too (flagged). Another
 * firm's id is NOT_FOUND, the same answer as an unknown one, so ids reveal nothing across firms.
 */
export async function findResultView(
  db: Db,
  accountId: string,
  id: string,
): Promise<LeadResult & { test: boolean; createdAt: string }> {
  const row = await findResult(db, accountId, id);
  if (!row) throw new AppError('NOT_FOUND', 'No such result.');
  return { ...leadResult(row)!, test: row.test, createdAt: row.createdAt.toISOString() };
}

/** A lead's figures as its calculator declares them: the amount it starts from, then what it works out. */
const leadFigureKeys = (calculator: CalculatorInfo): string[] => [
  calculator.figures.basis,
  ...calculator.figures.computed,
];

/**
 * The figures a firm's CRM wants on the lead itself, across every calculator, in this order: what
 * the estate or gift was worth, then the taxes and fees computed, each calculator's in its display
 * order. One CSV column each; a calculator fills the ones it has.
 */
export const LEAD_FIGURES: readonly string[] = [
  ...new Set([...calculators.map((c) => c.figures.basis), ...calculators.flatMap((c) => c.figures.computed)]),
];

/** A figure of a lead's result: an output wins over an input of the same name. */
export function leadFigure(result: LeadResult, key: string): number | undefined {
  const value = result.outputs[key] ?? result.inputs[key];
  return typeof value === 'number' ? value : undefined;
}

/** The figures a result's calculator declares for a lead, labelled as it labels them. */
export function mainFigures(result: LeadResult): { key: string; label: string; value: number }[] {
  const info = getCalculator(result.calculator);
  if (!info) return [];
  const labels = { ...info.inputLabels, ...info.outputLabels };
  return leadFigureKeys(info).flatMap((key) => {
    const value = leadFigure(result, key);
    return value === undefined ? [] : [{ key, label: labels[key] ?? key, value }];
  });
}
