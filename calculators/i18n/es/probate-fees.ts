import { COMMON_TEXTS, PROBATE_FEES_TEXTS } from '../../texts.ts';
import { catalogue } from '../catalogue.ts';
import { COMMON_PATTERNS, COMMON_TEXTS_ES, COMMON_WORDS, spanishDate, spanishValue } from './common.ts';

/** The California probate-fees calculator in Spanish ("sucesión" with "probate" named once, as firms write). */
const words: Record<string, string> = {
  ...COMMON_WORDS,
  'California probate fees calculator': 'Calculadora de honorarios de sucesión (probate) en California',
  'See the fees California law sets for the executor and the attorney in a probate.':
    'Vea los honorarios que la ley de California fija para el albacea y el abogado en un proceso de sucesión (probate).',
  'What is the estate in probate worth?': '¿Cuánto vale el patrimonio sujeto a sucesión (probate)?',
  'Gross value of the inventory, mortgages not deducted, plus gains and receipts (Cal. Prob. Code §10800).':
    'El valor bruto del inventario, sin restar hipotecas, más las ganancias y los ingresos (Cal. Prob. Code §10800).',
  'Enter the estate’s value, e.g. 1,200,000': 'Escriba el valor del patrimonio, p. ej., 1,200,000',
  'California’s statutory fees would come to {0}: {1} to the executor and the same to the attorney.':
    'Los honorarios que fija la ley de California sumarían {0}: {1} para el albacea y lo mismo para el abogado.',
  'Left in the estate': 'Queda en el patrimonio',
  'Executor fee': 'Honorarios del albacea',
  'Attorney fee': 'Honorarios del abogado',
  'Total fees': 'Total de honorarios',
};

/** What the calculator stores, by code (calculators/texts.ts), in Spanish. */
const texts: Record<keyof typeof PROBATE_FEES_TEXTS, string> = {
  'probate-fees.item.estateValue': 'Valor del patrimonio para los honorarios',
  'probate-fees.item.representative': 'Representante personal (§10800)',
  'probate-fees.item.attorney': 'Abogado (§10810)',
  'probate-fees.item.total': 'Total de honorarios fijados por ley',
  'probate-fees.note.grossValue':
    'La base es el valor bruto del inventario: no se restan las hipotecas ni otras deudas.',
  'probate-fees.note.courtSetsExcess':
    'Por encima de $25,000,000, el tribunal fija una cantidad razonable por el excedente; esta calculadora no la estima. Los honorarios que se muestran corresponden solo a los primeros $25,000,000.',
};

export default catalogue({
  lang: 'es',
  words,
  english: { ...COMMON_TEXTS, ...PROBATE_FEES_TEXTS },
  texts: { ...COMMON_TEXTS_ES, ...texts },
  patterns: COMMON_PATTERNS,
  value: spanishValue,
  date: spanishDate,
});
