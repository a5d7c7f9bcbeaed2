/** The longest page the API stores; a longer one is not reported at all. */
export const PAGE_MAX_LENGTH = 2048;

/**
 * The one definition of "the page a widget sits on", stored with results and leads (where consent
 * was given) and counted per page later: the origin and path of an http(s) URL, never its query
 * string or fragment (they can carry a visitor's data). Undefined for any other URL or one longer
 * than PAGE_MAX_LENGTH. The loader applies it to `location.href`; the API applies it again to
 * what a page reports, so a stored page always has this shape.
 *
 * @example `pageOf('https://firm.example/estate?utm=x#calc')` → `'https://firm.example/estate'`
 */
export function pageOf(href: string): string | undefined {
  try {
    const url = new URL(href);
    const page = url.origin + url.pathname;
    return /^https?:$/.test(url.protocol) && page.length <= PAGE_MAX_LENGTH ? page : undefined;
  } catch {
    return undefined;
  }
}
