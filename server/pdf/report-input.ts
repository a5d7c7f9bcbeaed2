/** Everything a report shows, already resolved: labels, display values and dollar amounts. */
export interface ReportInput {
  /** Printed as given, accents included ("Łukasz Żółć & Søren Ñúñez, LLP"). */
  firmName: string;
  /** The firm's accent from its settings (`#rrggbb`); the default when unset or too pale to read on paper. */
  accent?: string;
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
  disclaimer: string;
  resultId: string;
  generatedAt: Date;
  /** The report's own words in the result's language (English when absent), keyed by the English. */
  words?: Readonly<Record<string, string>>;
}

/** One of the report's own words (a heading, a caption) in its language, `{n}` replaced by `values[n]`. */
export const reportWord = (input: Pick<ReportInput, 'words'>, en: string, ...values: unknown[]): string =>
  (input.words?.[en] ?? en).replace(/\{(\d)\}/g, (_, i: string) => String(values[+i]));
