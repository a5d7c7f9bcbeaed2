import { type Catalogue, type Pattern, translateText } from '../catalogue.ts';
import { COMMON_PATTERNS, COMMON_WORDS, STATE_NAMES, spanishDate } from './common.ts';

const stateEs = (name: string): string => STATE_NAMES[name] ?? name;

/** The heir classes as the line item names them ("class exempt"): the state's own class, in Spanish. */
const CLASS: Record<string, string> = {
  spouse: 'cónyuge',
  lineal: 'línea directa',
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
    'Algunos estados cobran impuesto sobre lo que recibe un heredero. Vea cuánto pagaría y cuánto conservaría un heredero.',
  'State where the person lived': 'Estado donde vivía la persona',
  'Pennsylvania, New Jersey, Nebraska and Maryland tax what an heir inherits.':
    'Pensilvania, Nueva Jersey, Nebraska y Maryland cobran impuesto sobre lo que hereda un heredero.',
  'Choose the state where the person lived': 'Elija el estado donde vivía la persona',
  'How much does this heir inherit?': '¿Cuánto hereda este heredero?',
  'The value this one heir receives (the bequest).': 'El valor que recibe este heredero (el legado).',
  'Enter the amount inherited, e.g. 250,000': 'Escriba la cantidad heredada, p. ej., 250,000',
  'How is the heir related?': '¿Qué parentesco tiene el heredero?',
  'The heir class the state’s law uses. Needed only in the four states that tax heirs.':
    'La categoría de heredero que usa la ley del estado. Solo hace falta en los cuatro estados que cobran impuesto a los herederos.',
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
    'Todavía no tenemos una fuente confirmada para la tabla de tramos del impuesto sobre la herencia de Kentucky (KRS 140.070), así que esta calculadora no puede estimarlo.',
  'This heir would owe no {0} inheritance tax.':
    'Este heredero no tendría que pagar impuesto sobre la herencia de {0}.',
  'This heir would owe {0} in {1} inheritance tax and keep {2}.':
    'Este heredero tendría que pagar {0} de impuesto sobre la herencia de {1} y conservaría {2}.',
  'Kept by the heir': 'Lo que conserva el heredero',
  'Inheritance tax': 'Impuesto sobre la herencia',
  // The breakdown and notes
  'Amount inherited': 'Cantidad heredada',
  'Net to heir': 'Neto para el heredero',
  'Pennsylvania: a transfer from a child aged 21 or younger to a parent is taxed at 0%.':
    'Pensilvania: lo que un hijo de 21 años o menos deja a su padre o madre paga una tasa del 0%.',
  'New Jersey: class A (spouse, children, grandchildren, parents) is exempt.':
    'Nueva Jersey: la clase A (cónyuge, hijos, nietos, padres) está exenta.',
  'Nebraska: a surviving spouse and heirs under 22 are exempt.':
    'Nebraska: el cónyuge sobreviviente y los herederos menores de 22 años están exentos.',
  'Maryland: spouses, children and other lineal descendants, parents and siblings are exempt (class "exempt"). Maryland’s estate tax and inheritance tax are credited against each other.':
    'Maryland: los cónyuges, los hijos y demás descendientes directos, los padres y los hermanos están exentos (clase “exempt”). Lo pagado por el impuesto sobre el patrimonio y por el impuesto sobre la herencia de Maryland se acredita uno contra el otro.',
  'Iowa repealed its inheritance tax for deaths on or after 2025-01-01.':
    'Iowa eliminó su impuesto sobre la herencia para fallecimientos a partir del 1 de enero de 2025.',
};

const patterns: readonly Pattern[] = [
  ...COMMON_PATTERNS,
  [/^(\w\w) has no inheritance tax\.$/, '$1 no tiene impuesto sobre la herencia.'],
  [
    /^(.+) inheritance tax \(class (\w+)\)$/,
    (_, name, c) => `Impuesto sobre la herencia de ${stateEs(name!)} (clase ${CLASS[c!] ?? c})`,
  ],
];

const spanish: Catalogue = {
  lang: 'es',
  words,
  text: (en) => translateText(words, patterns, en),
  date: spanishDate,
};

export default spanish;
