import { type Db, withTransaction } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import {
  activateGrant,
  claimMcpAuthCode,
  claimMcpRefreshToken,
  findMcpAuthCodeByHmac,
  findMcpRefreshToken,
  findMcpRefreshTokenByHmac,
  insertMcpRefreshToken,
  type McpRefreshTokenRow,
} from '../../db/repos/mcp-oauth-repo.ts';
import { generateOpaqueToken, hmacSecret } from '../credentials/formats.ts';
import { pkceMatches } from '../credentials/pkce.ts';
import { childTokenOf, isRotationRetry } from '../credentials/rotation.ts';
import { REFRESH_IDLE_TTL_MS } from '../licensing/seat-idleness.ts';
import type { ResolvedClient } from './clients.ts';
import { cachedGrant, endGrants, isGrantLive } from './grants.ts';
import {
  MCP_ACCESS_TTL_MS,
  MCP_REFRESH_RETRY_WINDOW_MS,
  mcpResourceOf,
  type OAuthDeps,
} from './mcp-resource.ts';
import { oauthError } from './oauth-error.ts';

/** The token endpoint's answer (RFC 6749 §5.1). */
export interface McpTokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

const invalidGrant = (description: string) => oauthError('invalid_grant', description);

/**
 * The access token of one refresh-token row: deterministic given the row (its id is the `jti`,
 * its creation the `iat`), so a retried refresh gets the very same pair back.
 */
async function tokenResponse(
  deps: OAuthDeps,
  grant: { id: string; accountId: string; approverUserId: string; clientId: string },
  row: McpRefreshTokenRow,
  refreshToken: string,
): Promise<McpTokenResponse> {
  const expiresAt = new Date(row.createdAt.getTime() + MCP_ACCESS_TTL_MS);
  const { token } = await deps.tokens.issue('mcp', {
    subject: grant.approverUserId,
    audience: row.resource,
    claims: { acc: grant.accountId, client_id: grant.clientId, gid: grant.id, scope: row.scopes },
    expiresAt,
    jti: row.id,
    issuedAt: row.createdAt,
  });
  return {
    access_token: token,
    token_type: 'Bearer',
    expires_in: Math.max(0, Math.round((expiresAt.getTime() - deps.clock.now().getTime()) / 1000)),
    refresh_token: refreshToken,
    scope: row.scopes,
  };
}

async function storeRefresh(
  deps: OAuthDeps,
  db: Db,
  values: {
    token: string;
    id?: string;
    grantId: string;
    scopes: string;
    resource: string;
    parentId?: string;
  },
): Promise<McpRefreshTokenRow> {
  const now = deps.clock.now();
  const row: McpRefreshTokenRow = {
    id: values.id ?? newId('mrt'),
    grantId: values.grantId,
    tokenHmac: hmacSecret(deps.pepper, values.token),
    scopes: values.scopes,
    resource: values.resource,
    parentId: values.parentId ?? null,
    replacedById: null,
    usedAt: null,
    revokedAt: null,
    expiresAt: new Date(now.getTime() + REFRESH_IDLE_TTL_MS),
    createdAt: now,
  };
  await insertMcpRefreshToken(db, row);
  return row;
}

/** The grant must be live (not revoked, approver still owner/admin) and the client's. */
async function liveGrantOf(deps: OAuthDeps, grantId: string, client: ResolvedClient) {
  const grant = await cachedGrant(deps, grantId);
  if (!grant || !isGrantLive(grant))
    throw invalidGrant('The grant was revoked or its approver may no longer approve.');
  if (grant.clientId !== client.clientId) throw invalidGrant('The grant belongs to another client.');
  return grant;
}

/**
 * `grant_type=authorization_code`. The code is claimed atomically first; a second redemption is
 * refused and ends the grant (what the first one issued stops on the next call, RFC 6749 §4.1.2).
 * Then client, redirect URI, PKCE verifier and resource must all match the code.
 */
export async function exchangeMcpCode(
  deps: OAuthDeps,
  client: ResolvedClient,
  input: { code?: string; redirectUri?: string; codeVerifier?: string; resource?: string },
): Promise<McpTokenResponse> {
  if (!input.code || !input.redirectUri || !input.codeVerifier)
    throw oauthError('invalid_request', 'code, redirect_uri and code_verifier are required.');
  const codeHmac = hmacSecret(deps.pepper, input.code);
  const now = deps.clock.now();
  const claimed = await claimMcpAuthCode(deps.db, codeHmac, now);
  if (!claimed) {
    const used = await findMcpAuthCodeByHmac(deps.db, codeHmac);
    if (used) await endGrantOfReusedCode(deps, used.grantId);
    throw invalidGrant('The code is not valid or was already used.');
  }
  if (claimed.expiresAt.getTime() <= now.getTime()) throw invalidGrant('The code has expired.');
  if (claimed.clientId !== client.clientId) throw invalidGrant('The code was issued to another client.');
  if (claimed.redirectUri !== input.redirectUri) throw invalidGrant('redirect_uri does not match the code.');
  if (!pkceMatches(input.codeVerifier, claimed.codeChallenge))
    throw invalidGrant('code_verifier does not match the code challenge.');
  if (input.resource !== undefined && mcpResourceOf(deps.oauth, input.resource) !== claimed.resource)
    throw oauthError(
      'invalid_target',
      `resource must be ${claimed.resource}, as in the authorization request.`,
    );
  const grant = await liveGrantOf(deps, claimed.grantId, client);
  // Only now did the application come back: the approval becomes a connected app.
  await activateGrant(deps.db, grant.id, now);
  const token = generateOpaqueToken('svc_mrt_');
  const row = await storeRefresh(deps, deps.db, {
    token,
    grantId: grant.id,
    scopes: claimed.scopes,
    resource: claimed.resource,
  });
  return tokenResponse(deps, grant, row, token);
}

async function endGrantOfReusedCode(deps: OAuthDeps, grantId: string): Promise<void> {
  const grant = await cachedGrant(deps, grantId);
  if (!grant) return;
  const ended = await endGrants(deps, { id: grantId, accountId: grant.accountId }, 'code_reused', 'oauth');
  if (ended.length)
    await recordAudit(deps.db, {
      accountId: grant.accountId,
      actor: 'oauth',
      action: 'mcp_grant.code_reused',
      subject: grant.id,
      data: { clientId: grant.clientId, clientName: grant.clientName },
      at: deps.clock.now(),
    });
}

/**
 * `grant_type=refresh_token`. Every use rotates; the use is claimed with one atomic UPDATE. A
 * second use of the just-rotated token within MCP_REFRESH_RETRY_WINDOW_MS (parallel workers, a
 * lost response) gets the same successor; any other reuse ends the grant and is recorded. A
 * `scope` may only narrow; a `resource` must be the MCP resource.
 */
export async function refreshMcpToken(
  deps: OAuthDeps,
  client: ResolvedClient,
  input: { refreshToken?: string; scope?: string; resource?: string },
): Promise<McpTokenResponse> {
  if (!input.refreshToken) throw oauthError('invalid_request', 'refresh_token is required.');
  const row = await findMcpRefreshTokenByHmac(deps.db, hmacSecret(deps.pepper, input.refreshToken));
  const now = deps.clock.now();
  if (!row || row.revokedAt) throw invalidGrant('The refresh token is not valid.');
  if (row.expiresAt.getTime() <= now.getTime()) throw invalidGrant('The refresh token has expired.');
  const grant = await liveGrantOf(deps, row.grantId, client);
  const resource = input.resource === undefined ? row.resource : mcpResourceOf(deps.oauth, input.resource);
  if (!resource) throw oauthError('invalid_target', `resource must be ${deps.oauth.canonical}.`);
  const held = row.scopes.split(' ');
  const asked = input.scope?.split(' ').filter(Boolean) ?? held;
  if (!asked.length || asked.some((s) => !held.includes(s)))
    throw oauthError('invalid_scope', `scope may only narrow the granted scopes (${row.scopes}).`);

  const childToken = childTokenOf(deps.pepper, input.refreshToken, 'svc_mrt_');
  const child = await withTransaction(deps.db, async (tx) => {
    const childId = newId('mrt');
    if (!(await claimMcpRefreshToken(tx, row.id, now, childId))) return undefined;
    return storeRefresh(deps, tx, {
      token: childToken,
      id: childId,
      grantId: grant.id,
      scopes: asked.join(' '),
      resource,
      parentId: row.id,
    });
  });
  if (child) return tokenResponse(deps, grant, child, childToken);

  const parent = (await findMcpRefreshToken(deps.db, row.id))!;
  const sibling = parent.replacedById ? await findMcpRefreshToken(deps.db, parent.replacedById) : undefined;
  if (isRotationRetry(parent, sibling, deps.clock.now(), MCP_REFRESH_RETRY_WINDOW_MS))
    return tokenResponse(deps, grant, sibling!, childToken);
  const ended = await endGrants(
    deps,
    { id: grant.id, accountId: grant.accountId },
    'refresh_reused',
    'oauth',
  );
  if (ended.length)
    await recordAudit(deps.db, {
      accountId: grant.accountId,
      actor: 'oauth',
      action: 'mcp_grant.refresh_reused',
      subject: grant.id,
      data: { clientId: grant.clientId, clientName: grant.clientName },
      at: now,
    });
  throw invalidGrant('The refresh token was already used; the grant is revoked.');
}

/**
 * `POST /oauth/revoke` (RFC 7009): a refresh token or an access token of this client ends its
 * grant (and so every token of it). Unknown or foreign tokens are ignored: the answer is 200 either way.
 */
export async function revokeMcpToken(deps: OAuthDeps, client: ResolvedClient, token: string): Promise<void> {
  let grantId: string | undefined;
  const row = await findMcpRefreshTokenByHmac(deps.db, hmacSecret(deps.pepper, token));
  if (row) grantId = row.grantId;
  else if (token.split('.').length === 3) {
    const claims = await deps.tokens
      .verify('mcp', token, [deps.oauth.canonical, deps.oauth.alias])
      .catch(() => undefined);
    if (claims && typeof claims.gid === 'string') grantId = claims.gid;
  }
  if (!grantId) return;
  const grant = await cachedGrant(deps, grantId);
  if (!grant || grant.clientId !== client.clientId) return;
  await endGrants(deps, { id: grant.id, accountId: grant.accountId }, 'revoked_by_client', 'oauth');
}
