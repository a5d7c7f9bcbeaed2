import type { Db } from '../../db/database.ts';
import { findResult, type ResultRow } from '../../db/results-repo.ts';
import { AppError } from '../../errors.ts';
import { headlineOf } from '../delivery/alert-mail.ts';

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
