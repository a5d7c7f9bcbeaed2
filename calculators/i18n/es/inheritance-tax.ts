import { COMMON_TEXTS, INHERITANCE_TAX_TEXTS } from '../../texts.ts';
import { catalogue } from '../catalogue.ts';
import { COMMON_PATTERNS, COMMON_TEXTS_ES, COMMON_WORDS, spanishDate, spanishValue } from './common.ts';

/** The heir classes as the line item names them ("class exempt"): the state's own class, in Spanish. */
export const CLASS: Record<string, string> = {
  spouse: 'cónyuge',
  lineal: 'parientes en línea directa',
  sibling: 'hermanos',
  other: 'otros',
  close: 'parientes cercanos',
  remote: 'parientes lejanos',
  exempt: 'exenta',
};

/** The inheritance-tax calculator in Spanish. */
const words: Record<string, string> = {
  ...COMMON_WORDS,
  'Inheritance tax calculator': 'Calculadora del impuesto sobre la herencia',
  'Some states tax what an heir receives. See what one heir would owe and keep.':
    'Algunos estados cobran un impuesto sobre lo que recibe cada heredero. Vea cuánto pagaría un heredero y cuánto le quedaría.',
  'State where the person lived': 'Estado donde vivía la persona',
  'Pennsylvania, New Jersey, Nebraska and Maryland tax what an heir inherits.':
    'Pensilvania, Nueva Jersey, Nebraska y Maryland cobran impuesto sobre lo que recibe cada heredero.',
  'Choose the state where the person lived': 'Elija el estado donde vivía la persona',
  'How much does this heir inherit?': '¿Cuánto recibe este heredero?',
  'The value this one heir receives (the bequest).': 'El valor que recibe este heredero (el legado).',
  'Enter the amount inherited, e.g. 250,000': 'Escriba la cantidad heredada, p. ej., 250,000',
  'How is the heir related?': '¿Qué parentesco tiene el heredero con la persona fallecida?',
  'The heir class the state’s law uses. Needed only in the four states that tax heirs.':
    'La clase de heredero que usa la ley del estado. Solo hace falta en los cuatro estados que cobran impuesto a los herederos.',
  'Spouse (PA)': 'Cónyuge (PA)',
  'Child, grandchild or parent (PA)': 'Hijo, nieto, padre o madre (PA)',
  'Brother or sister (PA)': 'Hermano o hermana (PA)',
  'Someone else': 'Otra persona',
  'Spouse, child, grandchild or parent (NJ class A)': 'Cónyuge, hijo, nieto, padre o madre (NJ, clase A)',
  'Brother, sister or child-in-law (NJ class C)': 'Hermano, hermana, yerno o nuera (NJ, clase C)',
  'Anyone else (NJ class D)': 'Cualquier otra persona (NJ, clase D)',
  'Close relative (NE)': 'Pariente cercano (NE)',
  'Remote relative (NE)': 'Pariente lejano (NE)',
  'Spouse, child, parent or sibling (MD exempt)': 'Cónyuge, hijo, padre, madre o hermano (MD, exento)',
  'For {0} choose one of: {1}': 'Para {0}, elija una de estas opciones: {1}',
  'Kentucky’s inheritance tax bracket table (KRS 140.070) is not sourced yet, so this calculator cannot estimate it.':
    'La tabla de tramos del impuesto sobre la herencia de Kentucky (KRS 140.070) todavía no está confirmada, por lo que esta calculadora no puede estimar ese impuesto.',
  'This heir would owe no {0} inheritance tax.':
    'Este heredero no tendría que pagar impuesto sobre la herencia de {0}.',
  'This heir would owe {0} in {1} inheritance tax and keep {2}.':
    'Este heredero tendría que pagar {0} de impuesto sobre la herencia de {1} y conservaría {2}.',
  'Kept by the heir': 'Lo que conserva el heredero',
  'Inheritance tax': 'Impuesto sobre la herencia',
};

/** What the calculator stores, by code (calculators/texts.ts), in Spanish. */
const texts: Record<keyof typeof INHERITANCE_TAX_TEXTS, string> = {
  'inheritance-tax.item.bequest': 'Cantidad heredada',
  'inheritance-tax.item.stateTax': 'Impuesto sobre la herencia de {state} (clase {heirClass})',
  'inheritance-tax.item.noTax': 'Impuesto sobre la herencia',
  'inheritance-tax.item.net': 'Neto para el heredero',
  'inheritance-tax.note.noTax': 'Este estado no tiene impuesto sobre la herencia.',
  'inheritance-tax.note.iowaRepealed':
    'Iowa eliminó su impuesto sobre la herencia para fallecimientos a partir del 1 de enero de 2025.',
  'inheritance-tax.note.pennsylvania':
    'Pensilvania: lo que un hijo de 21 años o menos deja a su padre o madre tributa a una tasa del 0%.',
  'inheritance-tax.note.newJersey': 'Nueva Jersey: la clase A (cónyuge, hijos, nietos, padres) está exenta.',
  'inheritance-tax.note.nebraska':
    'Nebraska: el cónyuge sobreviviente y los herederos menores de 22 años están exentos.',
  'inheritance-tax.note.maryland':
    'Maryland: los cónyuges, los hijos y demás descendientes directos, los padres y los hermanos están exentos (clase “exenta”). Lo pagado por el impuesto sobre el patrimonio y por el impuesto sobre la herencia de Maryland se acredita uno contra el otro.',
};

/** The heir's class in Spanish; other values as every calculator says them. */
const value = (name: string, v: string): string =>
  name === 'heirClass' ? (CLASS[v] ?? v) : spanishValue(name, v);

export default catalogue({
  lang: 'es',
  words,
  english: { ...COMMON_TEXTS, ...INHERITANCE_TAX_TEXTS },
  texts: { ...COMMON_TEXTS_ES, ...texts },
  patterns: COMMON_PATTERNS,
  value: value,
  date: spanishDate,
});
