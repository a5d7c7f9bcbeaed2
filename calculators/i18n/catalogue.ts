import { fill, type TextRef, textReader } from '../texts.ts';

/**
 * A language's words for what the calculators and their widget show (the widget, the PDF). English
 * is the source, written where it is used; the widget's own words are keyed by their English text,
 * as gettext keys by its msgid (`{0}`, `{1}` mark the values put in). What a calculator writes into
 * a stored result (line items, notes, the disclaimer, the headline) is said by its stable code
 * (`calculators/texts.ts`), with the values the English put in said in this language too. Values
 * (API fields, event payloads, codes) never go through a catalogue.
 */
export interface Catalogue {
  /** BCP 47 tag for `<html lang>` and the stored `language`. */
  lang: string;
  /** The widget's and the report's own words: English text (or template) → the same in this language. */
  words: Readonly<Record<string, string>>;
  /** Stored texts by code (`calculators/texts.ts`) → this language's template (`{name}` as in the English). */
  texts: Readonly<Record<string, string>>;
  /** A stored text by its code and values; undefined when this catalogue does not know the code. */
  say(ref: TextRef): string | undefined;
  /**
   * A sentence a calculator wrote, as English (a result computed in the page, or stored before
   * codes): by its code when the calculator's texts know it, else the rules in words; else as is.
   */
  text(en: string): string;
  /** "2026-01-01" → this language's words for the date. */
  date(iso: string): string;
}

/** English pattern → replacement (`$1` …, or a function of the groups), matched against a whole sentence. */
export type Pattern = readonly [RegExp, string | ((...groups: string[]) => string)];

export interface CatalogueParts {
  lang: string;
  words: Readonly<Record<string, string>>;
  /** This page's stored texts in English, by code (the calculator's table and the common one). */
  english: Readonly<Record<string, string>>;
  texts: Readonly<Record<string, string>>;
  /** Sentences with no code (the rules in words), matched whole. */
  patterns: readonly Pattern[];
  /** A value put into a stored text, in this language (a state's name, a date), by the value's name. */
  value(name: string, value: string): string;
  date(iso: string): string;
}

/** A catalogue from its parts: what each language's per-page module exports. */
export function catalogue(parts: CatalogueParts): Catalogue {
  const read = textReader(parts.english);
  const say = ({ code, params = {} }: TextRef): string | undefined => {
    const template = parts.texts[code];
    if (template === undefined) return undefined;
    const said: Record<string, string> = {};
    for (const [name, value] of Object.entries(params)) said[name] = parts.value(name, value);
    return fill(template, said);
  };
  return {
    lang: parts.lang,
    words: parts.words,
    texts: parts.texts,
    say,
    text: (en) => {
      const known = parts.words[en];
      if (known !== undefined) return known;
      const ref = read(en);
      const said = ref && say(ref);
      if (said !== undefined) return said;
      for (const [pattern, to] of parts.patterns) {
        // biome-ignore lint/suspicious/noExplicitAny: String#replace takes a string or a function
        if (pattern.test(en)) return en.replace(pattern, to as any);
      }
      return en;
    },
    date: parts.date,
  };
}
