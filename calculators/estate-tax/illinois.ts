import { dollars, type Micro, max, min } from '../money.ts';
import { evaluate } from '../schedule.ts';
import { FEDERAL_SCHEDULE } from './federal-tables.ts';
import { type StateTaxResult, stateResult } from './state-result.ts';
import { CREDIT_2011B, CREDIT_TABLE_OFFSET, IL, inForce } from './state-tables.ts';

/**
 * Illinois has no closed form: its tax is the old federal state-death-tax credit computed with a
 * $4M exclusion, on a base that is itself reduced by the Illinois tax (the Attorney General's
 * calculator iterates). Our estimate is the fixed point
 *
 *   t = max(0, min(C(E − t − 60,000), F(E − t) − F(4,000,000)))
 *
 * with C the former §2011(b) credit table and F the §2001(c) schedule: the credit, limited by the
 * federal tax that a $4M exclusion would leave. g(t) = C(..) / F(..) rises with E − t, so
 * t − g(E − t) is increasing in t; the smallest micro-dollar t with t ≥ g(E − t) is found by
 * bisection. That makes the answer exact to the micro-dollar, and monotone in E.
 */
export function illinoisEstateTax(estate: Micro, date: string): StateTaxResult {
  const version = inForce(IL, date);
  const exemption = dollars(version.exemption);
  const notes = [
    'Illinois: an estimate. Illinois tax interacts with its own base and has no closed form; this uses the fixed point of the former federal credit limited by the tax a $4M exclusion leaves. Confirm with the Illinois Attorney General’s calculator.',
  ];
  if (estate <= exemption) return stateResult('IL', IL.name, version, 0n, { estimate: true, notes });
  const credit = (base: Micro) =>
    max(
      0n,
      min(
        evaluate(CREDIT_2011B, base - dollars(CREDIT_TABLE_OFFSET)),
        evaluate(FEDERAL_SCHEDULE, base) - evaluate(FEDERAL_SCHEDULE, exemption),
      ),
    );
  let lo = 0n;
  let hi = estate;
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (mid >= credit(estate - mid)) hi = mid;
    else lo = mid + 1n;
  }
  return stateResult('IL', IL.name, version, lo, { estimate: true, notes });
}
