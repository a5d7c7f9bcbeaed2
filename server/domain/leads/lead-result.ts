import { getCalculator } from '../../../calculators/index.ts';
import { formatUsd } from '../../../calculators/money.ts';
import type { Db } from '../../db/engine/database.ts';
import { findResult, type ResultRow } from '../../db/repos/results-repo.ts';
import { AppError } from '../../lib/errors.ts';

/**
 * The result a lead carries, the same object in REST, webhooks, the alert mail, the CSV and MCP:
 * the calculation the visitor saw before asking to be contacted, as data (inputs and outputs as
 * the calculator named them) plus its headline figure in words ("Total estate tax: $773,200").
 */
export interface LeadResult {
  id: string;
  calculator: string;
  state: string | null;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  headline: string | null;
}

/**
 * The figure a firm wants first: a "total…" output when the calculator has one (total estate tax,
 * total fees), else the first output it names ("Inheritance tax", "Required minimum distribution").
 */
function headlineOf(calculator: string, outputs: Record<string, unknown> | undefined): string | null {
  const info = getCalculator(calculator);
  if (!info || !outputs) return null;
  const entries = Object.entries(info.outputLabels);
  const ordered = [...entries.filter(([k]) => /^total/i.test(k)), ...entries];
  for (const [key, label] of ordered) {
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
        headline: headlineOf(row.calculator, row.outputs),
      }
    : null;

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

/**
 * The figures a firm's CRM wants on the lead itself, in this order: what the estate or gift was
 * worth, then the taxes and fees computed. Fixed across calculators so the CSV has one column
 * each; a calculator fills the ones it has (an output wins over an input of the same name).
 */
export const MAIN_FIGURES = [
  'estateValue',
  'bequest',
  'balance',
  'federalTax',
  'stateTax',
  'totalTax',
  'inheritanceTax',
  'attorneyFee',
  'executorFee',
  'totalFees',
  'commission',
  'rmd',
] as const;

export type MainFigure = (typeof MAIN_FIGURES)[number];

/** The main figures a result has, labelled as its calculator labels them. */
export function mainFigures(result: LeadResult): { key: MainFigure; label: string; value: number }[] {
  const info = getCalculator(result.calculator);
  const labels = { ...info?.inputLabels, ...info?.outputLabels };
  return MAIN_FIGURES.flatMap((key) => {
    const value = result.outputs[key] ?? result.inputs[key];
    return typeof value === 'number' ? [{ key, label: labels[key] ?? key, value }] : [];
  });
}
