import { type Catalogue, type Pattern, translateText } from '../catalogue.ts';
import { COMMON_PATTERNS, COMMON_WORDS, STATE_NAMES, spanishDate, spanishDatesIn } from './common.ts';

const stateEs = (name: string): string => STATE_NAMES[name] ?? name;

/** The estate-tax calculator in Spanish: its form, its result and the sentences its law writes. */
const words: Record<string, string> = {
  ...COMMON_WORDS,
  'Estate tax calculator': 'Calculadora del impuesto sobre el patrimonio',
  'See what federal and state estate tax an estate might owe, and how much would go to the heirs.':
    'Vea cuánto impuesto federal y estatal sobre el patrimonio podría deber un patrimonio y cuánto recibirían los herederos.',
  'What is the estate worth?': '¿Cuánto vale el patrimonio?',
  'Everything owned, less debts, funeral costs and gifts to a spouse or charity (the taxable estate).':
    'Todo lo que la persona poseía, menos las deudas, los gastos funerarios y lo que se deja al cónyuge o a obras benéficas (el patrimonio imponible).',
  'Enter the estate’s value, e.g. 2,500,000': 'Escriba el valor del patrimonio, p. ej., 2,500,000',
  'State of residence': 'Estado de residencia',
  'Where the person lived; it decides which state estate tax applies.':
    'Donde vivía la persona; determina qué impuesto estatal sobre el patrimonio se aplica.',
  'Choose the state where the person lived': 'Elija el estado donde vivía la persona',
  'Large gifts made during life': 'Donaciones importantes hechas en vida',
  'Adjusted taxable gifts: taxable gifts made after 1976 that are not already in the estate.':
    'Donaciones imponibles ajustadas: donaciones sujetas a impuestos hechas después de 1976 que no forman parte del patrimonio.',
  'Exemption left by a spouse who died earlier': 'Exención que dejó un cónyuge que falleció antes',
  'The deceased spouse’s unused exclusion (DSUE, “portability”); capped at the basic exclusion.':
    'La cantidad de exclusión no utilizada del cónyuge fallecido (DSUE, “portabilidad”); no puede superar la exclusión básica.',
  'Date of death': 'Fecha de fallecimiento',
  'Selects the rules; 2026 or 2027. Leave empty to use today’s rules.':
    'Determina las normas que se aplican: 2026 o 2027. Déjela en blanco para usar las normas de hoy.',
  'Deduct the state tax before the federal tax is worked out':
    'Restar el impuesto estatal antes de calcular el impuesto federal',
  'The state death tax deduction (IRC §2058); on by default, as the law allows.':
    'La deducción por impuestos estatales por fallecimiento (IRC §2058); activada de forma predeterminada, como lo permite la ley.',
  'Your estate would owe no federal or {0} estate tax.':
    'El patrimonio no tendría que pagar impuesto federal sobre el patrimonio ni impuesto sobre el patrimonio de {0}.',
  'Your estate would owe {0} in {1} estate tax; no federal tax.':
    'El patrimonio tendría que pagar {0} de impuesto sobre el patrimonio de {1} y nada de impuesto federal.',
  'Your estate would owe {0} in federal estate tax; no {1} estate tax.':
    'El patrimonio tendría que pagar {0} de impuesto federal sobre el patrimonio y nada de impuesto sobre el patrimonio de {1}.',
  'Your estate would owe {0} in federal estate tax and {1} in {2} estate tax.':
    'El patrimonio tendría que pagar {0} de impuesto federal sobre el patrimonio y {1} de impuesto sobre el patrimonio de {2}.',
  'To your heirs': 'Para sus herederos',
  'Federal estate tax': 'Impuesto federal sobre el patrimonio',
  '{0} estate tax': 'Impuesto sobre el patrimonio de {0}',
  'State estate tax': 'Impuesto estatal sobre el patrimonio',
  'Total estate tax': 'Impuesto total sobre el patrimonio',
  'Share of the estate': 'Porcentaje del patrimonio',
  // The breakdown
  'Taxable estate': 'Patrimonio imponible',
  'State death tax deduction (IRC §2058)': 'Deducción por impuestos estatales por fallecimiento (IRC §2058)',
  'Federal taxable estate': 'Patrimonio imponible federal',
  'Adjusted taxable gifts': 'Donaciones imponibles ajustadas',
  'Tentative tax (IRC §2001(c))': 'Impuesto provisional (IRC §2001(c))',
  // Notes
  'Gift tax already paid on the adjusted taxable gifts is taken as 0; if gift tax was paid, the federal tax here is overstated by that amount.':
    'Se supone que no se pagó impuesto sobre donaciones por las donaciones imponibles ajustadas; si se pagó, el impuesto federal que se muestra aquí es mayor que el real en esa cantidad.',
  'The state tax is computed on the estate as entered and then deducted from the federal taxable estate.':
    'El impuesto estatal se calcula sobre el patrimonio indicado y luego se resta del patrimonio imponible federal.',
  'The DSUE is capped at the basic exclusion amount.':
    'La DSUE no puede superar la cantidad de exclusión básica.',
  'Maryland also has a 10% inheritance tax on some heirs; the two are credited against each other.':
    'Maryland también cobra un impuesto sobre la herencia del 10% a algunos herederos; lo pagado por un impuesto se acredita contra el otro.',
  'New York cliff: the estate is at least 105% of the New York exclusion, so the whole estate is taxed.':
    'El “precipicio” de Nueva York: el patrimonio llega al 105% o más de la exclusión de Nueva York, por lo que se grava el patrimonio completo.',
  'New York cliff: between 100% and 105% of the New York exclusion the exclusion credit phases out, so each added dollar can cost more than a dollar of tax.':
    'El “precipicio” de Nueva York: entre el 100% y el 105% de la exclusión de Nueva York, el crédito de la exclusión se va eliminando, por lo que cada dólar adicional puede costar más de un dólar de impuesto.',
  'Illinois: an estimate. Illinois tax interacts with its own base and has no closed form; this uses the fixed point of the former federal credit limited by the tax a $4M exclusion leaves. Confirm with the Illinois Attorney General’s calculator.':
    'Illinois: es una estimación. El impuesto de Illinois depende de su propia base y no tiene una fórmula cerrada; aquí se usa el punto fijo del antiguo crédito federal, limitado por el impuesto que deja una exclusión de $4 millones. Confírmelo con la calculadora del Fiscal General de Illinois.',
};

const patterns: readonly Pattern[] = [
  ...COMMON_PATTERNS,
  [/^(\w\w) has no state estate tax\.$/, '$1 no tiene impuesto estatal sobre el patrimonio.'],
  [/^(.+) estate tax$/, (_, name) => `Impuesto sobre el patrimonio de ${stateEs(name!)}`],
  [/^Applicable credit \(exclusion of (.+)\)$/, 'Crédito aplicable (exclusión de $1)'],
  [
    /^(The federal basic exclusion|(.+)’s exemption) for (\d{4}) had not been confirmed when these rules were last checked \((.+)\), so the (\d{4}) amount of (.+) is used\.$/,
    (_, _whose, state, year, checked, own, amount) =>
      `${state ? `La exención de ${stateEs(state)}` : 'La exclusión básica federal'} para ${year} no estaba confirmada cuando se revisaron estas normas por última vez (${spanishDatesIn(checked!)}), así que se usa la cantidad de ${own}, ${amount}.`,
  ],
  [
    /^No date of death was given and today \((.+)\) is outside the dates the tables cover \((.+) to (.+)\); the rules for a death on (.+) were used\.$/,
    (_, today, from, to, date) =>
      `No se indicó la fecha de fallecimiento y hoy (${spanishDate(today!)}) está fuera de las fechas que cubren las tablas (del ${spanishDate(from!)} al ${spanishDate(to!)}); se usaron las normas para un fallecimiento el ${spanishDate(date!)}.`,
  ],
];

const spanish: Catalogue = {
  lang: 'es',
  words,
  text: (en) => translateText(words, patterns, en),
  date: spanishDate,
};

export default spanish;
