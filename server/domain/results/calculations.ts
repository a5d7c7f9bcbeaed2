import { type CalculationResult, getCalculator, runCalculator } from '../../../calculators/index.ts';
import { type TextRef, textCode } from '../../../calculators/texts.ts';
import { withTransaction } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import { insertResult, type ResultRow, storeResult } from '../../db/repos/results-repo.ts';
import { AppError } from '../../lib/errors.ts';
import { pageOnOrigin } from '../activation/page-on-origin.ts';
import type { Principal } from '../credentials/principal.ts';
import type { LicensingDeps } from '../deps.ts';
import { headlineOf } from '../leads/lead-result.ts';
import { enqueueResultEvent, wantsResultEvent } from '../outbox/outbox.ts';

export interface EstimateInput {
  calculator: string;
  state?: string;
  inputs: Record<string, unknown>;
  /** The host page as the widget reported it; stored as origin + path. */
  page?: string;
  /** The language the widget was shown in (`en` when absent). */
  language?: string | undefined;
}

import type { ResultView } from '../../contracts/result.ts';

export type { ResultView };

type Coded<T> = T & { code?: string; params?: Record<string, string> };

/** A line item with its label's stable code beside the English (calculators/texts.ts). */
function codedItem<T extends { label: string }>(item: Coded<T>): Coded<T> {
  if (item.code) return item;
  const ref = textCode(item.label);
  return ref ? { ...item, ...ref } : item;
}

const noteCode = (note: string): TextRef | null => textCode(note) ?? null;

/** A calculation's texts as stored and sent: each with its stable code beside the English. */
export const storedTexts = (result: Pick<CalculationResult, 'lineItems' | 'notes' | 'disclaimer'>) => ({
  lineItems: result.lineItems.map(codedItem),
  notes: result.notes,
  noteCodes: result.notes.map(noteCode),
  disclaimer: result.disclaimer,
  disclaimerCode: textCode(result.disclaimer)?.code ?? null,
});

export function toResultView(row: ResultRow): ResultView {
  // A result stored before codes is given them from its English, where the texts still know it.
  const disclaimerCode = row.disclaimerCode ?? textCode(row.disclaimer)?.code ?? null;
  return {
    resultId: row.id,
    calculator: row.calculator,
    state: row.state,
    inputs: row.inputs as Record<string, unknown>,
    outputs: row.outputs as Record<string, unknown>,
    // Stored as the calculator computed them: { label, amount, kind? } (calculators/types.ts LineItem).
    lineItems: (row.lineItems as ResultView['lineItems']).map(codedItem),
    notes: row.notes,
    noteCodes: (row.noteCodes ?? row.notes.map(noteCode)) as ResultView['noteCodes'],
    ruleSet: row.ruleSet,
    disclaimer: row.disclaimer,
    disclaimerCode: disclaimerCode as ResultView['disclaimerCode'],
    createdAt: row.createdAt.toISOString(),
    language: row.language,
  };
}

/**
 * Validates with the calculator's own schema and computes, on the server's clock: the one
 * computation behind `POST /calc/estimate` and MCP's `estimate`. Invalid inputs are
 * `INVALID_REQUEST` with the fields at fault (`inputs.<field>`, or `calculator`).
 */
function computed(
  deps: Pick<LicensingDeps, 'clock'>,
  input: Pick<EstimateInput, 'calculator' | 'state' | 'inputs'>,
) {
  const raw = input.state !== undefined ? { ...input.inputs, state: input.state } : input.inputs;
  const outcome = runCalculator(input.calculator, raw, { now: deps.clock.now() });
  if (!outcome.ok) {
    throw new AppError('INVALID_REQUEST', 'The calculator inputs are not valid.', {
      details: outcome.issues.map((issue) => ({
        path: issue.path === 'calculator' ? 'calculator' : `inputs.${issue.path}`,
        message: issue.message,
      })),
    });
  }
  return outcome;
}

/** What `previewEstimate` answers: a result's figures without an id, a row or a date. */
export interface EstimatePreview {
  calculator: string;
  /** The calculator's name ("Estate tax"). */
  name: string;
  /** The inputs as the calculator read them, defaults filled in. */
  inputs: Record<string, unknown>;
  outputs: Record<string, number | string | boolean>;
  /** The main figure with its label, as a lead's headline says it. */
  headline: string | null;
  lineItems: Coded<{ label: string; amount: number; kind?: string }>[];
  notes: string[];
  /** The rules used, in words, and the rule set they come from. */
  rules: string;
  ruleSet: { id: string; taxYear: number; effectiveDate: string; sources: string[] };
  disclaimer: string;
}

/**
 * An estimate for an assistant (MCP `estimate`): the same computation as `POST /calc/estimate`,
 * but nothing is stored, no event is queued and no funnel counter moves: a firm's own question is
 * not a visitor's calculation.
 */
export function previewEstimate(
  deps: Pick<LicensingDeps, 'clock'>,
  input: Pick<EstimateInput, 'calculator' | 'inputs'>,
): EstimatePreview {
  const { inputs, result } = computed(deps, input);
  const info = getCalculator(input.calculator)!;
  const { label, ...ruleSet } = result.ruleSet;
  return {
    calculator: info.slug,
    name: info.name,
    inputs,
    outputs: result.outputs,
    headline: headlineOf(info.slug, result.outputs),
    // Each with its stable code beside the English, as `POST /calc/estimate` answers them.
    lineItems: result.lineItems.map(codedItem),
    notes: result.notes,
    rules: label ?? `${info.name} rules for ${ruleSet.taxYear}`,
    ruleSet: {
      id: ruleSet.id,
      taxYear: ruleSet.taxYear,
      effectiveDate: ruleSet.effectiveDate,
      sources: ruleSet.sources,
    },
    disclaimer: result.disclaimer,
  };
}

/**
 * `POST /calc/estimate`: validates with the calculator's own schema, computes on the server (the
 * authoritative figure, whatever the widget showed), and stores the result for the caller's
 * account. The request's top-level `state` wins over `inputs.state`.
 */
export async function estimate(
  deps: LicensingDeps,
  principal: Extract<Principal, { kind: 'embed' | 'access' }>,
  input: EstimateInput,
): Promise<ResultView> {
  const outcome = computed(deps, input);
  const { result } = outcome;
  const state = typeof outcome.inputs.state === 'string' ? outcome.inputs.state : null;
  const values = {
    id: newId('res'),
    accountId: principal.accountId,
    licenseId: principal.licenseId,
    calculator: input.calculator,
    state,
    inputs: outcome.inputs,
    outputs: result.outputs,
    ...storedTexts(result),
    ruleSet: { ...result.ruleSet },
    originDomain: principal.domain,
    // Only a page on the caller's own site: a foreign one is dropped.
    page: pageOnOrigin(principal, input.page).page,
    // The PDF capability: the embed session (kept across renewals) or the site activation.
    embedSessionId: principal.kind === 'embed' ? principal.sid : principal.activationId,
    test: principal.kind === 'embed' && principal.test,
    createdAt: deps.clock.now(),
    language: input.language ?? 'en',
  };
  // Counted in memory once the result is stored (a failed write counts nothing).
  const counted = (row: ResultRow) => {
    deps.funnel?.add({
      kind: 'calculation',
      accountId: row.accountId,
      licenseId: values.licenseId,
      calculator: row.calculator,
      page: values.page,
      language: values.language,
      test: values.test,
    });
    return toResultView(row);
  };
  // Most firms subscribe nothing to results: then the row alone is written.
  if (!(await wantsResultEvent(deps, values))) return counted(await storeResult(deps.db, values));
  // The result and its `result.created` event commit together (transactional outbox).
  const row = await withTransaction(deps.db, async (tx) => {
    const stored = await insertResult(tx, values);
    await enqueueResultEvent(tx, stored, toResultView(stored), stored.createdAt);
    return stored;
  });
  return counted(row);
}
