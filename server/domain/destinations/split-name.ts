/**
 * A visitor's one name field split into the first and last name CRMs ask for. People write names
 * in many ways; this keeps what they wrote and only decides where the family name starts:
 * - a single word is the last name (a mononym is a family name as far as a CRM's duplicate rules
 *   go); a vendor that also requires a first name gets `NOT_GIVEN` there (see `withBothNames`);
 * - generational suffixes ("Jr.", "III") and post-nominals ("Esq.", "MD") stay with the last name;
 * - lower-case particles before the last word ("de la", "van der", "bin") join the last name;
 * - hyphens and apostrophes are part of a word ("Mary-Kate O'Neil").
 */
export interface SplitName {
  first: string;
  last: string;
}

const SUFFIXES = new Set([
  'jr',
  'sr',
  'ii',
  'iii',
  'iv',
  'v',
  'vi',
  'esq',
  'md',
  'phd',
  'cpa',
  'dds',
  'jd',
  'cfp',
  'ret',
]);
const PARTICLES = new Set([
  'de',
  'del',
  'della',
  'der',
  'den',
  'di',
  'da',
  'do',
  'dos',
  'das',
  'du',
  'la',
  'le',
  'van',
  'von',
  'ten',
  'ter',
  'bin',
  'binti',
  'al',
  'el',
  'st',
  'st.',
  'y',
  'mac',
]);

const isSuffix = (word: string) => SUFFIXES.has(word.toLowerCase().replace(/[.,]/g, ''));

export function splitName(raw: string): SplitName {
  const words = raw.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean);
  if (words.length === 0) return { first: '', last: '' };
  // "Smith, John" is last name first.
  const comma = raw.indexOf(',');
  if (
    comma > 0 &&
    !isSuffix(
      raw
        .slice(comma + 1)
        .trim()
        .split(' ')[0] ?? '',
    )
  ) {
    const last = raw.slice(0, comma).trim();
    const first = raw.slice(comma + 1).trim();
    if (first && last) return splitName(`${first} ${last}`);
  }
  let end = words.length;
  while (end > 1 && isSuffix(words[end - 1]!)) end -= 1;
  const suffix = words.slice(end).map((w) => w.replace(/,$/, ''));
  const core = words.slice(0, end).map((w) => w.replace(/,$/, ''));
  if (core.length === 1) return { first: '', last: [core[0]!, ...suffix].join(' ') };
  let start = core.length - 1;
  // Particles are written in lower case ("de la Cruz"); a capitalised "De" starts the family name too.
  while (start > 1 && PARTICLES.has(core[start - 1]!.toLowerCase())) start -= 1;
  return {
    first: core.slice(0, start).join(' '),
    last: [...core.slice(start), ...suffix].join(' '),
  };
}

/** What a vendor that requires both names gets for the one the visitor did not give. */
export const NOT_GIVEN = '(not given)';

/** Both parts filled, for vendors that require both (Clio Grow, Wealthbox). */
export const withBothNames = (name: SplitName): SplitName => ({
  first: name.first || NOT_GIVEN,
  last: name.last || NOT_GIVEN,
});
