import { AppError } from '../../lib/errors.ts';
import { isAdmin, type Principal } from './principal.ts';

/**
 * What an API key may do, chosen when it is created. `admin` includes every other scope; keys made
 * before scopes existed carry `admin` and keep full access. A key meant for an AI tool defaults to
 * `leads:read` (docs/licensing.md). `leads:export` (files of personal data through MCP's
 * `export_results` and `generate_report`) is given only when chosen; existing keys keep what they had.
 */
export const API_KEY_SCOPES = ['leads:read', 'leads:write', 'leads:export', 'billing', 'admin'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const DEFAULT_API_KEY_SCOPES: readonly ApiKeyScope[] = ['leads:read'];

const isApiKeyScope = (value: string): value is ApiKeyScope =>
  (API_KEY_SCOPES as readonly string[]).includes(value);

/** The stored form (space separated, as OAuth writes scopes) read back; unknown words are dropped. */
export function parseScopes(stored: string): ApiKeyScope[] {
  return stored.split(/[\s,]+/).filter(isApiKeyScope);
}

export const formatScopes = (scopes: readonly ApiKeyScope[]) => [...new Set(scopes)].join(' ');

/** A credential that is valid but lacks the scope: 403, with the OAuth hint for clients that read it. */
const forbidden = (message = 'This credential may not do that.') =>
  new AppError('FORBIDDEN', message, {
    headers: { 'WWW-Authenticate': 'Bearer error="insufficient_scope"' },
  });

/**
 * Whether the principal may act with `scope`: admin access tokens and `admin` keys may do all; a
 * `site leads:read` access token may read leads and nothing more.
 */
export function hasScope(principal: Principal, scope: ApiKeyScope): boolean {
  if (principal.kind === 'apikey')
    return principal.scopes.includes('admin') || principal.scopes.includes(scope);
  if (principal.kind === 'access' && scope === 'leads:read') return principal.leadsRead;
  if (principal.kind === 'mcp') return principal.scopes.includes(scope);
  return isAdmin(principal);
}

/** Throws 403 FORBIDDEN naming the missing scope. */
export function requireScope(principal: Principal, scope: ApiKeyScope): void {
  if (!hasScope(principal, scope)) throw forbidden(`This credential lacks the "${scope}" scope.`);
}
