/** "2026-03-01", the UTC calendar date. */
export const isoDate = (date: Date): string => date.toISOString().slice(0, 10);

const MONTHS = 'January February March April May June July August September October November December'.split(
  ' ',
);

/** "2026-11-28" → "28 November 2026": dates a family reads. */
export const longDate = (iso: string): string =>
  /^\d{4}-\d{2}-\d{2}$/.test(iso)
    ? `${Number(iso.slice(8, 10))} ${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(0, 4)}`
    : iso;

/** "https://www.smithlaw.com/" → "www.smithlaw.com": a web address as printed on paper. */
export const bareUrl = (url: string): string => url.replace(/^https?:\/\//i, '').replace(/\/$/, '');

/** Phone, e-mail and web site on one line, in that order, those that are set. */
export const contactLine = (c: { phone?: string; email?: string; website?: string } | undefined): string =>
  [c?.phone, c?.email, c?.website ? bareUrl(c.website) : undefined].filter(Boolean).join('  ·  ');
