/**
 * The vendors a destination can name, as `DESTINATION_BASE_URLS` spells them. `lead-docket` is
 * accepted here (the setting is shared with staging set-ups that name it) but no connector is
 * built for it yet: its lead-intake documentation was not available (docs/destinations.md).
 */
const BASE_URL_VENDORS = ['clio-grow', 'hubspot', 'salesforce', 'wealthbox', 'lead-docket'] as const;
type BaseUrlVendor = (typeof BASE_URL_VENDORS)[number];

/** Per vendor, the scheme, host and port that replace the vendor's own (the path is kept). */
export type DestinationBaseUrls = Partial<Record<BaseUrlVendor, URL>>;

/**
 * Parses `DESTINATION_BASE_URLS`: comma-separated `vendor=url`, each vendor once, each URL http(s)
 * with no path beyond `/`, no query and no credentials. Throws an Error whose message says which
 * entry is wrong.
 */
export function parseDestinationBaseUrls(text: string | undefined): DestinationBaseUrls {
  const out: DestinationBaseUrls = {};
  for (const entry of (text ?? '').split(',')) {
    const item = entry.trim();
    if (!item) continue;
    const eq = item.indexOf('=');
    const vendor = item.slice(0, eq).trim() as BaseUrlVendor;
    const value = item.slice(eq + 1).trim();
    if (eq < 1 || !BASE_URL_VENDORS.includes(vendor))
      throw new Error(`entry "${item}" must be vendor=url with vendor one of ${BASE_URL_VENDORS.join(', ')}`);
    if (out[vendor]) throw new Error(`names ${vendor} twice`);
    const url = URL.canParse(value) ? new URL(value) : null;
    if (!url || !['http:', 'https:'].includes(url.protocol) || url.username || url.password)
      throw new Error(`${vendor}: "${value}" must be an http:// or https:// URL without credentials`);
    if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
      throw new Error(`${vendor}: "${value}" must be a scheme and host only (the vendor's path is kept)`);
    out[vendor] = url;
  }
  return out;
}

/** The vendor's URL with its scheme and host replaced when the setting names the vendor. */
export function redirectToBase(vendorUrl: string, base: URL | undefined): string {
  if (!base) return vendorUrl;
  const url = new URL(vendorUrl);
  url.protocol = base.protocol;
  url.host = base.host;
  return url.toString();
}

/** Host names (as a URL writes them, brackets stripped) that may be private while the setting is set. */
export const baseUrlHosts = (bases: DestinationBaseUrls): string[] =>
  Object.values(bases).map((u) => u.hostname.replace(/^\[|\]$/g, '').toLowerCase());
