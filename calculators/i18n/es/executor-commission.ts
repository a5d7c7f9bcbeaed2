import { COMMON_TEXTS, EXECUTOR_COMMISSION_TEXTS } from '../../texts.ts';
import { catalogue } from '../catalogue.ts';
import { COMMON_PATTERNS, COMMON_TEXTS_ES, COMMON_WORDS, spanishDate, spanishValue } from './common.ts';

/** The New York executor-commission calculator in Spanish ("albacea", "comisión"). */
const words: Record<string, string> = {
  ...COMMON_WORDS,
  'New York executor commission calculator': 'Calculadora de la comisión del albacea en Nueva York',
  'See the commission New York law allows an executor for handling an estate.':
    'Vea la comisión que la ley de Nueva York permite a un albacea por administrar un patrimonio.',
  'How much does the executor handle?': '¿Cuánto dinero maneja el albacea?',
  'The sums the executor receives and pays out (the commissionable estate, SCPA §2307).':
    'Las sumas que el albacea recibe y paga (el patrimonio sujeto a comisión, SCPA §2307).',
  'Enter the amount the executor handles, e.g. 1,500,000':
    'Escriba la cantidad que maneja el albacea, p. ej., 1,500,000',
  'A New York executor’s commission would be {0}.': 'La comisión de un albacea en Nueva York sería de {0}.',
  'Left in the estate': 'Queda en el patrimonio',
  'Executor commission': 'Comisión del albacea',
};

/** What the calculator stores, by code (calculators/texts.ts), in Spanish. */
const texts: Record<keyof typeof EXECUTOR_COMMISSION_TEXTS, string> = {
  'executor-commission.item.estate': 'Patrimonio sujeto a comisión',
  'executor-commission.item.commission': 'Comisión del albacea (SCPA §2307)',
  'executor-commission.note.oneCommission':
    'Una comisión completa. Cuando hay varios albaceas, la SCPA §2307 determina cuántas comisiones se permiten y cómo se reparten.',
};

export default catalogue({
  lang: 'es',
  words,
  english: { ...COMMON_TEXTS, ...EXECUTOR_COMMISSION_TEXTS },
  texts: { ...COMMON_TEXTS_ES, ...texts },
  patterns: COMMON_PATTERNS,
  value: spanishValue,
  date: spanishDate,
});
