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
};

export const currentLang = (): string => catalogue?.lang ?? 'en';

/** The page's language's words for a date, when it is not English. */
export const localDate = (iso: string): string | undefined => catalogue?.date(iso);

/** Words only another language needs (the page's English never shows them): by key. */
export const only = (key: string): string | undefined => catalogue?.words[key];

/** `t('Enter {0} or more', 18)`: the template in the page's language, values put in. */
export const t = (en: string, ...values: unknown[]): string =>
  // A template without `{n}` comes back as it is; a value is put in as its string.
  (catalogue?.words[en] ?? en).replace(/\{(\d)\}/g, (_, i) => values[i] as string);

/** Why the widget cannot run (the loader passes the API's English words on): by reason, when known. */
export const why = (problem: { reason: string; message: string }): string =>
  only(`reason:${problem.reason}`) ?? problem.message;

/** Text a calculator wrote (a note, a line item, the rules in words), in the page's language. */
export const tx = (en: string): string => catalogue?.text(en) ?? en;
