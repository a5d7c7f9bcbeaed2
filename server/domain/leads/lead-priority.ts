import { STATE_TABLES } from '../../../calculators/estate-tax/state-tables.ts';
import { getCalculator } from '../../../calculators/index.ts';
import { stateName } from '../../../calculators/limits.ts';
import type { LeadPriority, LeadValue } from '../../contracts/lead.ts';

/**
 * Whom to call first: one rule table per calculator, each with its own version. A lead is rated
 * once, when it is stored, from the result stored with it: its figures and the thresholds of the
 * rule set that result names (a 2026 estate keeps 2026's exemptions, whatever the law says later).
 * When a calculator's rules change here, its version goes up and the recompute job
 * (`priority-recompute.ts`) re-rates the older leads, priority only: the figures are never worked
 * out again. Reasons are plain sentences a person reads in the Leads list, the CSV and a CRM.
 *
 * The rule tables (docs/leads.md, "Priority"):
 * - estate-tax: high when federal estate tax is due or the total tax at stake reaches $250,000;
 *   medium when any estate tax is due or the estate is within 20 % of the federal exclusion or the
 *   state's exemption; low otherwise.
 * - inheritance-tax: high from $50,000 of tax, medium when any tax is due, low when none.
 * - probate-fees: high from $100,000 of statutory fees, medium from $30,000, low below.
 * - executor-commission: high from $100,000 of commission, medium from $25,000, low below.
 * - rmd: high from a $2,000,000 balance, medium from $500,000, low below.
 */

type PriorityLevel = LeadPriority['level'];

/** Sortable: high first. Stored as `leads.priority_rank`. */
const PRIORITY_RANK: Record<PriorityLevel, number> = { high: 3, medium: 2, low: 1 };
const levelOfRank = (rank: number): PriorityLevel => (rank >= 3 ? 'high' : rank === 2 ? 'medium' : 'low');

/** What the rules read: the result as stored (figures, inputs, and the rule set it named). */
export interface RatedResult {
  calculator: string;
  state: string | null;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  ruleSet?: Record<string, unknown> | null;
}

interface Rating {
  level: PriorityLevel;
  reasons: string[];
}

type Rule = (r: RatedResult) => Rating | null;

const num = (r: RatedResult, key: string): number | undefined => {
  const v = r.outputs[key] ?? r.inputs[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
};

/** "$12M", "$1.54M", "$300K", "$850": amounts as a person says them, three significant digits. */
export function shortUsd(amount: number): string {
  const a = Math.abs(amount);
  const sign = amount < 0 ? '-' : '';
  const scaled = (n: number, unit: string) => `${sign}$${Number((a / n).toPrecision(3))}${unit}`;
  if (a >= 1e9) return scaled(1e9, 'B');
  if (a >= 1e6) return scaled(1e6, 'M');
  if (a >= 1e3) return scaled(1e3, 'K');
  return `${sign}$${Math.round(a)}`;
}

/** Estate tax's state exemption from the rule set the result named (`estate-tax-2026+WA-2026-07-01`). */
function stateExemption(ruleSetId: string): { code: string; name: string; exemption: number } | null {
  const m = /\+([A-Z]{2})-(\d{4}-\d{2}-\d{2})$/.exec(ruleSetId);
  if (!m) return null;
  const entry = STATE_TABLES[m[1]!];
  const version = entry?.versions.find((v) => v.effectiveDate === m[2]) as
    | { exemption?: number; exclusion?: number; rows?: readonly { floor: number }[] }
    | undefined;
  if (!entry || !version) return null;
  // Oregon's table starts at its exemption: the first floor is the threshold.
  const exemption = version.exemption ?? version.exclusion ?? version.rows?.[0]?.floor;
  return exemption === undefined ? null : { code: m[1]!, name: entry.name, exemption };
}

/** Estate tax at stake from this amount is high priority. */
const ESTATE_HIGH_TAX = 250_000;
/** An estate this close below an exemption (a fifth of it) is worth planning for. */
const NEAR_SHARE = 0.2;

const estateTax: Rule = (r) => {
  const estate = num(r, 'estateValue');
  const exclusion = num(r, 'federalExclusion');
  if (estate === undefined || exclusion === undefined) return null;
  const federalTax = num(r, 'federalTax') ?? 0;
  const stateTax = num(r, 'stateTax') ?? 0;
  const totalTax = num(r, 'totalTax') ?? federalTax + stateTax;
  const ruleSetId = typeof r.ruleSet?.id === 'string' ? r.ruleSet.id : '';
  const state = stateExemption(ruleSetId);
  const reasons: string[] = [];
  let near = false;
  const E = shortUsd(estate);
  if (state && stateTax > 0)
    reasons.push(
      `Estate of ${E} is ${shortUsd(estate - state.exemption)} over ${state.name}’s ${shortUsd(state.exemption)} exemption; about ${shortUsd(stateTax)} in state tax at stake.`,
    );
  else if (state && estate >= state.exemption * (1 - NEAR_SHARE)) {
    near = true;
    reasons.push(
      `Estate of ${E} is within ${shortUsd(Math.max(0, state.exemption - estate))} of ${state.name}’s ${shortUsd(state.exemption)} exemption.`,
    );
  } else if (!state && r.state) reasons.push(`${stateName(r.state)} has no state estate tax.`);
  if (federalTax > 0)
    reasons.push(
      `Estate of ${E} is ${shortUsd(estate - exclusion)} over the ${shortUsd(exclusion)} federal exclusion; about ${shortUsd(federalTax)} in federal tax at stake.`,
    );
  else if (estate >= exclusion * (1 - NEAR_SHARE)) {
    near = true;
    reasons.push(
      `Estate of ${E} is within ${shortUsd(Math.max(0, exclusion - estate))} of the ${shortUsd(exclusion)} federal exclusion.`,
    );
  }
  const level: PriorityLevel =
    federalTax > 0 || totalTax >= ESTATE_HIGH_TAX ? 'high' : totalTax > 0 || near ? 'medium' : 'low';
  if (level === 'low')
    reasons.push(
      `Estate of ${E} is below ${state ? `${state.name}’s ${shortUsd(state.exemption)} exemption and ` : ''}the ${shortUsd(exclusion)} federal exclusion; no estate tax at stake.`,
    );
  return { level, reasons };
};

/** A rule on one amount: high from `high`, medium from `medium` (a medium of 0 means "any"). */
const byAmount =
  (key: string, high: number, medium: number, say: (r: RatedResult, amount: number) => string): Rule =>
  (r) => {
    const amount = num(r, key);
    if (amount === undefined) return null;
    const level: PriorityLevel =
      amount >= high ? 'high' : (medium === 0 ? amount > 0 : amount >= medium) ? 'medium' : 'low';
    return { level, reasons: [say(r, amount)] };
  };

const inheritanceTax = byAmount('inheritanceTax', 50_000, 0, (r, tax) => {
  const bequest = shortUsd(num(r, 'bequest') ?? 0);
  const where = r.state ? stateName(r.state) : 'state';
  return tax > 0
    ? `About ${shortUsd(tax)} in ${where} inheritance tax at stake on an inheritance of ${bequest}.`
    : `No ${where} inheritance tax on this inheritance of ${bequest}.`;
});

const probateFees = byAmount(
  'totalFees',
  100_000,
  30_000,
  (r, fees) =>
    `About ${shortUsd(fees)} in statutory probate fees on an estate of ${shortUsd(num(r, 'estateValue') ?? 0)}.`,
);

const executorCommission = byAmount(
  'commission',
  100_000,
  25_000,
  (r, c) =>
    `Executor commission of about ${shortUsd(c)} on an estate of ${shortUsd(num(r, 'estateValue') ?? 0)}.`,
);

const rmd = byAmount(
  'balance',
  2_000_000,
  500_000,
  (r, balance) =>
    `Retirement balance of ${shortUsd(balance)}; a required distribution of about ${shortUsd(num(r, 'rmd') ?? 0)} this year.`,
);

/**
 * The rule table: per calculator, its rule and its version. Raise a calculator's version whenever
 * its rule or thresholds change; the recompute job re-rates that calculator's leads.
 */
const PRIORITY_RULES: Readonly<Record<string, { version: number; rate: Rule }>> = {
  'estate-tax': { version: 1, rate: estateTax },
  'inheritance-tax': { version: 1, rate: inheritanceTax },
  'probate-fees': { version: 1, rate: probateFees },
  'executor-commission': { version: 1, rate: executorCommission },
  rmd: { version: 1, rate: rmd },
};

/** The calculators with a rule table (what the recompute job walks). */
export const ratedCalculators = (): string[] => Object.keys(PRIORITY_RULES);

/** `estate-tax.1`: the rule table version a lead of this calculator is rated with today. */
export const priorityVersionOf = (calculator: string): string | null => {
  const rules = PRIORITY_RULES[calculator];
  return rules ? `${calculator}.${rules.version}` : null;
};

/** The columns a lead stores: its value and its priority (all null when there is nothing to rate). */
export interface LeadRating {
  valueAmount: number | null;
  priorityRank: number | null;
  priorityReasons: string[] | null;
  priorityVersion: string | null;
}

/** The calculator's declared main figure of a result, with its label. */
export function leadValue(result: RatedResult | null): LeadValue | undefined {
  if (!result) return undefined;
  const info = getCalculator(result.calculator);
  if (!info) return undefined;
  const figure = info.figures.main;
  const amount = result.outputs[figure];
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return undefined;
  return { figure, label: info.outputLabels[figure] ?? figure, amount };
}

/**
 * THE function that rates a lead: its value and priority from its stored result, under the
 * calculator's current rule table. A lead without a result, or a result its rules cannot read,
 * is not rated (nulls: "not computed", never a guess).
 */
export function rateLead(result: RatedResult | null): LeadRating {
  const value = leadValue(result);
  const rules = result ? PRIORITY_RULES[result.calculator] : undefined;
  const rating = result && rules ? rules.rate(result) : null;
  return {
    valueAmount: value?.amount ?? null,
    priorityRank: rating ? PRIORITY_RANK[rating.level] : null,
    priorityReasons: rating?.reasons ?? null,
    priorityVersion: rating && result ? priorityVersionOf(result.calculator) : null,
  };
}

/** The stored priority as the contract shows it; undefined when the lead was never rated. */
export function priorityOf(row: {
  priorityRank: number | null;
  priorityReasons: string[] | null;
  priorityVersion: string | null;
}): LeadPriority | undefined {
  if (row.priorityRank === null || row.priorityVersion === null) return undefined;
  // Rated under an older table: "not rated yet" until the recompute job reaches it.
  if (row.priorityVersion !== priorityVersionOf(row.priorityVersion.replace(/\.\d+$/, ''))) return undefined;
  return {
    level: levelOfRank(row.priorityRank),
    reasons: row.priorityReasons ?? [],
    ruleVersion: row.priorityVersion,
  };
}
