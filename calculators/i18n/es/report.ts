import { type FIRM_TEXTS, fill, type HEADLINE_TEXTS } from '../../texts.ts';
import type { Catalogue } from '../catalogue.ts';
import { spanishDate } from './common.ts';
import estateTax from './estate-tax.ts';
import executorCommission from './executor-commission.ts';
import inheritanceTax, { CLASS } from './inheritance-tax.ts';
import probateFees from './probate-fees.ts';
import rmd from './rmd.ts';

/**
 * The PDF report's own words in Spanish (the server's; no widget page loads them): its headings,
 * the calculators' names and their input and output labels as the report prints them.
 */
const REPORT_WORDS: Record<string, string> = {
  // A yes/no answer (the widget shows none).
  yes: 'sí',
  no: 'no',
  'ESTIMATE REPORT': 'INFORME DE ESTIMACIÓN',
  'Result ID': 'ID del resultado',
  'Generated (UTC)': 'Generado (UTC)',
  'Rules as of': 'Normas vigentes al',
  'Prepared on': 'Preparado el',
  // Before a date, as 'Preparado el' and the widget's 'Normas vigentes desde el {0}'.
  'Rules in force from': 'Normas vigentes desde el',
  Rules: 'Normas',
  'Periods they cover': 'Períodos que abarcan',
  'Next step': 'Próximo paso',
  Phone: 'Teléfono',
  'E-mail': 'Correo electrónico',
  Web: 'Sitio web',
  'Your inputs': 'Sus respuestas',
  Calculation: 'Cálculo',
  Item: 'Concepto',
  'Amount (USD)': 'Cantidad (USD)',
  Result: 'Resultado',
  Notes: 'Notas',
  'Notes (continued)': 'Notas (continuación)',
  '{0} (continued)': '{0} (continuación)',
  'Basis of calculation': 'Base del cálculo',
  'Rules used': 'Normas aplicadas',
  'Rule set': 'Conjunto de normas',
  'Tax year': 'Año tributario',
  'Effective date': 'Fecha de vigencia',
  'Result {0} · {1} · {2}': 'Resultado {0} · {1} · {2}',
  'Page {0} of {1}': 'Página {0} de {1}',
  '{0} estimate, result {1}': 'Estimación: {0}, resultado {1}',
  // The calculators' names (the report's title)
  'Estate tax': 'Impuesto sobre el patrimonio',
  'California probate fees': 'Honorarios de sucesión (probate) en California',
  'New York executor commission': 'Comisión del albacea en Nueva York',
  'Required minimum distribution': 'Distribución mínima requerida (RMD)',
  // Input and output labels as the calculators declare them
  'Deceased spouse’s unused exclusion (DSUE)':
    'Exclusión no utilizada del cónyuge fallecido (DSUE, por sus siglas en inglés)',
  'Deduct state estate tax (IRC §2058)': 'Restar el impuesto estatal sobre el patrimonio (IRC §2058)',
  'Effective rate': 'Tasa efectiva',
  'State death tax deduction (§2058)': 'Deducción por impuestos estatales por fallecimiento (§2058)',
  'Federal exclusion': 'Exclusión federal',
  'Estimate (no closed form)': 'Estimación (sin fórmula cerrada)',
  'Heir class': 'Clase de heredero',
  'Court sets fee above $25M': 'El tribunal fija los honorarios por encima de $25 millones',
  'Balance on 31 December of last year': 'Saldo al 31 de diciembre del año pasado',
  'Age at birthday this year': 'Edad en su cumpleaños de este año',
  Balance: 'Saldo',
};

/** The notes only the firm reads, in Spanish (by code, calculators/texts.ts). */
const FIRM_TEXTS_ES: Record<keyof typeof FIRM_TEXTS, string> = {
  'estate-tax.note.secondarySource':
    '{jurisdiction} · {figure} ({value}), {covers}: confirmado solo por fuentes secundarias [sin verificar]; revíselo antes de confiar en el resultado.',
};

/** The lead's headline, in Spanish (by code; no widget page shows it). */
const HEADLINES_ES: Record<keyof typeof HEADLINE_TEXTS, string> = {
  'estate-tax.headline.totalTax': 'Impuesto total sobre el patrimonio: {amount}',
  'inheritance-tax.headline.inheritanceTax': 'Impuesto sobre la herencia: {amount}',
  'probate-fees.headline.totalFees': 'Total de honorarios: {amount}',
  'executor-commission.headline.commission': 'Comisión del albacea: {amount}',
  'rmd.headline.rmd': 'Distribución mínima requerida: {amount}',
};

const withReport = (c: Catalogue): Catalogue => {
  const texts: Record<string, string> = { ...FIRM_TEXTS_ES, ...HEADLINES_ES, ...c.texts };
  return {
    ...c,
    words: { ...REPORT_WORDS, ...c.words },
    texts,
    say: (ref) =>
      c.say(ref) ?? (texts[ref.code] === undefined ? undefined : fill(texts[ref.code]!, ref.params)),
  };
};

/** Each calculator's Spanish catalogue with the report's words, by slug. */
export const SPANISH_REPORTS: Readonly<Record<string, Catalogue>> = {
  'estate-tax': withReport(estateTax),
  'executor-commission': withReport(executorCommission),
  'inheritance-tax': withReport(inheritanceTax),
  'probate-fees': withReport(probateFees),
  rmd: withReport(rmd),
};

/**
 * An answer as a Spanish report's inputs table says it, where the English shows a raw value: a date
 * in words ("1 de mayo de 2026", not 2026-05-01) and the heir's class ("hermanos", not sibling).
 * Undefined for the others (amounts, states, yes/no go through the catalogue's words).
 */
export function spanishInput(key: string, value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return spanishDate(value);
  return key === 'heirClass' ? CLASS[value] : undefined;
}
