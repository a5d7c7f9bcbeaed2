/**
 * A language's words for what the calculators and their widget show (the widget, the PDF). English
 * is the source, written where it is used; another language is a catalogue keyed by the English
 * text, as gettext keys by its msgid: `{0}`, `{1}` mark the values put in. Sentences a calculator
 * writes with figures inside (notes, line items, the rules in words) are matched whole by
 * `patterns` (see `translateText`). Values (API fields, event payloads, codes) never go through a
 * catalogue.
 */
export interface Catalogue {
  /** BCP 47 tag for `<html lang>` and the stored `language`. */
  lang: string;
  /** English text (or template) → the same in this language. */
  words: Readonly<Record<string, string>>;
  /** A sentence a calculator wrote (a note, a line item, the rules in words), in this language. */
  text(en: string): string;
  /** "2026-01-01" → this language's words for the date. */
  date(iso: string): string;
}

/** English pattern → replacement (`$1` …, or a function of the groups), matched against a whole sentence. */
export type Pattern = readonly [RegExp, string | ((...groups: string[]) => string)];

/**
 * A sentence a calculator wrote, by a catalogue's `words` and then its `patterns`; a sentence
 * neither knows stays in English. What a catalogue's `text` does (the widget's English page
 * bundles none of it).
 */
export function translateText(
  words: Readonly<Record<string, string>>,
  patterns: readonly Pattern[],
  en: string,
): string {
  const known = words[en];
  if (known !== undefined) return known;
  for (const [pattern, to] of patterns) {
    // biome-ignore lint/suspicious/noExplicitAny: String#replace takes a string or a function
    if (pattern.test(en)) return en.replace(pattern, to as any);
  }
  return en;
}
