import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/app-env.ts';

/** The site Connect consent page: the authorization endpoint itself, as every plugin has it. */
export const SITE_CONSENT_PATH = '/oauth/authorize';
/** The MCP consent page: where the authorization endpoint sends an AI application's request. */
export const MCP_CONSENT_PATH = '/oauth/authorize/mcp';

/**
 * Which consent a `/oauth/authorize` request gets (docs/decisions/mcp-oauth.md): the MCP one when
 * `resource` names the MCP endpoint, or when a request without `resource` has no `site_domain`
 * (which every site Connect carries) and comes from an MCP client: a metadata-document URL or a
 * registered `mcpc_` id. Everything else is the site Connect flow, unchanged.
 */
export function isMcpAuthorizeRequest(search: string): boolean {
  const query = new URLSearchParams(search);
  if (query.has('site_domain')) return false;
  const resource = query.get('resource');
  if (resource) return isMcpResource(resource);
  const clientId = query.get('client_id') ?? '';
  return clientId.startsWith('https://') || /^mcpc_[0-9a-z]+$/.test(clientId);
}

/** `resource` names the MCP endpoint: `…/v1/mcp` or `…/mcp`, with or without a trailing slash. */
export function isMcpResource(resource: string | null): boolean {
  if (!resource) return false;
  try {
    const path = new URL(resource).pathname.replace(/\/+$/, '');
    return path.endsWith('/v1/mcp') || path === '/mcp';
  } catch {
    return false;
  }
}

/** The API's and the portal's public URLs (PUBLIC_API_URL, PUBLIC_PORTAL_URL). */
export interface ConsentHosts {
  apiUrl: string;
  portalUrl: string;
}

/**
 * The origin a portal page or consent request must go on to, or undefined to answer it here. The metadata
 * advertises the authorization endpoint on the API's origin (the issuer's); the portal's session
 * cookie belongs to the portal's origin, where the page can sign a person in. So a request that
 * arrived on the API's host (by its `Host`) goes to the portal's origin when that is another one.
 * A host that is neither (a proxy that rewrote `Host`) is answered here: never a redirect loop.
 */
export function portalOriginFor(requestHost: string, hosts: ConsentHosts | undefined): string | undefined {
  if (!hosts) return undefined;
  const api = new URL(hosts.apiUrl);
  const portal = new URL(hosts.portalUrl);
  if (api.host === portal.host || requestHost !== api.host) return undefined;
  return portal.origin;
}

/**
 * The two consent pages, chosen here rather than in the browser: each path serves the portal app
 * (`servePage`) only for the requests it is for, and sends any other to the right path (302, the
 * query unchanged). The portal app renders the page its path names, so the choice survives a
 * sign-in that returns to the page. With `hosts`, a request on the API's host is sent to the
 * portal's origin first, straight to the right path (`portalOriginFor`).
 */
export function registerConsentPages(
  router: OpenAPIHono<AppEnv>,
  servePage: () => Response,
  hosts?: ConsentHosts,
): void {
  for (const path of [SITE_CONSENT_PATH, MCP_CONSENT_PATH]) {
    router.get(path, (c) => {
      const url = new URL(c.req.url);
      const wanted = isMcpAuthorizeRequest(url.search) ? MCP_CONSENT_PATH : SITE_CONSENT_PATH;
      const portal = portalOriginFor(url.host, hosts);
      if (!portal && wanted === path) return servePage();
      c.header('Cache-Control', 'no-store');
      return c.redirect(`${portal ?? ''}${wanted}${url.search}`, 302);
    });
  }
}
