import type { Logger } from 'pino';
import type { Resolver } from '../delivery/ssrf-guard.ts';
import type { LicensingDeps } from '../deps.ts';

/** What an MCP grant may be given. One scope today: reading the firm's leads, results and stats. */
export const MCP_SCOPES = {
  'leads:read': 'Read your leads, calculator results and lead statistics',
} as const;
export type McpScope = keyof typeof MCP_SCOPES;
const DEFAULT_MCP_SCOPE: McpScope = 'leads:read';

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

/** Requested scopes → granted: the supported ones asked for, or the default when none is. */
export function grantedScopes(requested: string | undefined): McpScope[] {
  const asked = (requested ?? '').split(' ').filter((s): s is McpScope => Object.hasOwn(MCP_SCOPES, s));
  return asked.length ? [...new Set(asked)] : [DEFAULT_MCP_SCOPE];
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
