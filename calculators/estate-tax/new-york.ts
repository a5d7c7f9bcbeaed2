import { dollars, type Micro } from '../money.ts';
import { evaluate } from '../schedule.ts';
import { type StateTaxResult, stateResult } from './state-result.ts';
import { inForce, NY } from './state-tables.ts';

/**
 * New York (Tax Law §952): with X the NY basic exclusion amount, no tax at or below X; between X
 * and 1.05·X the credit T(X)·(1 − (E − X)/(0.05·X)) = T(X)·(21X − 20E)/X phases out; above, the
 * whole estate is taxed by the §952(b) table. Inside the cliff the result is kept as the exact
 * fraction (numerator / X) and rounded once. Tax is continuous at X and monotone throughout.
 */
export function newYorkEstateTax(estate: Micro, date: string): StateTaxResult {
  const version = inForce(NY, date);
  const x = dollars(version.exclusion);
  const result = (tax: Micro, notes: string[], denominator = 1n) =>
    stateResult('NY', NY.name, version, tax, { denominator, notes });
  if (estate <= x) return result(0n, []);
  const whole = evaluate(version, estate);
  if (estate * 100n >= x * 105n) {
    return result(whole, [
      'New York cliff: the estate is at least 105% of the New York exclusion, so the whole estate is taxed.',
    ]);
  }
  const numerator = whole * x - evaluate(version, x) * (21n * x - 20n * estate);
  return result(
    numerator,
    [
      'New York cliff: between 100% and 105% of the New York exclusion the exclusion credit phases out, so each added dollar can cost more than a dollar of tax.',
    ],
    x,
  );
}
