import { applyRate, dollars, type Micro, max, min, ppm } from '../money.ts';
import { bands, evaluate } from '../schedule.ts';
import { FEDERAL_SCHEDULE } from './federal.ts';
import {
  CREDIT_2011B,
  HAWAII,
  MINNESOTA,
  NY_952B,
  OREGON,
  STATE_PARAMETERS as P,
  WASHINGTON,
} from './state-tables.ts';

export interface StateTaxResult {
  /** Exact tax as a rational: numerator / denominator micro-dollars. */
  tax: Micro;
  denominator: bigint;
  estimate: boolean;
  notes: string[];
  source: string;
}

const exact = (tax: Micro, source: string, notes: string[] = []): StateTaxResult => ({
  tax: max(0n, tax),
  denominator: 1n,
  estimate: false,
  notes,
  source,
});

const excess = (estate: Micro, exemption: number) => max(0n, estate - dollars(exemption));

/**
 * New York §952(c): no tax at or below the exclusion X; between X and 1.05·X the credit T(X)
 * phases out linearly, so tax = T(E) − T(X)·(21X − 20E)/X; above 1.05·X the whole estate is taxed.
 */
function newYork(estate: Micro): StateTaxResult {
  const x = dollars(P.NY.exclusion);
  if (estate <= x) return exact(0n, P.NY.source);
  const whole = evaluate(NY_952B, estate);
  if (estate * 100n >= x * 105n) {
    return exact(whole, P.NY.source, [
      'New York cliff: above 105% of the exclusion the whole estate is taxed.',
    ]);
  }
  const numerator = whole * x - evaluate(NY_952B, x) * (21n * x - 20n * estate);
  return {
    tax: max(0n, numerator),
    denominator: x,
    estimate: false,
    notes: ['New York cliff: the exclusion credit phases out between 100% and 105% of the exclusion.'],
    source: P.NY.source,
  };
}

/**
 * Illinois has no closed form (the Attorney General's calculator iterates because the tax is
 * deductible from its own base). Estimate: the fixed point t = min(C(E − t − 60,000),
 * F(E − t) − F(4,000,000)) with C the former §2011(b) credit table and F the §2001(c) schedule.
 */
function illinois(estate: Micro): StateTaxResult {
  if (estate <= dollars(P.IL.exemption)) return exact(0n, P.IL.source);
  let t = 0n;
  for (let i = 0; i < 100; i++) {
    const base = estate - t;
    const credit = evaluate(CREDIT_2011B, base - dollars(60_000));
    const tentative = evaluate(FEDERAL_SCHEDULE, base) - evaluate(FEDERAL_SCHEDULE, dollars(P.IL.exemption));
    const next = max(0n, min(credit, tentative));
    if (next === t) break;
    t = next;
  }
  return {
    ...exact(t, P.IL.source),
    estimate: true,
    notes: [
      'Illinois: an estimate of the interrelated computation; confirm with the Attorney General’s calculator.',
    ],
  };
}

function washington(estate: Micro, dateOfDeath: string): StateTaxResult {
  const table = [...WASHINGTON].reverse().find((t) => t.from <= dateOfDeath) ?? WASHINGTON[0]!;
  return exact(evaluate(table.schedule, excess(estate, table.exclusion)), table.schedule.source, [
    `Washington table in force from ${table.from}.`,
  ]);
}

/** State estate tax of a resident decedent with all property in the state. */
export function stateEstateTax(
  state: string,
  estate: Micro,
  dateOfDeath: string,
): StateTaxResult | undefined {
  switch (state) {
    case 'CT': {
      const tax = min(applyRate(excess(estate, P.CT.exemption), ppm(P.CT.rate)), dollars(P.CT.cap));
      return exact(tax, P.CT.source);
    }
    case 'DC': {
      const taxedFrom = dollars(P.DC.exemption);
      return exact(bands(estate, P.DC.bands) - bands(min(estate, taxedFrom), P.DC.bands), P.DC.source);
    }
    case 'HI':
      return exact(evaluate(HAWAII, excess(estate, P.HI.exemption)), P.HI.source);
    case 'IL':
      return illinois(estate);
    case 'MA':
      if (estate <= dollars(P.MA.threshold)) return exact(0n, P.MA.source);
      return exact(evaluate(CREDIT_2011B, estate - dollars(60_000)) - dollars(P.MA.credit), P.MA.source);
    case 'ME':
      return exact(bands(excess(estate, P.ME.exemption), P.ME.bands), P.ME.source);
    case 'MD':
      return exact(applyRate(excess(estate, P.MD.exemption), ppm(P.MD.rate)), P.MD.source, [
        'Maryland also has a 10% inheritance tax on some heirs; the two are credited against each other.',
      ]);
    case 'MN':
      return exact(evaluate(MINNESOTA, excess(estate, P.MN.exemption)), P.MN.source);
    case 'NY':
      return newYork(estate);
    case 'OR':
      return exact(evaluate(OREGON, estate), P.OR.source);
    case 'RI':
      if (estate <= dollars(P.RI.exemption)) return exact(0n, P.RI.source);
      return exact(evaluate(CREDIT_2011B, estate - dollars(60_000)) - dollars(P.RI.credit), P.RI.source);
    case 'VT':
      return exact(applyRate(excess(estate, P.VT.exemption), ppm(P.VT.rate)), P.VT.source);
    case 'WA':
      return washington(estate, dateOfDeath);
    default:
      return undefined;
  }
}
