/** The longest page the API stores; a longer one is not reported at all. */
export const PAGE_MAX_LENGTH = 2048;

/**
 * The one definition of "the page a widget sits on", stored with results and leads (where consent
 * was given) and counted per page later: the origin and path of an http(s) URL, never its query
 * string or fragment (they can carry a visitor's data). Undefined for any other URL or one longer
 * than PAGE_MAX_LENGTH. The loader applies it to `location`; the API applies it again to what a
 * page reports (`pageOf(new URL(value))`), so a stored page always has this shape.
 *
 * @example `pageOf(new URL('https://firm.example/estate?utm=x#calc'))` → `'https://firm.example/estate'`
 */
export function pageOf(url: Pick<URL, 'protocol' | 'origin' | 'pathname'>): string | undefined {
  const page = url.origin + url.pathname;
  return /^https?:$/.test(url.protocol) && page.length <= PAGE_MAX_LENGTH ? page : undefined;
}

/** `pageOf` of a URL given as text; undefined when it does not parse. */
export function pageOfText(value: string): string | undefined {
  try {
    return pageOf(new URL(value));
  } catch {
    return undefined;
  }
}
