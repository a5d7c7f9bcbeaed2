import type { Catalogue } from '../../calculators/i18n/catalogue.ts';

/**
 * The page's language. English is written where it is used (in the page); another language's
 * catalogue (`calculators/i18n/es/`) is loaded only when a widget asks for it (`data-lang`), and
 * set here once, before the page renders. Nothing here touches events or API values.
 */
let catalogue: Catalogue | undefined;

export type { Catalogue };

/** Sets the page's language (undefined: English). */
export const useCatalogue = (c: Catalogue | undefined): void => {
  catalogue = c;
  lang = c?.lang ?? 'en';
};

/** The page's language's tag (`en`, `es`). */
export let lang = 'en';

/** The page's language's words for a date, when it is not English. */
export const localDate = (iso: string): string | undefined => catalogue?.date(iso);

/** `t('Enter {0} or more', 18)`: the template in the page's language, values put in. */
export const t = (en: string, ...values: unknown[]): string =>
  // A template without `{n}` comes back as it is; a value is put in as its string.
  (catalogue?.words[en] ?? en).replace(/{(\d)}/g, (_, i) => values[i] as string);

/**
 * A failure in the page's language: by its English words where the catalogue has them (a sentence
 * only the widget says), else by its reason (the API's and the loader's words for the same
 * failure), else as it came.
 */
export const why = (problem: { reason: string; message: string }): string =>
  catalogue?.words[problem.message] ?? catalogue?.words[`reason:${problem.reason}`] ?? problem.message;

/** Text a calculator wrote (a note, a line item, the rules in words), in the page's language. */
export const tx = (en: string): string => catalogue?.text(en) ?? en;
