import { applyRate, centsToDollars, dollars, type Micro, max, ppm, toCents, toDollars } from '../money.ts';
import { INHERITANCE_TAX } from '../names.ts';
import { bands } from '../schedule.ts';
import { type CalculationResult, type CalculatorCore, DISCLAIMER, type RuleSet } from '../types.ts';
import type { InheritanceInput } from './index.ts';
import { type ClassRule, HEIR_CLASSES, INHERITANCE_TAXES, REPEALED } from './tables.ts';

const ENTRIES: Readonly<Record<string, (typeof INHERITANCE_TAXES)[keyof typeof INHERITANCE_TAXES]>> =
  INHERITANCE_TAXES;
export const ALL_CLASSES = [...new Set(Object.values(HEIR_CLASSES).flat())] as [string, ...string[]];

const INHERITANCE_RULES: RuleSet = {
  id: 'inheritance-tax-2026',
  taxYear: 2026,
  effectiveDate: '2026-01-01',
  sources: Object.entries(ENTRIES).map(([code, e]) => `${code}: ${e.source}`),
};

export const INPUT_LABELS = { state: 'State', bequest: 'Amount inherited', heirClass: 'Heir class' } as const;

function taxFor(rule: ClassRule, bequest: Micro): Micro {
  if ('bands' in rule) return bands(bequest, rule.bands);
  return applyRate(max(0n, bequest - dollars(rule.exemption ?? 0)), ppm(rule.rate));
}

function compute(input: InheritanceInput): CalculationResult {
  const entry = ENTRIES[input.state];
  const rule =
    entry && input.heirClass ? (entry.classes as Record<string, ClassRule>)[input.heirClass] : undefined;
  const inheritanceTax = rule ? toDollars(taxFor(rule, dollars(input.bequest))) : 0;
  const netInheritance = centsToDollars(toCents(input.bequest) - toCents(inheritanceTax));
  const notes = entry
    ? [...entry.notes]
    : [`${input.state} has no inheritance tax.`, ...(REPEALED[input.state] ? [REPEALED[input.state]!] : [])];
  const label = entry ? `${entry.name} inheritance tax (class ${input.heirClass})` : 'Inheritance tax';
  return {
    outputs: { inheritanceTax, bequest: input.bequest, netInheritance },
    lineItems: [
      { label: 'Amount inherited', amount: input.bequest, kind: 'income' },
      { label, amount: inheritanceTax, kind: 'tax' },
      { label: 'Net to heir', amount: netInheritance, kind: 'total' },
    ],
    notes,
    ruleSet: entry
      ? {
          ...INHERITANCE_RULES,
          id: `${INHERITANCE_RULES.id}+${input.state}-${entry.effectiveDate}`,
          sources: [entry.source],
        }
      : INHERITANCE_RULES,
    disclaimer: DISCLAIMER,
  };
}

/** Without its schema: what the widget bundles (`index.ts` adds the schema). */
export const inheritanceTaxCore: CalculatorCore<InheritanceInput> = {
  ...INHERITANCE_TAX,
  description:
    'Inheritance tax owed by one heir in Pennsylvania, New Jersey, Nebraska or Maryland, by heir class.',
  disclaimer: DISCLAIMER,
  ruleSet: INHERITANCE_RULES,
  inputLabels: INPUT_LABELS,
  outputLabels: {
    inheritanceTax: 'Inheritance tax',
    bequest: 'Amount inherited',
    netInheritance: 'Net to heir',
  },
  compute,
};
