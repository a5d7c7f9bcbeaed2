import { z } from 'zod';
import { money, usState } from '../fields.ts';
import { applyRate, centsToDollars, dollars, type Micro, max, ppm, toCents, toDollars } from '../money.ts';
import { bands } from '../schedule.ts';
import { type CalculationResult, type CalculatorDefinition, DISCLAIMER, type RuleSet } from '../types.ts';
import { type ClassRule, HEIR_CLASSES, INHERITANCE_TAXES, REFUSED, REPEALED } from './tables.ts';

export { HEIR_CLASSES } from './tables.ts';

const ENTRIES: Readonly<Record<string, (typeof INHERITANCE_TAXES)[keyof typeof INHERITANCE_TAXES]>> =
  INHERITANCE_TAXES;
const ALL_CLASSES = [...new Set(Object.values(HEIR_CLASSES).flat())] as [string, ...string[]];

export const INHERITANCE_RULES: RuleSet = {
  id: 'inheritance-tax-2026',
  taxYear: 2026,
  effectiveDate: '2026-01-01',
  sources: Object.entries(ENTRIES).map(([code, e]) => `${code}: ${e.source}`),
};

const INPUT_LABELS = { state: 'State', bequest: 'Amount inherited', heirClass: 'Heir class' } as const;

const schema = z
  .object({
    state: usState(INPUT_LABELS.state),
    bequest: money(INPUT_LABELS.bequest, { description: 'Value this heir receives' }),
    heirClass: z
      .enum(ALL_CLASSES, { error: `Heir class must be one of ${ALL_CLASSES.join(', ')}` })
      .optional()
      .meta({
        label: INPUT_LABELS.heirClass,
        description: 'PA spouse|lineal|sibling|other; NJ A|C|D; NE close|remote|other; MD exempt|other',
        // The classes each state accepts, so that a form can narrow its choices.
        heirClassesByState: HEIR_CLASSES,
      }),
  })
  .superRefine((input, ctx) => {
    const refusal = REFUSED[input.state];
    if (refusal) {
      ctx.addIssue({ code: 'custom', path: ['state'], message: refusal });
      return;
    }
    const classes = HEIR_CLASSES[input.state as keyof typeof HEIR_CLASSES] as readonly string[] | undefined;
    if (classes && !classes.includes(input.heirClass ?? '')) {
      ctx.addIssue({
        code: 'custom',
        path: ['heirClass'],
        message: `For ${input.state} choose one of: ${classes.join(', ')}`,
      });
    }
  });

export type InheritanceInput = z.output<typeof schema>;

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

export const inheritanceTax: CalculatorDefinition<InheritanceInput> = {
  slug: 'inheritance-tax',
  name: 'Inheritance tax',
  description:
    'Inheritance tax owed by one heir in Pennsylvania, New Jersey, Nebraska or Maryland, by heir class.',
  disclaimer: DISCLAIMER,
  ruleSet: INHERITANCE_RULES,
  inputSchema: schema,
  inputLabels: INPUT_LABELS,
  outputLabels: {
    inheritanceTax: 'Inheritance tax',
    bequest: 'Amount inherited',
    netInheritance: 'Net to heir',
  },
  compute,
};
