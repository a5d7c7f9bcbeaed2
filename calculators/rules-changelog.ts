/**
 * Every change to the calculators' law, as data: a figure added, confirmed or corrected, with the
 * day it was recorded, the figure before and after, the source, and the calculators and states it
 * touches. `docs/rules-and-sources.md` and the portal's Rules and sources page show it as "What
 * changed", newest first; at start the server records each entry once (table `rule_changes`, keyed
 * by `id`) and tells the firms whose calculators it touches (a portal banner and a `rules.updated`
 * webhook event). Results and leads already stored are never recomputed: they keep the rule set
 * they were computed with.
 *
 * An `id` is stable forever: never reuse or rename one (a renamed entry would be announced again).
 * Add an entry with each change to the tables or to the status of a figure; the test beside this
 * file checks that ids are unique and well formed, and that dates run newest first.
 */
export interface RuleChange {
  /** `<calculator>/<day recorded>/<what>`, e.g. `estate-tax/2026-11-28/wa-2027-exclusion`. */
  id: string;
  /** The day the change was recorded (ISO). */
  date: string;
  kind: 'added' | 'confirmed' | 'corrected';
  /** The figure in words, with the dates of death it speaks for. */
  figure: string;
  /** As it stood before, in words (`Not published`); null for a figure new to the tables. */
  before: string | null;
  after: string;
  /** Status of the figure after the change (see rule-sources.ts). */
  status: 'primary' | 'secondary' | 'missing';
  source: { title: string; url?: string };
  /** Calculator slugs whose results the change touches; empty = none (listed for the record). */
  calculators: readonly string[];
  /** Two-letter states whose results it touches; empty = every state (a federal figure). */
  states: readonly string[];
  /** One sentence a firm reads in the banner and the event. */
  summary: string;
  /**
   * False for a change recorded before firms were told of changes (this list began on
   * 28 November 2026): it is shown in "What changed" but announced to no one.
   */
  announce?: false;
}

export const RULE_CHANGES: readonly RuleChange[] = [
  {
    id: 'estate-tax/2026-11-28/wa-2027-exclusion',
    date: '2026-11-28',
    kind: 'confirmed',
    figure: 'Washington exclusion, deaths in 2027',
    before:
      'Not published (a 2027 death used $3,000,000 with a notice that the 2027 amount was not confirmed)',
    after: '$3,000,000, kept: the consumer price index the statute adjusts it by is no longer published',
    status: 'secondary',
    source: {
      title: 'Washington Policy Center, “Facts from Frost: estate (death) tax exemption”',
      url: 'https://www.washingtonpolicy.org/publications/detail/facts-from-frost-estate-death-tax-exemption',
    },
    calculators: ['estate-tax'],
    states: ['WA'],
    summary:
      'Washington’s estate tax exclusion stays at $3,000,000 for deaths in 2027; the result no longer says the 2027 amount is unconfirmed.',
  },
  {
    id: 'estate-tax/2026-11-28/us-2027-gift-exclusion',
    date: '2026-11-28',
    kind: 'added',
    figure: 'Federal annual gift tax exclusion, 2027',
    before: null,
    after: 'Not published (2026: $19,000)',
    status: 'missing',
    source: { title: 'IRC §2503(b)(2); Rev. Proc. 2025-32 for 2026' },
    calculators: [],
    states: [],
    summary:
      'The 2027 annual gift tax exclusion is listed as not yet published; no calculator uses it, so no result changes.',
  },
  {
    id: 'estate-tax/2026-11-24/wa-2026-07-01',
    date: '2026-11-24',
    kind: 'corrected',
    figure: 'Washington exclusion and rate table, deaths from 1 July 2026',
    before: '$3,076,000 and the 10–35 % table',
    after: '$3,000,000 and the 10–20 % table (ESB 6347)',
    status: 'secondary',
    source: {
      title: 'ESB 6347, House amendment H AMD 2662 (adopted 11 March 2026)',
      url: 'https://lawfilesext.leg.wa.gov/biennium/2025-26/Htm/Amendments/House/6347.E%20AMH%20STOK%20TAYT%20607.htm',
    },
    calculators: ['estate-tax'],
    states: ['WA'],
    summary:
      'Washington deaths from 1 July 2026 use the $3,000,000 exclusion and the 10–20 % table of the 2026 session.',
    announce: false,
  },
];

/** Newest first, ties in the order written. */
export const changesNewestFirst = (changes: readonly RuleChange[] = RULE_CHANGES): RuleChange[] =>
  changes
    .map((c, i) => ({ c, i }))
    .sort((a, b) => (a.c.date === b.c.date ? a.i - b.i : a.c.date < b.c.date ? 1 : -1))
    .map(({ c }) => c);
