import { z } from 'zod';
import { money, usState } from '../fields.ts';
import { applyRate, dollars, type Micro, max, ppm, toDollars } from '../money.ts';
import { bands } from '../schedule.ts';
import { type CalculationResult, type CalculatorDefinition, DISCLAIMER, type RuleSet } from '../types.ts';

/**
 * Inheritance tax per heir (calculator law reference §3). Spouses are exempt everywhere.
 * Each state's rates sit in one table with its source.
 */
export const HEIR_CLASSES = {
  PA: ['spouse', 'lineal', 'sibling', 'other'],
  NJ: ['A', 'C', 'D'],
  NE: ['close', 'remote', 'other'],
  MD: ['exempt', 'other'],
} as const;

type Rule = (bequest: Micro) => Micro;
const flat =
  (rate: string, exemption = 0): Rule =>
  (b) =>
    applyRate(max(0n, b - dollars(exemption)), ppm(rate));

const RULES: Record<string, { source: string; classes: Record<string, Rule> }> = {
  PA: {
    source: '72 P.S. §9116',
    classes: { spouse: () => 0n, lineal: flat('4.5'), sibling: flat('12'), other: flat('15') },
  },
  NJ: {
    source: 'N.J.S.A. 54:34-2',
    classes: {
      A: () => 0n,
      C: (b) =>
        bands(b, [
          [25_000, '0'],
          [1_100_000, '11'],
          [1_400_000, '13'],
          [1_700_000, '14'],
          [null, '16'],
        ]),
      D: (b) =>
        bands(b, [
          [700_000, '15'],
          [null, '16'],
        ]),
    },
  },
  NE: {
    source: 'Neb. Rev. Stat. §77-2004 to §77-2006',
    classes: { close: flat('1', 100_000), remote: flat('11', 40_000), other: flat('15', 25_000) },
  },
  MD: { source: 'Md. Tax-Gen. §7-203', classes: { exempt: () => 0n, other: flat('10') } },
};

export const INHERITANCE_RULES: RuleSet = {
  id: 'us-inheritance-2026',
  taxYear: 2026,
  effectiveDate: '2026-01-01',
  sources: Object.entries(RULES).map(([state, r]) => `${state}: ${r.source}`),
};

const schema = z
  .object({
    state: usState('State'),
    bequest: money('Amount inherited'),
    heirClass: z.string().min(1).meta({
      label: 'Heir class',
      description: 'PA spouse|lineal|sibling|other; NJ A|C|D; NE close|remote|other; MD exempt|other',
    }),
  })
  .superRefine((input, ctx) => {
    if (input.state === 'KY') {
      ctx.addIssue({
        code: 'custom',
        path: ['state'],
        message:
          'Kentucky’s inheritance tax brackets are not sourced yet; this calculator cannot estimate KY.',
      });
      return;
    }
    const classes = HEIR_CLASSES[input.state as keyof typeof HEIR_CLASSES] as readonly string[] | undefined;
    if (classes && !classes.includes(input.heirClass)) {
      ctx.addIssue({
        code: 'custom',
        path: ['heirClass'],
        message: `For ${input.state} use one of: ${classes.join(', ')}`,
      });
    }
  });

export type InheritanceInput = z.output<typeof schema>;

function compute(input: InheritanceInput): CalculationResult {
  const rules = RULES[input.state];
  const notes: string[] = [];
  let tax = 0n;
  if (!rules) {
    notes.push(
      `${input.state} has no inheritance tax${input.state === 'IA' ? ' (Iowa repealed it for deaths from 2025-01-01)' : ''}.`,
    );
  } else {
    tax = rules.classes[input.heirClass]!(dollars(input.bequest));
    if (input.state === 'PA')
      notes.push('Transfers from a child aged 21 or younger to a parent are taxed at 0%.');
    if (input.state === 'NE') notes.push('Heirs under 22 are exempt.');
    if (input.state === 'MD')
      notes.push('Spouses, lineal descendants, parents and siblings are exempt (class "exempt").');
  }
  const inheritanceTax = toDollars(tax);
  return {
    outputs: {
      inheritanceTax,
      bequest: input.bequest,
      netInheritance: Math.round((input.bequest - inheritanceTax) * 100) / 100,
    },
    lineItems: [
      { label: 'Amount inherited', amount: input.bequest, kind: 'income' },
      { label: `${input.state} inheritance tax (${input.heirClass})`, amount: inheritanceTax, kind: 'tax' },
      {
        label: 'Net to heir',
        amount: Math.round((input.bequest - inheritanceTax) * 100) / 100,
        kind: 'total',
      },
    ],
    notes,
    ruleSet: INHERITANCE_RULES,
    disclaimer: DISCLAIMER,
  };
}

export const inheritanceTax: CalculatorDefinition<InheritanceInput> = {
  slug: 'inheritance-tax',
  name: 'Inheritance tax',
  description: 'Inheritance tax owed by one heir in PA, NJ, NE or MD, by heir class.',
  disclaimer: DISCLAIMER,
  ruleSet: INHERITANCE_RULES,
  inputSchema: schema,
  inputLabels: { state: 'State', bequest: 'Amount inherited', heirClass: 'Heir class' },
  outputLabels: {
    inheritanceTax: 'Inheritance tax',
    bequest: 'Amount inherited',
    netInheritance: 'Net to heir',
  },
  compute,
};
