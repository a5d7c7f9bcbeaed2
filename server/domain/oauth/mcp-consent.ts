import { newId } from '../../db/engine/ids.ts';
import { findAccountById } from '../../db/repos/accounts-repo.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import { insertGrant, insertMcpAuthCode } from '../../db/repos/mcp-oauth-repo.ts';
import { AppError } from '../../lib/errors.ts';
import type { PortalPrincipal } from '../accounts/portal-deps.ts';
import { generateOpaqueToken, hmacSecret } from '../credentials/formats.ts';
import { PKCE_CHALLENGE } from '../credentials/pkce.ts';
import { isLoopbackHost } from '../licensing/domains.ts';
import { type ResolvedClient, resolveClient } from './clients.ts';
import {
  approvedScopes,
  grantedScopes,
  MCP_CODE_TTL_MS,
  MCP_SCOPES,
  mcpResourceOf,
  type OAuthDeps,
  OPTIONAL_MCP_SCOPES,
} from './mcp-resource.ts';
import { OAuthProtocolError } from './oauth-error.ts';
import { redirectMatches } from './redirect-uris.ts';

/** The query of `GET /oauth/authorize` for the MCP resource (RFC 6749 §4.1.1, PKCE, RFC 8707). */
export interface McpAuthorizeParams {
  response_type: string;
  client_id: string;
  redirect_uri: string;
  state?: string | undefined;
  code_challenge: string;
  code_challenge_method: string;
  scope?: string | undefined;
  resource?: string | undefined;
}

/** The detail of an invalid request; `redirectTo` once the redirect URI is known to be the client's. */
interface Problem {
  path: string;
  message: string;
  redirectTo?: string;
}

const invalid = (problem: Problem) =>
  new AppError('INVALID_REQUEST', problem.message, { details: [problem] });

function redirectWith(redirectUri: string, values: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(values))
    if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

interface Checked {
  client: ResolvedClient;
  redirectUri: string;
  resource: string;
  scopes: string[];
}

/**
 * Checks an MCP authorization request before anything is shown. Until the redirect URI is known
 * to be one the client registered, an error is only shown (RFC 6749 §4.1.2.1); after that, the
 * error's detail carries `redirectTo` (`error`, `state`, `iss`) for the page to send the browser back.
 */
async function checkMcpAuthorizeRequest(deps: OAuthDeps, params: McpAuthorizeParams): Promise<Checked> {
  let client: ResolvedClient | undefined;
  try {
    client = await resolveClient(deps, params.client_id);
  } catch (error) {
    if (error instanceof OAuthProtocolError) throw invalid({ path: 'client_id', message: error.description });
    throw error;
  }
  if (!client)
    throw invalid({ path: 'client_id', message: 'Unknown client_id: the application must register first.' });
  if (!redirectMatches(client.redirectUris, params.redirect_uri))
    throw invalid({ path: 'redirect_uri', message: 'redirect_uri is not one the application registered.' });
  const back = (error: string, path: string, message: string) =>
    invalid({
      path,
      message,
      redirectTo: redirectWith(params.redirect_uri, {
        error,
        error_description: message,
        state: params.state,
        iss: deps.oauth.issuer,
      }),
    });
  if (params.response_type !== 'code')
    throw back('unsupported_response_type', 'response_type', 'response_type must be "code".');
  if (params.code_challenge_method !== 'S256')
    throw back('invalid_request', 'code_challenge_method', 'code_challenge_method must be S256.');
  if (!PKCE_CHALLENGE.test(params.code_challenge))
    throw back('invalid_request', 'code_challenge', 'code_challenge must be a base64url SHA-256 challenge.');
  const resource = mcpResourceOf(deps.oauth, params.resource);
  if (!resource) throw back('invalid_target', 'resource', `resource must be ${deps.oauth.canonical}.`);
  return { client, redirectUri: params.redirect_uri, resource, scopes: grantedScopes(params.scope) };
}

const hostOfRedirect = (uri: string) => {
  const url = new URL(uri);
  return url.host || `${url.protocol}//`;
};

/** Whether every redirect the client registered goes to this machine (loopback or an app scheme). */
const localhostOnly = (client: ResolvedClient) =>
  client.redirectUris.every((u) => {
    const url = new URL(u);
    return url.protocol === 'http:' && isLoopbackHost(url.hostname.replace(/^\[|\]$/g, ''));
  });

/**
 * Whether the return address is a name under `.localhost` (not `localhost` itself). Browsers send
 * such a name to this computer, but nothing ties it to the application: any program here may listen
 * under it, so the page must not present the name as the application's.
 */
const isLocalhostName = (uri: string) => {
  const { protocol, hostname } = new URL(uri);
  return protocol === 'http:' && hostname.endsWith('.localhost');
};

/** What the MCP consent page shows: which application, where it returns to, which firm, what access. */
export async function describeMcpConsent(
  deps: OAuthDeps,
  principal: PortalPrincipal,
  params: McpAuthorizeParams,
) {
  const { client, redirectUri, resource, scopes } = await checkMcpAuthorizeRequest(deps, params);
  const firm = await findAccountById(deps.db, principal.accountId);
  return {
    client: {
      clientId: client.clientId,
      name: client.name,
      nameVerified: false,
      kind: client.kind === 'metadata' ? ('metadata-document' as const) : ('dynamic' as const),
      documentHost: client.documentHost,
      redirectUri,
      redirectHost: hostOfRedirect(redirectUri),
      localhostOnly: localhostOnly(client),
      localhostName: isLocalhostName(redirectUri),
    },
    firm: { name: firm?.name ?? '' },
    // Optional scopes are offered unticked: the approver ticks each one to grant it.
    scopes: scopes.map((scope) => ({
      scope,
      description: MCP_SCOPES[scope as keyof typeof MCP_SCOPES],
      optional: (OPTIONAL_MCP_SCOPES as readonly string[]).includes(scope),
    })),
    resource,
    canApprove: principal.role !== 'viewer',
    role: principal.role,
  };
}

/**
 * The person's decision. Approval (owners and admins only) records a grant for this firm, this
 * client and this approver, and mints a 60-second single-use code bound to the client, the redirect
 * URI, the PKCE challenge and the resource; both answers go back with `state` and `iss` (RFC 9207).
 */
export async function decideMcpConsent(
  deps: OAuthDeps,
  principal: PortalPrincipal,
  params: McpAuthorizeParams & { decision: 'approve' | 'deny'; approvedScopes?: string[] | undefined },
): Promise<{ redirectTo: string }> {
  const { client, redirectUri, resource } = await checkMcpAuthorizeRequest(deps, params);
  // leads:read, plus each optional scope the application asked for and the approver ticked.
  const scopes = approvedScopes(params.scope, (params.approvedScopes ?? []).join(' '));
  const iss = deps.oauth.issuer;
  if (params.decision === 'deny')
    return { redirectTo: redirectWith(redirectUri, { error: 'access_denied', state: params.state, iss }) };
  if (principal.role === 'viewer')
    throw new AppError('FORBIDDEN', 'Only an owner or admin can connect an AI application to the firm.');
  const now = deps.clock.now();
  const grant = await insertGrant(deps.db, {
    id: newId('grant'),
    accountId: principal.accountId,
    approverUserId: principal.userId,
    clientId: client.clientId,
    clientKind: client.kind,
    clientName: client.name,
    redirectHost: hostOfRedirect(redirectUri),
    scopes: scopes.join(' '),
    resource,
    createdAt: now,
  });
  const code = generateOpaqueToken('svc_mac_');
  await insertMcpAuthCode(deps.db, {
    id: newId('mcode'),
    codeHmac: hmacSecret(deps.pepper, code),
    grantId: grant.id,
    clientId: client.clientId,
    redirectUri,
    codeChallenge: params.code_challenge,
    resource,
    scopes: grant.scopes,
    expiresAt: new Date(now.getTime() + MCP_CODE_TTL_MS),
    usedAt: null,
    createdAt: now,
  });
  await recordAudit(deps.db, {
    accountId: principal.accountId,
    actor: `user:${principal.email}`,
    action: 'mcp_grant.approved',
    subject: grant.id,
    data: {
      clientId: client.clientId,
      clientName: client.name,
      redirectHost: grant.redirectHost,
      scopes: grant.scopes,
    },
    at: now,
  });
  return { redirectTo: redirectWith(redirectUri, { code, state: params.state, iss }) };
}
