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

/**
 * The two consent pages, chosen here rather than in the browser: each path serves the portal app
 * (`servePage`) only for the requests it is for, and sends any other to the right path (302, the
 * query unchanged). The portal app renders the page its path names, so the choice survives a
 * sign-in that returns to the page.
 */
export function registerConsentPages(router: OpenAPIHono<AppEnv>, servePage: () => Response): void {
  for (const path of [SITE_CONSENT_PATH, MCP_CONSENT_PATH]) {
    router.get(path, (c) => {
      const search = new URL(c.req.url).search;
      const wanted = isMcpAuthorizeRequest(search) ? MCP_CONSENT_PATH : SITE_CONSENT_PATH;
      if (wanted === path) return servePage();
      c.header('Cache-Control', 'no-store');
      return c.redirect(`${wanted}${search}`, 302);
    });
  }
}
