import { canonicalHost, isDevHost } from '../../domain/licensing/domains.ts';

/**
 * DNS-rebinding protection for the MCP endpoint: a browser request (it carries `Origin`) passes
 * only from the API's own origin, `CORS_ORIGINS`, or a development host (localhost, *.localhost,
 * *.test, loopback and private addresses). Requests without `Origin` — desktop and server MCP
 * clients — are not checked here; the API key decides.
 */
export function isAllowedMcpOrigin(origin: string, allowed: ReadonlySet<string>): boolean {
  if (allowed.has(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin !== origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false;
  const host = canonicalHost(url.hostname);
  return host !== null && isDevHost(host);
}
