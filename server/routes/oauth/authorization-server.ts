import { buildOAuthProtectedResourceMetadata } from '@modelcontextprotocol/server';
import type { Context } from 'hono';
import {
  type AuthMethod,
  authenticateClient,
  type PresentedClient,
  registerClient,
} from '../../domain/oauth/clients.ts';
import { MCP_SCOPES, metadataUrlOf, type OAuthDeps } from '../../domain/oauth/mcp-resource.ts';
import { exchangeMcpCode, refreshMcpToken, revokeMcpToken } from '../../domain/oauth/mcp-tokens.ts';
import { OAuthProtocolError, oauthError } from '../../domain/oauth/oauth-error.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { createRouter } from '../../http/openapi-router.ts';

const SCOPES = Object.keys(MCP_SCOPES);
const AUTH_METHODS: AuthMethod[] = ['none', 'client_secret_basic', 'client_secret_post'];

/** RFC 8414 metadata of the API origin as the MCP endpoint's authorization server. */
function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    registration_endpoint: `${issuer}/oauth/register`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    scopes_supported: SCOPES,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: AUTH_METHODS,
    code_challenge_methods_supported: ['S256'],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

/** RFC 9728 metadata of one name of the MCP resource (the SDK's builder, plus the bearer method). */
function protectedResourceMetadata(issuer: string, resource: string) {
  return {
    ...buildOAuthProtectedResourceMetadata({
      oauthMetadata: authorizationServerMetadata(issuer),
      resourceServerUrl: new URL(resource),
      scopesSupported: SCOPES,
      resourceName: 'svc leads (MCP)',
      // The issuer is the configured API origin; plain HTTP only where the operator runs it so.
      dangerouslyAllowInsecureIssuerUrl: new URL(issuer).protocol === 'http:',
    }),
    bearer_methods_supported: ['header'],
  };
}

/** OAuth clients may run in a browser (MCP Inspector): these public endpoints answer any origin. */
const OPEN_CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Mcp-Protocol-Version',
  'Access-Control-Max-Age': '600',
};

const oauthJson = (c: Context, body: unknown, status: 200 | 201 | 400 | 401 | 429 = 200) =>
  c.json(body, status, { ...OPEN_CORS, 'Cache-Control': 'no-store', Pragma: 'no-cache' });

function oauthFailure(c: Context, error: unknown) {
  if (!(error instanceof OAuthProtocolError)) throw error;
  const headers: Record<string, string> = { ...OPEN_CORS, 'Cache-Control': 'no-store', Pragma: 'no-cache' };
  if (error.status === 401 && c.req.header('authorization')?.toLowerCase().startsWith('basic '))
    headers['WWW-Authenticate'] = 'Basic realm="svc-oauth"';
  return c.json(error.toBody(), error.status as 400 | 401 | 429, headers);
}

/** Form fields of a token or revocation request; anything but x-www-form-urlencoded is refused. */
async function formOf(c: Context): Promise<Record<string, string>> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded')
    throw oauthError('invalid_request', 'The body must be application/x-www-form-urlencoded.');
  const params = new URLSearchParams(await c.req.text());
  const form: Record<string, string> = {};
  for (const [key, value] of params) {
    if (key in form) throw oauthError('invalid_request', `${key} is given more than once.`);
    form[key] = value;
  }
  return form;
}

/**
 * One half of Basic credentials, form-urlencoded (RFC 6749 §2.3.1); undefined when its
 * percent-encoding is broken (`%zz`, a cut or invalid UTF-8 sequence).
 */
function formDecoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** RFC 6749 §2.3.1: HTTP Basic (form-urlencoded id and secret) or the body's client_id/secret. */
function presentedClient(c: Context, form: Record<string, string>): PresentedClient {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw oauthError('invalid_client', 'Malformed Basic credentials.');
    const id = formDecoded(decoded.slice(0, colon));
    const secret = formDecoded(decoded.slice(colon + 1));
    if (id === undefined || secret === undefined)
      throw oauthError('invalid_client', 'Malformed Basic credentials.');
    if (form.client_id !== undefined && form.client_id !== id)
      throw oauthError('invalid_request', 'client_id differs from the Basic credentials.');
    return { clientId: id, secret, method: 'client_secret_basic' };
  }
  if (form.client_secret !== undefined)
    return { clientId: form.client_id, secret: form.client_secret, method: 'client_secret_post' };
  return { clientId: form.client_id, secret: undefined, method: 'none' };
}

/**
 * The OAuth authorization server for MCP clients (DESIGN §8) and the MCP resource's metadata:
 * `/.well-known/oauth-authorization-server` (RFC 8414), `/.well-known/oauth-protected-resource/v1/mcp`
 * and `/…/mcp` (RFC 9728), `/oauth/register` (RFC 7591), `/oauth/token` and `/oauth/revoke`
 * (RFC 6749, RFC 7009). The authorization page `/oauth/authorize` is the portal app's.
 */
export function createOAuthRoutes(deps: OAuthDeps) {
  const router = createRouter();
  const { issuer, canonical, alias } = deps.oauth;
  const asMetadata = authorizationServerMetadata(issuer);
  const metadataHeaders = { ...OPEN_CORS, 'Cache-Control': 'public, max-age=300' };
  router.get('/.well-known/oauth-authorization-server', (c) => c.json(asMetadata, 200, metadataHeaders));
  for (const resource of [canonical, alias]) {
    const path = new URL(metadataUrlOf(resource)).pathname;
    const doc = protectedResourceMetadata(issuer, resource);
    router.get(path, (c) => c.json(doc, 200, metadataHeaders));
  }
  const preflight = (c: Context) => c.body(null, 204, OPEN_CORS);
  for (const path of [
    '/.well-known/oauth-authorization-server',
    new URL(metadataUrlOf(canonical)).pathname,
    new URL(metadataUrlOf(alias)).pathname,
    '/oauth/register',
    '/oauth/token',
    '/oauth/revoke',
  ])
    router.options(path, preflight);

  // Bodies are limited by the app (BODY_LIMIT_BYTES on /oauth/*, as on /v1/*).
  router.post('/oauth/register', async (c: Context<AppEnv>) => {
    try {
      const ip = c.get('clientIp') ?? 'unknown';
      if (!(await deps.allow('register', ip)))
        throw oauthError('slow_down', 'Too many registrations from this address; try again later.');
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        throw oauthError('invalid_client_metadata', 'The body must be a JSON object.');
      }
      return oauthJson(c, await registerClient(deps, body, ip), 201);
    } catch (error) {
      return oauthFailure(c, error);
    }
  });

  router.post('/oauth/token', async (c: Context<AppEnv>) => {
    try {
      const form = await formOf(c);
      const presented = presentedClient(c, form);
      if (!(await deps.allow('token', presented.clientId ?? c.get('clientIp') ?? 'unknown')))
        throw oauthError('slow_down', 'Too many token requests for this client; try again shortly.');
      const client = await authenticateClient(deps, presented);
      if (form.grant_type === 'authorization_code')
        return oauthJson(
          c,
          await exchangeMcpCode(deps, client, {
            code: form.code,
            redirectUri: form.redirect_uri,
            codeVerifier: form.code_verifier,
            resource: form.resource,
          }),
        );
      if (form.grant_type === 'refresh_token')
        return oauthJson(
          c,
          await refreshMcpToken(deps, client, {
            refreshToken: form.refresh_token,
            scope: form.scope,
            resource: form.resource,
          }),
        );
      throw oauthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
    } catch (error) {
      return oauthFailure(c, error);
    }
  });

  router.post('/oauth/revoke', async (c: Context<AppEnv>) => {
    try {
      const form = await formOf(c);
      const presented = presentedClient(c, form);
      if (!(await deps.allow('token', presented.clientId ?? c.get('clientIp') ?? 'unknown')))
        throw oauthError('slow_down', 'Too many requests for this client; try again shortly.');
      const client = await authenticateClient(deps, presented);
      if (!form.token) throw oauthError('invalid_request', 'token is required.');
      await revokeMcpToken(deps, client, form.token);
      return c.body(null, 200, { ...OPEN_CORS, 'Cache-Control': 'no-store' });
    } catch (error) {
      return oauthFailure(c, error);
    }
  });
  return router;
}
