import {
  HEIR_CLASS_NAMES as CLASS_WORDS,
  HEIR_CLASSES,
  REFUSED,
} from '../../calculators/inheritance-tax/tables.ts';
import type { FieldIssue } from '../../calculators/types.ts';
import { t } from '../i18n/t.ts';
import { STATE_CHOICES, stateName } from './states.ts';
import type { FormSpec } from './types.ts';
import { about, num } from './words.ts';

const ALL = [...new Set(Object.values(HEIR_CLASSES).flat() as string[])];

export const inheritanceTaxForm: FormSpec = {
  lede: 'Some states tax what an heir receives. See what one heir would owe and keep.',
  fields: [
    {
      name: 'state',
      label: 'State where the person lived',
      help: 'Pennsylvania, New Jersey, Nebraska and Maryland tax what an heir inherits.',
      kind: 'select',
      required: true,
      options: STATE_CHOICES,
      missing: 'Choose the state where the person lived',
    },
    {
      name: 'bequest',
      label: 'How much does this heir inherit?',
      help: 'The value this one heir receives (the bequest).',
      kind: 'money',
      required: true,
      example: '250,000',
      missing: 'Enter the amount inherited, e.g. 250,000',
    },
    {
      name: 'heirClass',
      label: 'How is the heir related?',
      help: 'The heir class the state’s law uses. Needed only in the four states that tax heirs.',
      kind: 'select',
      required: false,
      options: ALL.map((value) => ({ value, label: CLASS_WORDS[value] ?? value })),
    },
  ],
  check(inputs) {
    const state = String(inputs.state ?? '');
    const refusal = REFUSED[state];
    if (refusal) return [{ path: 'state', message: refusal }];
    const classes = (HEIR_CLASSES as Record<string, readonly string[]>)[state];
    const issues: FieldIssue[] = [];
    if (classes && !classes.includes(String(inputs.heirClass ?? ''))) {
      const words = classes.map((c) => t(CLASS_WORDS[c] ?? c)).join('; ');
      issues.push({
        path: 'heirClass',
        message: t('For {0} choose one of: {1}', t(stateName(state)), words),
      });
    }
    return issues;
  },
  headline(outputs, inputs) {
    const tax = num(outputs.inheritanceTax);
    const name = t(stateName(inputs.state));
    if (tax === 0) return t('This heir would owe no {0} inheritance tax.', name);
    return t(
      'This heir would owe {0} in {1} inheritance tax and keep {2}.',
      about(tax),
      name,
      about(outputs.netInheritance),
    );
  },
  chart: (outputs) => [
    { label: 'Kept by the heir', amount: num(outputs.netInheritance), tone: 'keep' },
    { label: 'Inheritance tax', amount: num(outputs.inheritanceTax), tone: 'state' },
  ],
  figures: [
    ['inheritanceTax', 'Inheritance tax'],
    ['netInheritance', 'Kept by the heir'],
  ],
};
