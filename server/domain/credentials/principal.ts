import type { ApiKeyScope } from './scopes.ts';

/** Who is calling, once a credential has been verified. Every firm-data query is scoped by `accountId`. */
export type Principal =
  | {
      kind: 'access';
      accountId: string;
      licenseId: string;
      activationId: string;
      familyId: string;
      domain: string;
      admin: boolean;
      jti: string;
    }
  | {
      kind: 'embed';
      accountId: string;
      licenseId: string;
      /** The license's plan, for its per-license ceilings. */
      plan: string;
      domain: string;
      origin: string;
      jti: string;
      /** Embed session id: kept across renewals; the capability for that session's PDFs. */
      sid: string;
      /** Test mode (development host or portal preview): data stays out of the firm's pipeline. */
      test: boolean;
    }
  | { kind: 'apikey'; accountId: string; apiKeyId: string; admin: true; scopes: ApiKeyScope[] }
  | {
      /** An MCP OAuth access token (`mcp+jwt`): accepted on the MCP endpoint only. */
      kind: 'mcp';
      accountId: string;
      grantId: string;
      clientId: string;
      /** The approver. */
      userId: string;
      scopes: string[];
      jti: string;
    };

export type CredentialKind = Principal['kind'];

/** Admin credentials: an access token from the Connect flow, or a personal API key. */
export const isAdmin = (p: Principal) => (p.kind === 'access' && p.admin) || p.kind === 'apikey';

/**
 * The rate-limit key of a principal (README "Rate limits"). Embed tokens are public to mint, so
 * their traffic is keyed by license and client IP (`ipKey`), never by token: minting more tokens
 * buys nothing.
 */
export function rateKeyOf(p: Principal, ipKey: string): string {
  if (p.kind === 'access') return `license:${p.licenseId}`;
  if (p.kind === 'embed') return `embed:${p.licenseId}:${ipKey}`;
  if (p.kind === 'mcp') return `mcp:${p.grantId}`;
  return `apikey:${p.apiKeyId}`;
}
