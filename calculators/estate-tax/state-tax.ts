import { applyRate, dollars, type Micro, max, min, ppm } from '../money.ts';
import { bands, evaluate } from '../schedule.ts';
import { illinoisEstateTax } from './illinois.ts';
import { newYorkEstateTax } from './new-york.ts';
import { type StateTaxResult, stateResult } from './state-result.ts';
import {
  CREDIT_2011B,
  CREDIT_TABLE_OFFSET,
  CT,
  DC,
  HI,
  inForce,
  MA,
  MD,
  ME,
  MN,
  OR,
  RI,
  type StateEntry,
  VT,
  WA,
} from './state-tables.ts';

type StateTax = (estate: Micro, date: string) => StateTaxResult;

const excess = (estate: Micro, exemption: number) => max(0n, estate - dollars(exemption));

/** Builds a state's tax from its table: picks the version in force, then applies `rule`. */
function fromTable<P>(code: string, entry: StateEntry<P>, rule: (estate: Micro, v: P) => Micro): StateTax {
  return (estate, date) => {
    const version = inForce(entry, date);
    return stateResult(code, entry.name, version, rule(estate, version));
  };
}

const flat = (estate: Micro, v: { exemption: number; rate: string }) =>
  applyRate(excess(estate, v.exemption), ppm(v.rate));

/** MA and RI: the §2011(b) table on (estate − $60,000), less a credit; zero at or below the exemption. */
const creditTable = (estate: Micro, v: { exemption: number; credit: number }) =>
  estate <= dollars(v.exemption)
    ? 0n
    : evaluate(CREDIT_2011B, estate - dollars(CREDIT_TABLE_OFFSET)) - dollars(v.credit);

/** Resident decedents, all property in the state. States absent here have no estate tax. */
const STATE_ESTATE_TAXES: Readonly<Record<string, StateTax>> = {
  CT: fromTable('CT', CT, (e, v) => min(flat(e, v), dollars(v.cap))),
  // The bands are on the whole estate; subtracting the bands up to the exemption taxes only the excess.
  DC: fromTable('DC', DC, (e, v) => bands(e, v.bands) - bands(min(e, dollars(v.exemption)), v.bands)),
  HI: fromTable('HI', HI, (e, v) => evaluate(v, excess(e, v.exemption))),
  IL: illinoisEstateTax,
  MA: fromTable('MA', MA, creditTable),
  ME: fromTable('ME', ME, (e, v) => bands(excess(e, v.exemption), v.bands)),
  MD: fromTable('MD', MD, flat),
  MN: fromTable('MN', MN, (e, v) => evaluate(v, excess(e, v.exemption))),
  NY: newYorkEstateTax,
  OR: fromTable('OR', OR, (e, v) => evaluate(v, e)),
  RI: fromTable('RI', RI, creditTable),
  VT: fromTable('VT', VT, flat),
  WA: fromTable('WA', WA, (e, v) => evaluate(v, excess(e, v.exemption))),
};

/** The codes of the states with an estate tax (a function, so a widget page that never asks drops it). */
export const estateTaxStates = (): string[] => Object.keys(STATE_ESTATE_TAXES);

/** The state's estate tax on the estate as given, or undefined when the state has none. */
export function stateEstateTax(state: string, estate: Micro, date: string): StateTaxResult | undefined {
  const tax = STATE_ESTATE_TAXES[state]?.(estate, date);
  if (tax && state === 'MD') {
    tax.notes.push(
      'Maryland also has a 10% inheritance tax on some heirs; the two are credited against each other.',
    );
  }
  return tax;
}
