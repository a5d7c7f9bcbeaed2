import { newId } from '../../db/engine/ids.ts';
import { findOauthClient, insertOauthClient } from '../../db/repos/mcp-oauth-repo.ts';
import { safeEqual } from '../../lib/constant-time.ts';
import { generateOpaqueToken, hmacSecret } from '../credentials/formats.ts';
import { cachedClientDocument, checkClientIdUrl, fetchClientDocument } from './client-documents.ts';
import type { OAuthDeps } from './mcp-resource.ts';
import { oauthError } from './oauth-error.ts';
import { isUsableRedirectUri } from './redirect-uris.ts';

const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/** A client as the authorization and token endpoints see it, however it registered. */
export interface ResolvedClient {
  clientId: string;
  kind: 'dcr' | 'metadata';
  /** The client's own claim: never verified. */
  name: string | null;
  redirectUris: string[];
  authMethod: AuthMethod;
  secretHmac: string | null;
  /** For a metadata document: the host that serves it (what identifies the client). */
  documentHost: string | null;
}

const text = (value: unknown, max: number) =>
  typeof value === 'string' && value.length <= max ? value : undefined;

/**
 * `POST /oauth/register` (RFC 7591). Unusable redirect URIs are dropped one by one and the rest
 * registered; only a registration left with none is refused (`invalid_redirect_uri`). The name is
 * stored as the client's unverified claim. Confidential clients get a secret, shown once.
 */
export async function registerClient(deps: OAuthDeps, body: unknown, clientIp: string | undefined) {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw oauthError('invalid_client_metadata', 'The registration must be a JSON object.');
  const meta = body as Record<string, unknown>;
  if (!Array.isArray(meta.redirect_uris) || meta.redirect_uris.length === 0)
    throw oauthError('invalid_redirect_uri', 'redirect_uris must list at least one redirect URI.');
  const redirectUris = [
    ...new Set(meta.redirect_uris.slice(0, 20).filter((u): u is string => typeof u === 'string')),
  ].filter(isUsableRedirectUri);
  if (redirectUris.length === 0)
    throw oauthError(
      'invalid_redirect_uri',
      'No redirect URI is usable: use HTTPS, http://127.0.0.1 (any port) or an app scheme, without a fragment.',
    );
  const method = (meta.token_endpoint_auth_method ?? 'client_secret_basic') as AuthMethod;
  if (!AUTH_METHODS.includes(method))
    throw oauthError(
      'invalid_client_metadata',
      `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}.`,
    );
  const grantTypes = meta.grant_types ?? ['authorization_code'];
  if (!Array.isArray(grantTypes) || !grantTypes.includes('authorization_code'))
    throw oauthError('invalid_client_metadata', 'grant_types must include authorization_code.');
  if (
    meta.response_types !== undefined &&
    !(Array.isArray(meta.response_types) && meta.response_types.includes('code'))
  )
    throw oauthError('invalid_client_metadata', 'response_types must include code.');
  const name = text(meta.client_name, 200)?.trim() || null;
  const now = deps.clock.now();
  const clientId = newId('mcpc');
  const secret = method === 'none' ? undefined : generateOpaqueToken('svc_cs_');
  await insertOauthClient(deps.db, {
    id: clientId,
    name,
    redirectUris,
    tokenEndpointAuthMethod: method,
    secretHmac: secret ? hmacSecret(deps.pepper, secret) : null,
    createdAt: now,
    createdIp: clientIp ?? null,
  });
  return {
    client_id: clientId,
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    ...(name ? { client_name: name } : {}),
    redirect_uris: redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: method,
  };
}

/** Whether a client_id names a metadata document (an https URL with a path), not a DCR id. */
const isMetadataDocumentId = (clientId: string) => /^https?:\/\//i.test(clientId);

/**
 * The client a `client_id` names: a registered (DCR) client, or the metadata document at the
 * client_id URL (fetched through the SSRF guard, cached by its HTTP headers). Undefined when
 * unknown; a document that cannot be used throws `invalid_client` with the reason.
 */
export async function resolveClient(deps: OAuthDeps, clientId: string): Promise<ResolvedClient | undefined> {
  if (clientId.length > 2000) return undefined;
  if (isMetadataDocumentId(clientId)) {
    const doc = await fetchClientDocument(deps, clientId);
    return {
      clientId,
      kind: 'metadata',
      name: doc.clientName,
      redirectUris: doc.redirectUris,
      authMethod: 'none',
      secretHmac: null,
      documentHost: new URL(clientId).host,
    };
  }
  const row = await findOauthClient(deps.db, clientId);
  if (!row) return undefined;
  return {
    clientId: row.id,
    kind: 'dcr',
    name: row.name,
    redirectUris: row.redirectUris,
    authMethod: row.tokenEndpointAuthMethod as AuthMethod,
    secretHmac: row.secretHmac,
    documentHost: null,
  };
}

/**
 * A metadata-document client at the token and revocation endpoints, named by its id alone: the
 * code, refresh token or grant it presents was bound to that id when a signed-in person approved it
 * with the document on screen, so nothing is fetched here, where anyone may call without signing
 * in (a fetch per request would let anyone make the server fetch any URL). The cached document
 * only adds its name and redirect URIs.
 */
function metadataClientNamed(deps: OAuthDeps, clientId: string): ResolvedClient {
  checkClientIdUrl(deps, clientId);
  const doc = cachedClientDocument(deps, clientId);
  return {
    clientId,
    kind: 'metadata',
    name: doc?.clientName ?? null,
    redirectUris: doc?.redirectUris ?? [],
    authMethod: 'none',
    secretHmac: null,
    documentHost: new URL(clientId).host,
  };
}

/** The client credentials a token or revocation request carried (RFC 6749 §2.3.1). */
export interface PresentedClient {
  clientId: string | undefined;
  secret: string | undefined;
  method: AuthMethod;
}

/**
 * Authenticates the client of a token or revocation request by its registered method: a public
 * client names itself; a confidential one proves its secret by exactly the method it registered.
 */
export async function authenticateClient(
  deps: OAuthDeps,
  presented: PresentedClient,
): Promise<ResolvedClient> {
  if (!presented.clientId) throw oauthError('invalid_client', 'client_id is required.');
  const client =
    presented.clientId.length <= 2000 && isMetadataDocumentId(presented.clientId)
      ? metadataClientNamed(deps, presented.clientId)
      : await resolveClient(deps, presented.clientId).catch(() => undefined);
  if (!client) throw oauthError('invalid_client', 'Unknown client.');
  if (client.authMethod === 'none') {
    if (presented.method !== 'none')
      throw oauthError('invalid_client', 'This client is public: it authenticates with client_id only.');
    return client;
  }
  const ok =
    presented.method === client.authMethod &&
    presented.secret !== undefined &&
    client.secretHmac !== null &&
    safeEqual(hmacSecret(deps.pepper, presented.secret), client.secretHmac);
  if (!ok) throw oauthError('invalid_client', `Client authentication failed (${client.authMethod}).`);
  return client;
}
