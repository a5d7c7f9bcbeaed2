/**
 * What every answer of the API host carries: nothing may frame or script a JSON answer, and
 * browsers keep to HTTPS. Pages with needs of their own (docs, billing, the portal) set their own
 * CSP, which wins (`addHeaders`). The same list Hono's `secureHeaders` made with our options,
 * written once instead of through a Fetch header list per answer (by the request frame,
 * `request-frame.ts`, after the route: `addHeaders`).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'Origin-Agent-Cluster': '?1',
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Frame-Options': 'SAMEORIGIN',
  'X-Permitted-Cross-Domain-Policies': 'none',
  'X-XSS-Protection': '0',
};
