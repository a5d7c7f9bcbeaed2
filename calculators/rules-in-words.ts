import { STATE_NAMES } from './i18n/es/common.ts';
import { stateName } from './limits.ts';

/**
 * The rules a result used, in a sentence a family reads ("Federal and New York rules for deaths
 * in 2026"): what the PDF prints under its title and in its basis. Table-driven so that a language
 * is one more row of `RULE_WORDS`; the jurisdictions come from the rule set's id, which every
 * stored result keeps.
 */
export interface RuleWords {
  /** The federal government as a jurisdiction. */
  federal: string;
  /** "Federal and New York", "A, B and C". */
  list(names: string[]): string;
  /** What each calculator's rules are about: "deaths", "distributions". */
  subject: Record<string, string>;
  sentence(names: string, subject: string, year: number): string;
  /** A state's name from its two-letter code. */
  state(code: string): string;
}

export type RuleLanguage = 'en' | 'es';

/** "de Nueva York", "del Distrito de Columbia": a state's Spanish name as a sentence names it. */
const deEstado = (code: string): string => {
  const name = stateName(code);
  const es = STATE_NAMES[name] ?? name;
  return es.startsWith('Distrito') ? `del ${es}` : `de ${es}`;
};

export const RULE_WORDS: Record<RuleLanguage, RuleWords> = {
  en: {
    federal: 'Federal',
    list: (names) =>
      names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`,
    subject: {
      'estate-tax': 'deaths',
      'inheritance-tax': 'deaths',
      'probate-fees': 'probate estates',
      'executor-commission': 'estates',
      rmd: 'distributions',
    },
    sentence: (names, subject, year) => `${names} rules for ${subject} in ${year}`,
    state: stateName,
  },
  es: {
    federal: 'federales',
    list: (names) =>
      names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} y ${names.at(-1)}`,
    subject: {
      'estate-tax': 'fallecimientos',
      'inheritance-tax': 'fallecimientos',
      'probate-fees': 'sucesiones (probate)',
      'executor-commission': 'sucesiones',
      rmd: 'distribuciones',
    },
    sentence: (names, subject, year) => `Normas ${names} para ${subject} en ${year}`,
    state: deEstado,
  },
};

/** `US` for federal law, or a state's code; the state comes from the id (`estate-tax-2026+NY-2026-01-01`). */
const JURISDICTIONS: Record<string, (stateCode: string | undefined) => string[]> = {
  'estate-tax': (state) => ['US', ...(state ? [state] : [])],
  'inheritance-tax': (state) => (state ? [state] : []),
  'probate-fees': () => ['CA'],
  'executor-commission': () => ['NY'],
  rmd: () => ['US'],
};

/** The sentence for a result's rules, or undefined for a calculator the table does not know. */
export function rulesInWords(
  calculator: string,
  ruleSet: { id: string; taxYear: number },
  language: RuleLanguage = 'en',
): string | undefined {
  const words = RULE_WORDS[language];
  const jurisdictions = JURISDICTIONS[calculator];
  const subject = words.subject[calculator];
  if (!jurisdictions || !subject) return undefined;
  const stateCode = /\+([A-Z]{2})(?:-|$)/.exec(ruleSet.id)?.[1];
  const names = jurisdictions(stateCode).map((j) => (j === 'US' ? words.federal : words.state(j)));
  if (names.length === 0) return undefined;
  return words.sentence(words.list(names), subject, ruleSet.taxYear);
}
