import { COMMON_TEXTS, RMD_TEXTS } from '../../texts.ts';
import { catalogue } from '../catalogue.ts';
import {
  COMMON_PATTERNS,
  COMMON_TEXTS_ES,
  COMMON_WORDS,
  NUMBER_WORDS,
  spanishDate,
  spanishValue,
} from './common.ts';

/** The RMD calculator in Spanish, in the IRS's Spanish words ("distribución mínima requerida"). */
const words: Record<string, string> = {
  ...COMMON_WORDS,
  ...NUMBER_WORDS,
  'Required minimum distribution calculator': 'Calculadora de la distribución mínima requerida (RMD)',
  'See the least you must withdraw this year from an IRA or retirement plan account.':
    'Vea cuánto debe retirar como mínimo este año de una cuenta IRA o de un plan de jubilación.',
  'Account balance on December 31 last year': 'Saldo de la cuenta al 31 de diciembre del año pasado',
  'The IRA or retirement plan balance the required minimum distribution is based on.':
    'El saldo de la IRA o del plan de jubilación en el que se basa la distribución mínima requerida (RMD).',
  'Enter the balance, e.g. 500,000': 'Escriba el saldo, p. ej., 500,000',
  'Your age on your birthday this year': 'Su edad en su cumpleaños de este año',
  'Enter your age, e.g. 75': 'Escriba su edad, p. ej., 75',
  'Withdrawals are required from age {0} (75 for those reaching 74 after 2032)':
    'Los retiros son obligatorios a partir de los {0} años (75 para quienes cumplan 74 después de 2032)',
  'You must withdraw at least {0} this year.': 'Este año debe retirar por lo menos {0}.',
  'Stays in the account': 'Queda en la cuenta',
  'Required withdrawal': 'Retiro obligatorio',
  'Life expectancy factor': 'Factor de expectativa de vida',
};

/** What the calculator stores, by code (calculators/texts.ts), in Spanish. */
const texts: Record<keyof typeof RMD_TEXTS, string> = {
  'rmd.item.balance': 'Saldo al 31 de diciembre',
  'rmd.item.distribution': 'Distribución mínima requerida (÷ {factor})',
  'rmd.note.startAge':
    'Las distribuciones mínimas requeridas comienzan a los {age} años (75 para quienes cumplan 74 después de 2032); esta calculadora no acepta edades menores.',
  'rmd.note.uniformTable':
    'Usa la Tabla Uniforme de Vida (Tabla III del IRS); si el único beneficiario es un cónyuge más de 10 años menor que el titular, se usa en su lugar la Tabla de Expectativa de Vida Conjunta y de Último Sobreviviente.',
};

export default catalogue({
  lang: 'es',
  words,
  english: { ...COMMON_TEXTS, ...RMD_TEXTS },
  texts: { ...COMMON_TEXTS_ES, ...texts },
  patterns: COMMON_PATTERNS,
  value: spanishValue,
  date: spanishDate,
});
