import { COMMON_TEXTS, ESTATE_TAX_TEXTS } from '../../texts.ts';
import { catalogue } from '../catalogue.ts';
import { COMMON_PATTERNS, COMMON_TEXTS_ES, COMMON_WORDS, spanishDate, spanishValue } from './common.ts';

/** The estate-tax calculator in Spanish: its form, its result and the sentences its law writes. */
const words: Record<string, string> = {
  ...COMMON_WORDS,
  'Estate tax calculator': 'Calculadora del impuesto sobre el patrimonio',
  'See what federal and state estate tax an estate might owe, and how much would go to the heirs.':
    'Vea cuánto se podría deber en impuestos federales y estatales sobre el patrimonio y cuánto recibirían los herederos.',
  'What is the estate worth?': '¿Cuánto vale el patrimonio?',
  'Everything owned, less debts, funeral costs and gifts to a spouse or charity (the taxable estate).':
    'Todo lo que la persona poseía, menos las deudas, los gastos funerarios y lo que dejó al cónyuge o a organizaciones benéficas (el patrimonio imponible).',
  'Enter the estate’s value, e.g. 2,500,000': 'Escriba el valor del patrimonio, p. ej., 2,500,000',
  'State of residence': 'Estado de residencia',
  'Where the person lived; it decides which state estate tax applies.':
    'El estado donde vivía la persona; determina qué impuesto estatal sobre el patrimonio se aplica.',
  'Choose the state where the person lived': 'Elija el estado donde vivía la persona',
  'Large gifts made during life': 'Donaciones importantes hechas en vida',
  'Adjusted taxable gifts: taxable gifts made after 1976 that are not already in the estate.':
    'Donaciones imponibles ajustadas: donaciones sujetas a impuestos hechas después de 1976 que no forman parte del patrimonio.',
  'Exemption left by a spouse who died earlier': 'Exención que dejó un cónyuge que falleció antes',
  'The deceased spouse’s unused exclusion (DSUE, “portability”); capped at the basic exclusion.':
    'La cantidad de exclusión no utilizada del cónyuge fallecido (DSUE, por sus siglas en inglés; “portabilidad”); no puede superar la exclusión básica.',
  'Date of death': 'Fecha de fallecimiento',
  'Selects the rules; 2026 or 2027. Leave empty to use today’s rules.':
    'Determina las normas que se aplican (fallecimientos en 2026 o 2027). Déjela en blanco para usar las normas vigentes hoy. Si el campo muestra mm/dd/yyyy, escriba mes/día/año.',
  'Deduct the state tax before the federal tax is worked out':
    'Restar el impuesto estatal antes de calcular el impuesto federal',
  'The state death tax deduction (IRC §2058); on by default, as the law allows.':
    'La deducción por impuestos estatales por fallecimiento (IRC §2058); viene marcada, como lo permite la ley.',
  'Your estate would owe no federal or {0} estate tax.':
    'El patrimonio no tendría que pagar impuesto sobre el patrimonio, ni federal ni {0}.',
  'Your estate would owe {0} in {1} estate tax; no federal tax.':
    'El patrimonio tendría que pagar {0} de impuesto sobre el patrimonio {1} y ningún impuesto federal.',
  'Your estate would owe {0} in federal estate tax; no {1} estate tax.':
    'El patrimonio tendría que pagar {0} de impuesto federal sobre el patrimonio y ningún impuesto sobre el patrimonio {1}.',
  'Your estate would owe {0} in federal estate tax and {1} in {2} estate tax.':
    'El patrimonio tendría que pagar {0} de impuesto federal sobre el patrimonio y {1} de impuesto sobre el patrimonio de {2}.',
  'To your heirs': 'Para los herederos',
  'Federal estate tax': 'Impuesto federal sobre el patrimonio',
  '{0} estate tax': 'Impuesto sobre el patrimonio de {0}',
  'State estate tax': 'Impuesto estatal sobre el patrimonio',
  'Total estate tax': 'Impuesto total sobre el patrimonio',
  'Share of the estate': 'Porcentaje del patrimonio',
};

/** What the calculator stores, by code (calculators/texts.ts), in Spanish. */
const texts: Record<keyof typeof ESTATE_TAX_TEXTS, string> = {
  'estate-tax.item.taxableEstate': 'Patrimonio imponible',
  'estate-tax.item.stateTax': 'Impuesto sobre el patrimonio de {state}',
  'estate-tax.item.stateDeduction': 'Deducción por impuestos estatales por fallecimiento (IRC §2058)',
  'estate-tax.item.federalTaxableEstate': 'Patrimonio imponible federal',
  'estate-tax.item.adjustedTaxableGifts': 'Donaciones imponibles ajustadas',
  'estate-tax.item.tentativeTax': 'Impuesto provisional (IRC §2001(c))',
  'estate-tax.item.applicableCredit': 'Crédito aplicable (exclusión de {exclusion})',
  'estate-tax.item.federalTax': 'Impuesto federal sobre el patrimonio',
  'estate-tax.item.totalTax': 'Impuesto total sobre el patrimonio',
  'estate-tax.note.noStateTax': 'Este estado no tiene impuesto estatal sobre el patrimonio.',
  'estate-tax.note.stateDeduction':
    'El impuesto estatal se calcula sobre el patrimonio indicado y luego se resta del patrimonio imponible federal.',
  'estate-tax.note.dsueCapped': 'La DSUE no puede superar la cantidad de exclusión básica.',
  'estate-tax.note.giftTaxPaid':
    'Se supone que no se pagó impuesto sobre donaciones por las donaciones imponibles ajustadas; si se pagó, el impuesto federal que se muestra aquí es mayor que el real en esa cantidad.',
  'estate-tax.note.marylandInheritance':
    'Maryland también cobra un impuesto sobre la herencia del 10% a algunos herederos; lo pagado por un impuesto se acredita contra el otro.',
  'estate-tax.note.newYorkCliff':
    'El llamado “precipicio” (cliff) de Nueva York: el patrimonio llega al 105% o más de la exclusión de Nueva York, por lo que se grava el patrimonio completo.',
  'estate-tax.note.newYorkPhaseOut':
    'El “precipicio” de Nueva York: entre el 100% y el 105% de la exclusión de Nueva York, el crédito de la exclusión se va eliminando, por lo que cada dólar adicional puede costar más de un dólar de impuesto.',
  'estate-tax.note.illinoisEstimate':
    'Illinois: es una estimación. El impuesto de Illinois depende de su propia base y no tiene una fórmula cerrada; aquí se usa el punto fijo del antiguo crédito federal, limitado por el impuesto que deja una exclusión de $4 millones. Confírmelo con la calculadora del Fiscal General de Illinois.',
  'estate-tax.note.federalUnconfirmed':
    'La exclusión básica federal para {year} no estaba confirmada cuando se revisaron estas normas por última vez ({checked}), así que se usa la cantidad de {own}, {amount}.',
  'estate-tax.note.stateUnconfirmed':
    'La exención de {state} para {year} no estaba confirmada cuando se revisaron estas normas por última vez ({checked}), así que se usa la cantidad de {own}, {amount}.',
  'estate-tax.note.outsideCoverage':
    'No se indicó la fecha de fallecimiento y hoy ({today}) está fuera de las fechas que cubren las tablas (del {from} al {to}); se usaron las normas para un fallecimiento el {date}.',
};

export default catalogue({
  lang: 'es',
  words,
  english: { ...COMMON_TEXTS, ...ESTATE_TAX_TEXTS },
  texts: { ...COMMON_TEXTS_ES, ...texts },
  patterns: COMMON_PATTERNS,
  value: spanishValue,
  date: spanishDate,
});
