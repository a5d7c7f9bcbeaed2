import { type Micro, max } from '../money.ts';
import type { StateVersion } from './state-tables.ts';

/** A state's estate tax on one estate, before rounding. */
export interface StateTaxResult {
  /** Exact tax as the rational `tax / denominator` micro-dollars (the NY cliff divides by X). */
  tax: Micro;
  denominator: bigint;
  /** True when the law has no closed form and the figure is our approximation (Illinois). */
  estimate: boolean;
  notes: string[];
  /** Rule-set tag, e.g. "WA-2026-07-01". */
  id: string;
  code: string;
  version: StateVersion;
  name: string;
}

export function stateResult(
  code: string,
  name: string,
  version: StateVersion,
  tax: Micro,
  extra: { denominator?: bigint; estimate?: boolean; notes?: string[] } = {},
): StateTaxResult {
  const notes = [...(extra.notes ?? [])];
  return {
    tax: max(0n, tax),
    denominator: extra.denominator ?? 1n,
    estimate: extra.estimate ?? false,
    notes,
    id: `${code}-${version.effectiveDate}`,
    code,
    version,
    name,
  };
}
