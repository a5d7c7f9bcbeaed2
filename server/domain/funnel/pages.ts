import { pageOfText } from '../../../protocol/page.ts';

/** What a day's pages past `PAGES_PER_DAY` are counted as (per license). */
export const OTHER_PAGES = '(other pages)';
/** Distinct pages counted per license per UTC day; the rest go to OTHER_PAGES. */
export const PAGES_PER_DAY = 200;

const EMAIL = /^[^/@]+@[^/@]+$/;
const LONG_NUMBER = /\d{6,}/;
/** A run that looks generated: 16+ letters and digits mixed (a slug's words are shorter). */
const TOKEN = /^(?=.*\d)(?=.*[a-z])[a-z0-9]{16,}$/i;
/** Hexadecimal or a UUID: 12+ hex digits and hyphens, at least four of them digits. */
const HEX = /^(?=(?:[^\d]*\d){4})[0-9a-f-]{12,}$/i;

const looksGenerated = (segment: string) =>
  HEX.test(segment) || segment.split(/[-_.~]/).some((piece) => TOKEN.test(piece));

function maskSegment(raw: string): string {
  let segment: string;
  try {
    segment = decodeURIComponent(raw);
  } catch {
    segment = raw;
  }
  if (EMAIL.test(segment)) return ':email';
  if (LONG_NUMBER.test(segment)) return ':number';
  if (looksGenerated(segment)) return ':token';
  return raw;
}

/**
 * The page as the funnel counts it: origin and path (no query, no fragment) with path segments
 * that look like an e-mail address, a long number or a token replaced by `:email`, `:number`,
 * `:token`, so a visitor's data or a one-off link never becomes a row of its own. '' for none.
 *
 * @example `funnelPage('https://firm.example/u/jane@x.com/8812345?q=1')` → `'https://firm.example/u/:email/:number'`
 */
export function funnelPage(page: string | null | undefined): string {
  if (!page) return '';
  const kept = pageOfText(page);
  if (!kept) return '';
  const url = new URL(kept);
  const path = url.pathname.split('/').map(maskSegment).join('/');
  return url.origin + path;
}
