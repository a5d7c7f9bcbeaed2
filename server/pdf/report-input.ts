import type { FirmContact } from '../contracts/firm-contact.ts';
import { longDate } from './format.ts';

/** Everything a report shows, already resolved: labels, display values and dollar amounts. */
export interface ReportInput {
  /** Printed as given, accents included ("Łukasz Żółć & Søren Ñúñez, LLP"). */
  firmName: string;
  /** The firm's accent from its settings (`#rrggbb`); the default when unset or too pale to read on paper. */
  accent?: string;
  /** How a reader reaches the firm: the contact block, and the call to action on every page. */
  contact?: Omit<FirmContact, 'timeZone'>;
  calculatorName: string;
  calculatorSlug: string;
  /** Already formatted for display. */
  inputs: { label: string; value: string }[];
  /** Dollars with two decimals; `kind` "total" and "subtotal" rows are set in bold, "info" muted. */
  lineItems: { label: string; amount: number; kind?: string }[];
  /** Emphasised in the result panel; the last one is the headline figure. */
  totals: { label: string; amount: number }[];
  extraOutputs?: { label: string; value: string }[];
  notes: string[];
  /** `label`: the rules in words with their dates ("Washington rules for deaths on or after 1 July 2026"). */
  ruleSet: { id: string; taxYear: number; effectiveDate: string; label?: string };
  /** The rules in one sentence ("Federal and New York rules for deaths in 2026"), under the title. */
  rulesInWords?: string;
  /**
   * "Rules as of": the day whose rules the figures follow (the date of death), as the lead page
   * says it; absent for calculators that take no such date (the rules' first day is printed as
   * "Rules in force from" instead).
   */
  rulesAsOf?: string;
  disclaimer: string;
  /** The law the labels and notes cite ("IRC §2058"), printed in the small print, not in the figures. */
  citations?: string[];
  /** Printed in the footer's small print only: what a firm quotes back on a call. */
  resultId: string;
  generatedAt: Date;
  /** The report's own words in the result's language (English when absent), keyed by the English. */
  words?: Readonly<Record<string, string>>;
}

/** One of the report's own words (a heading, a caption) in its language, `{n}` replaced by `values[n]`. */
export const reportWord = (input: Pick<ReportInput, 'words'>, en: string, ...values: unknown[]): string =>
  (input.words?.[en] ?? en).replace(/\{(\d)\}/g, (_, i: string) => String(values[+i]));

const MESES = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];

/**
 * A date as the report's language writes it: "28 November 2026", or in a Spanish report
 * "28 de noviembre de 2026". Anything but an ISO day is printed as given.
 */
export const reportDate = (input: Pick<ReportInput, 'words'>, iso: string): string =>
  input.words && /^\d{4}-\d{2}-\d{2}$/.test(iso)
    ? `${Number(iso.slice(8, 10))} de ${MESES[Number(iso.slice(5, 7)) - 1]} de ${iso.slice(0, 4)}`
    : longDate(iso);
