import type { Logger } from 'pino';
import type { Resolver } from '../delivery/ssrf-guard.ts';
import type { LicensingDeps } from '../deps.ts';

/**
 * What an MCP grant may be given. `leads:read` always (the endpoint's own scope); the others only
 * when the application asks for them AND the approver ticks them on the consent page.
 */
export const MCP_SCOPES = {
  'leads:read': 'Read your leads, calculator results and lead statistics',
  'leads:export': 'Download leads and results as CSV or JSON files, and calculation reports as PDF',
  'leads:write': 'Change a lead’s status (for example mark it contacted)',
} as const;
export type McpScope = keyof typeof MCP_SCOPES;
const DEFAULT_MCP_SCOPE: McpScope = 'leads:read';
/** Scopes an approver must tick on the consent page (never granted by the request alone). */
export const OPTIONAL_MCP_SCOPES: readonly McpScope[] = ['leads:export', 'leads:write'];

/** MCP access tokens live about an hour; the grant row is still checked on every request. */
export const MCP_ACCESS_TTL_MS = 60 * 60_000;
/** An MCP authorization code lives 60 s and is used once. */
export const MCP_CODE_TTL_MS = 60_000;
/**
 * AI hosts refresh in parallel (several workers, one token): a second use of the just-rotated
 * token within this window gets the same successor instead of ending the grant.
 */
export const MCP_REFRESH_RETRY_WINDOW_MS = 2 * 60_000;

/**
 * The OAuth side of the MCP endpoint: the issuer (the API origin as configured) and the two names
 * of the one resource, `/v1/mcp` (canonical) and `/mcp` (alias), each with its RFC 9728 metadata
 * URL. A token for either is accepted on both: they are one server.
 */
export interface McpOAuthConfig {
  issuer: string;
  canonical: string;
  alias: string;
}

export function mcpOAuthConfigOf(publicApiUrl: string): McpOAuthConfig {
  const origin = new URL(publicApiUrl).origin;
  return { issuer: origin, canonical: `${origin}/v1/mcp`, alias: `${origin}/mcp` };
}

/** `https://api…/v1/mcp` → `https://api…/.well-known/oauth-protected-resource/v1/mcp` (RFC 9728 §3.1). */
export function metadataUrlOf(resource: string): string {
  const url = new URL(resource);
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname}`;
}

/**
 * The resource a request names, as stored and put in `aud`: either alias, compared without a
 * trailing slash; absent → the canonical URL (RFC 8707 leaves the default to the server).
 * Undefined when it names something else (→ `invalid_target`).
 */
export function mcpResourceOf(config: McpOAuthConfig, resource: string | undefined): string | undefined {
  if (resource === undefined || resource === '') return config.canonical;
  const trimmed = resource.replace(/\/+$/, '');
  return trimmed === config.canonical || trimmed === config.alias ? trimmed : undefined;
}

/**
 * Requested scopes → what the consent page offers: `leads:read` always (every grant reads), plus
 * each supported optional scope the application asked for. Unknown words are dropped.
 */
export function grantedScopes(requested: string | undefined): McpScope[] {
  const asked = (requested ?? '').split(' ').filter((s): s is McpScope => Object.hasOwn(MCP_SCOPES, s));
  return [DEFAULT_MCP_SCOPE, ...OPTIONAL_MCP_SCOPES.filter((s) => asked.includes(s))];
}

/**
 * What an approval grants: `leads:read`, plus the optional scopes that were both requested and
 * ticked by the approver (`approved`, space separated; absent = none ticked).
 */
export function approvedScopes(requested: string | undefined, approved: string | undefined): McpScope[] {
  const ticked = new Set((approved ?? '').split(' '));
  return grantedScopes(requested).filter((s) => s === DEFAULT_MCP_SCOPE || ticked.has(s));
}

/** What the OAuth server's domain functions need beyond licensing. */
export interface OAuthDeps extends LicensingDeps {
  oauth: McpOAuthConfig;
  /**
   * Counts one event against a named limit (`register`, `token`, `document`) for `key`; false once
   * over it. The route layer backs this with server/http/rate-limit/counters.ts.
   */
  allow(limit: 'register' | 'token' | 'document', key: string): Promise<boolean>;
  /** Outbound fetches of client metadata documents (the webhooks' SSRF rules). */
  fetchRules: { resolver: Resolver; allowPrivateHosts: readonly string[]; timeoutMs: number; ca?: string };
  logger: Logger;
}
