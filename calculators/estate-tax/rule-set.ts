import { formatUsd } from '../money.ts';
import type { RuleSet } from '../types.ts';
import { basicExclusionOn } from './federal-tables.ts';
import type { StateEntry, StateVersion } from './state-tables.ts';

/**
 * The day the tables were last checked against their sources. A death in a year whose indexed
 * amount was not yet published uses the latest confirmed amount, and the visitor is told it was
 * not confirmed as of this day.
 */
export const RULES_CHECKED = '2026-11-28';

const MONTHS = 'January February March April May June July August September October November December'.split(
  ' ',
);

/** "2026-07-01" → "1 July 2026" (the form the issue and the firm's documents use). */
const longDate = (iso: string): string =>
  `${Number(iso.slice(8, 10))} ${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(0, 4)}`;

const dayBefore = (iso: string): string =>
  new Date(Date.parse(`${iso}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/** One jurisdiction's rules as used for a death: from its first day until the next version's. */
export interface RulePart {
  name: string;
  from: string;
  /** First day of the next version, if any (exclusive). */
  until?: string | undefined;
  indexed?: boolean | undefined;
  /** The indexed amount, for the notice when a later year's amount is not yet confirmed. */
  amount?: number | undefined;
}

/** "in 2026", "from 1 January to 30 June 2026", "on or after 1 July 2026". */
export function deathsInWords(part: RulePart): string {
  if (part.until) {
    const last = dayBefore(part.until);
    const sameYear = last.slice(0, 4) === part.from.slice(0, 4);
    const first = sameYear ? longDate(part.from).replace(/ \d{4}$/, '') : longDate(part.from);
    return `from ${first} to ${longDate(last)}`;
  }
  if (part.indexed && part.from.endsWith('-01-01')) return `in ${part.from.slice(0, 4)}`;
  return `on or after ${longDate(part.from)}`;
}

/** "Washington rules for deaths on or after 1 July 2026". */
const partInWords = (part: RulePart): string => `${part.name} rules for deaths ${deathsInWords(part)}`;

/**
 * When the death falls in a later year than an indexed amount speaks for, the amount for that
 * year was not confirmed: the visitor reads so, in plain words, with the amount used instead.
 */
export function unconfirmedNotice(part: RulePart, date: string): string | undefined {
  const year = date.slice(0, 4);
  const own = part.from.slice(0, 4);
  if (!part.indexed || part.until || year <= own || part.amount === undefined) return undefined;
  const whose = part.name === 'Federal' ? 'The federal basic exclusion' : `${part.name}’s exemption`;
  return `${whose} for ${year} had not been confirmed when these rules were last checked (${longDate(RULES_CHECKED)}), so the ${own} amount of ${formatUsd(part.amount, 'unless-whole')} is used.`;
}

/** The part of a state's table that applies on a date: its version and that version's period. */
export function statePart(entry: StateEntry<object>, version: StateVersion & object): RulePart {
  const later = entry.versions
    .map((v) => v.effectiveDate)
    .filter((d) => d > version.effectiveDate)
    .sort()[0];
  const figures = version as { exemption?: number; exclusion?: number };
  const amount = figures.exemption ?? figures.exclusion;
  return { name: entry.name, from: version.effectiveDate, until: later, indexed: version.indexed, amount };
}

export const federalPart = (date: string): RulePart => {
  const bea = basicExclusionOn(date);
  return { name: 'Federal', from: bea.effectiveDate, indexed: bea.indexed, amount: bea.amount };
};

/**
 * The rule set a result names: its id (the versions used), the tax year of the death, the latest
 * first day among the versions, and the rules in words. Sources are added by the server.
 */
export function ruleSetOf(date: string, parts: RulePart[], stateId?: string): RuleSet {
  const taxYear = Number(date.slice(0, 4));
  return {
    id: `estate-tax-${taxYear}${stateId ? `+${stateId}` : ''}`,
    taxYear,
    effectiveDate:
      parts
        .map((p) => p.from)
        .sort()
        .at(-1) ?? date,
    label: parts.map(partInWords).join('; '),
    sources: [],
  };
}
