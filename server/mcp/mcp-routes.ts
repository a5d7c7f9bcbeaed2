import {
  type AuthInfo,
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { Context } from 'hono';
import type { Principal } from '../domain/credentials/principal.ts';
import { hasScope } from '../domain/credentials/scopes.ts';
import type { LicensingDeps } from '../domain/deps.ts';
import { actorOfPrincipal } from '../domain/leads/intake.ts';
import { mcpOAuthConfigOf, metadataUrlOf } from '../domain/oauth/mcp-resource.ts';
import type { AppEnv } from '../http/app-env.ts';
import { bearerOf, verifiedPrincipal } from '../http/auth/auth.ts';
import { isAllowedMcpOrigin } from '../http/cors/mcp-origin-policy.ts';
import { createRouter } from '../http/openapi-router.ts';
import { AppError, isAppError } from '../lib/errors.ts';
import { createSvcMcpServer, type McpCaller, type McpDeps } from './tools.ts';

export interface McpRouteDeps {
  licensing: LicensingDeps;
  mcp: McpDeps;
  publicApiUrl: string;
  corsOrigins: string[];
}

const jsonRpcError = (status: number, code: number, message: string) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const callerOf = (authInfo: AuthInfo | undefined): McpCaller => {
  const extra = authInfo?.extra as Partial<McpCaller> | undefined;
  if (!extra?.accountId || !extra.actor || !extra.may)
    throw new Error('MCP request without a verified caller');
  return { accountId: extra.accountId, actor: extra.actor, may: extra.may };
};

const REQUIRED_SCOPE = 'leads:read';

/**
 * The MCP endpoint's credential check with the challenges the MCP authorization specification
 * asks for (RFC 6750 §3, RFC 9728 §5.1): a 401 names the resource metadata and the scope, with
 * `error="invalid_token"` only when a token was sent; a valid credential without `leads:read` gets
 * 403 `insufficient_scope`. API keys and MCP OAuth tokens are accepted; every other kind is not.
 * (The SDK's `bearerAuthChallengeResponse` always writes `error="invalid_token"`, even without a
 * token, and answers the OAuth error body: hence this small formatter.)
 */
type McpPrincipal = Extract<Principal, { kind: 'apikey' | 'mcp' }>;

async function mcpPrincipal(
  deps: McpRouteDeps,
  c: Context<AppEnv>,
  metadataUrl: string,
): Promise<McpPrincipal> {
  const params = `resource_metadata="${metadataUrl}", scope="${REQUIRED_SCOPE}"`;
  let principal: McpPrincipal;
  try {
    principal = (await verifiedPrincipal(deps.licensing, c, ['apikey', 'mcp'])) as McpPrincipal;
  } catch (error) {
    if (!isAppError(error) || error.status !== 401) throw error;
    const sent = bearerOf(c) !== undefined || c.req.header('authorization') !== undefined;
    throw new AppError(error.code, sent ? error.message : 'A bearer credential is required.', {
      headers: { 'WWW-Authenticate': sent ? `Bearer error="invalid_token", ${params}` : `Bearer ${params}` },
    });
  }
  if (!hasScope(principal, REQUIRED_SCOPE))
    throw new AppError('FORBIDDEN', `This credential lacks the "${REQUIRED_SCOPE}" scope.`, {
      headers: {
        'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${REQUIRED_SCOPE}", resource_metadata="${metadataUrl}"`,
      },
    });
  return principal;
}

/**
 * The 2025-era leg: one fresh server per request over the SDK's streamable HTTP transport in JSON
 * mode (the SDK's own stateless fallback always answers SSE). Same factory as the modern leg.
 */
async function serveLegacy(deps: McpDeps, request: Request, parsedBody: unknown, authInfo: AuthInfo) {
  const server = createSvcMcpServer(deps, callerOf(authInfo));
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody, authInfo });
  } finally {
    await transport.close().catch(() => {});
    await server.close().catch(() => {});
  }
}

/**
 * The request handed to the SDK (the original body is already read). Its transports insist on
 * `Accept: application/json, text/event-stream`; plain HTTP clients (curl) send only
 * `application/json` or nothing. Both legs answer JSON here, so the header is widened.
 */
function forwardedRequest(original: Request, body: string): Request {
  const headers = new Headers(original.headers);
  const accept = headers.get('accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream'))
    headers.set('accept', 'application/json, text/event-stream');
  return new Request(original.url, { method: 'POST', headers, body, signal: original.signal });
}

/**
 * `POST /v1/mcp` (and `/mcp`): stateless MCP over Streamable HTTP for both protocol eras, behind
 * thin HTTP rules the SDK leaves to its host — Origin allow-list (403), POST only (405), an API key
 * or an MCP OAuth token with `leads:read` (401/403 in the standard error shape, with the OAuth
 * challenge), single messages only (batches refused).
 * Rate limiting (default group, per key) has already happened in the app's middleware.
 */
export function createMcpRoutes(deps: McpRouteDeps) {
  const router = createRouter();
  const modern = createMcpHandler(({ authInfo }) => createSvcMcpServer(deps.mcp, callerOf(authInfo)), {
    legacy: 'reject',
    onerror: (error) => deps.mcp.logger.debug({ err: error.message }, 'mcp request refused'),
  });
  const selfOrigin = new URL(deps.publicApiUrl).origin;
  const allowed = new Set([selfOrigin, ...deps.corsOrigins]);

  router.use('/mcp', async (c, next) => {
    const origin = c.req.header('origin');
    if (origin !== undefined && !isAllowedMcpOrigin(origin, allowed))
      throw new AppError('FORBIDDEN', 'This Origin may not call the MCP endpoint.');
    if (c.req.method !== 'POST') {
      c.header('Allow', 'POST');
      throw new AppError('METHOD_NOT_ALLOWED', 'The MCP endpoint is stateless: use POST.');
    }
    await next();
  });
  const oauth = mcpOAuthConfigOf(deps.publicApiUrl);
  router.post('/mcp', async (c: Context<AppEnv>) => {
    const alias = new URL(c.req.url).pathname.replace(/\/+$/, '') === '/mcp';
    const principal = await mcpPrincipal(deps, c, metadataUrlOf(alias ? oauth.alias : oauth.canonical));
    const text = await c.req.text();
    let parsedBody: unknown;
    try {
      parsedBody = JSON.parse(text);
    } catch {
      return jsonRpcError(400, -32700, 'Parse error: the body is not valid JSON.');
    }
    if (Array.isArray(parsedBody))
      return jsonRpcError(
        400,
        -32600,
        'Invalid Request: JSON-RPC batches are not supported; send one message per POST.',
      );
    const authInfo: AuthInfo = {
      token: principal.kind === 'apikey' ? 'svc_pat_…' : 'mcp+jwt…',
      clientId: principal.kind === 'apikey' ? principal.apiKeyId : principal.clientId,
      scopes: [...principal.scopes],
      extra: {
        accountId: principal.accountId,
        actor: actorOfPrincipal(principal),
        may: { write: hasScope(principal, 'leads:write'), export: hasScope(principal, 'leads:export') },
      } satisfies McpCaller,
    };
    const request = forwardedRequest(c.req.raw, text);
    if (await isLegacyRequest(request, parsedBody))
      return serveLegacy(deps.mcp, request, parsedBody, authInfo);
    return modern.fetch(request, { parsedBody, authInfo });
  });
  return router;
}
