import { touchApiKey } from '../../db/repos/api-keys-repo.ts';
import { cachedActivation, cachedApiKey, cachedFamilyRevoked } from '../caches/cached-lookups.ts';
import { hmacSecret, isWellFormedApiKey } from '../credentials/formats.ts';
import type { CredentialKind, Principal } from '../credentials/principal.ts';
import { parseScopes } from '../credentials/scopes.ts';
import { invalidToken, TOKEN_KINDS } from '../credentials/tokens.ts';
import type { LicensingDeps } from '../deps.ts';
import { isDevHost, isDomainAllowed } from '../licensing/domains.ts';
import { findUsableLicenseById } from '../licensing/lookup.ts';
import { cachedGrant, isGrantLive, touchGrantThrottled } from '../oauth/grants.ts';

/**
 * Verifies a bearer credential and returns its principal. A token's `typ` picks the kind it is
 * verified as, with that kind's pinned expectations; a kind the endpoint does not accept is
 * refused like any invalid token. Revocation (license, activation, token family, API key) takes
 * effect on the next request: the rows are read through the lookup caches, which every revoking
 * write invalidates on every instance (`invalidateCaches`).
 */
export async function authenticate(
  deps: LicensingDeps,
  bearer: string,
  accept: readonly CredentialKind[],
): Promise<Principal> {
  if (bearer.startsWith('svc_pat_')) {
    if (!accept.includes('apikey')) throw invalidToken('This endpoint does not accept API keys.');
    return authenticateApiKey(deps, bearer);
  }
  const kind = tokenKindOf(bearer);
  if (!kind || !accept.includes(kind)) throw invalidToken();
  if (kind === 'mcp') return authenticateMcp(deps, bearer);
  return kind === 'access' ? authenticateAccess(deps, bearer) : authenticateEmbed(deps, bearer);
}

/**
 * The kind a token says it is (its header's `typ`), read on every request before the verified-token
 * cache: only to choose what to verify it as, so a plain decode does (verification then pins `typ`
 * against the exact header that was signed).
 */
export function tokenKindOf(token: string): 'access' | 'embed' | 'mcp' | undefined {
  const end = token.indexOf('.');
  if (end <= 0 || end > 1024) return undefined;
  try {
    const { typ } = JSON.parse(Buffer.from(token.slice(0, end), 'base64url').toString('utf8')) as {
      typ?: unknown;
    };
    if (typ === TOKEN_KINDS.access.typ) return 'access';
    if (typ === TOKEN_KINDS.embed.typ) return 'embed';
    if (typ === TOKEN_KINDS.mcp.typ) return 'mcp';
  } catch {
    // not a JWT
  }
  return undefined;
}

async function authenticateAccess(deps: LicensingDeps, token: string): Promise<Principal> {
  const claims = await deps.tokens.verify('access', token);
  const [found, activation, familyRevoked] = await Promise.all([
    findUsableLicenseById(deps, String(claims.sub)),
    cachedActivation(deps, String(claims.act)),
    cachedFamilyRevoked(deps, String(claims.fam)),
  ]);
  if (!found || !activation || activation.releasedAt || familyRevoked)
    throw invalidToken('The access token was revoked.');
  const scopeWords = String(claims.scope).split(' ');
  return {
    kind: 'access',
    accountId: found.license.accountId,
    licenseId: found.license.id,
    activationId: activation.id,
    familyId: String(claims.fam),
    domain: String(claims.dom),
    admin: scopeWords.includes('admin'),
    leadsRead: scopeWords.includes('admin') || scopeWords.includes('leads:read'),
    jti: String(claims.jti),
  };
}

/**
 * An MCP access token: its audience must be the MCP resource, and its grant must be live on this
 * request (not revoked, the approver still an owner or admin of the firm), so a revocation in the
 * portal, a demotion or a closed firm stops it on the next call, as for API keys.
 */
async function authenticateMcp(deps: LicensingDeps, token: string): Promise<Principal> {
  if (!deps.mcpResources?.length) throw invalidToken();
  const claims = await deps.tokens.verify('mcp', token, deps.mcpResources);
  const grant = await cachedGrant(deps, String(claims.gid));
  if (!grant || !isGrantLive(grant) || grant.accountId !== claims.acc)
    throw invalidToken('The access token was revoked.');
  await touchGrantThrottled(deps, grant);
  return {
    kind: 'mcp',
    accountId: grant.accountId,
    grantId: grant.id,
    clientId: grant.clientId,
    userId: grant.approverUserId,
    scopes: String(claims.scope).split(' ').filter(Boolean),
    jti: String(claims.jti),
  };
}

async function authenticateEmbed(deps: LicensingDeps, token: string): Promise<Principal> {
  const claims = await deps.tokens.verify('embed', token);
  const found = await findUsableLicenseById(deps, String(claims.sub));
  if (!found) throw invalidToken('The embed token was revoked.');
  // A domain removed from the license ends its embed tokens on the next request, not at expiry.
  const host = String(claims.dom);
  if (!isDevHost(host) && !isDomainAllowed(host, found.license.allowedDomains))
    throw invalidToken('The license no longer covers this site.');
  return {
    kind: 'embed',
    accountId: found.license.accountId,
    licenseId: found.license.id,
    plan: found.license.plan,
    domain: String(claims.dom),
    origin: String(claims.org),
    jti: String(claims.jti),
    // Tokens from before session ids existed are their own session.
    sid: typeof claims.sid === 'string' ? claims.sid : `jti:${String(claims.jti)}`,
    test: claims.test === true,
  };
}

async function authenticateApiKey(deps: LicensingDeps, key: string): Promise<Principal> {
  const now = deps.clock.now();
  const row = isWellFormedApiKey(key) ? await cachedApiKey(deps, hmacSecret(deps.pepper, key)) : undefined;
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt.getTime() <= now.getTime())) {
    throw invalidToken('The API key is not valid.');
  }
  // One write a minute at most: "last used" is for people, not an audit trail.
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
    await touchApiKey(deps.db, row.id, now);
    // The cached row too, or every hit would write again.
    row.lastUsedAt = now;
  }
  return {
    kind: 'apikey',
    accountId: row.accountId,
    apiKeyId: row.id,
    admin: true,
    scopes: parseScopes(row.scopes),
  };
}
