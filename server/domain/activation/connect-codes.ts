import { newId } from '../../db/engine/ids.ts';
import { hasAudit, recordAudit } from '../../db/repos/audit-repo.ts';
import { claimAuthCode, findAuthCodeByHmac, insertAuthCode } from '../../db/repos/auth-codes-repo.ts';
import { revokeFamily } from '../../db/repos/refresh-tokens-repo.ts';
import { AppError } from '../../lib/errors.ts';
import { invalidateCaches } from '../caches/lookup-caches.ts';
import { generateOpaqueToken, hmacSecret } from '../credentials/formats.ts';
import { PKCE_CHALLENGE, pkceMatches } from '../credentials/pkce.ts';
import type { LicensingDeps } from '../deps.ts';
import { isDevHost, isLoopbackHost } from '../licensing/domains.ts';
import { findUsableLicenseById, invalidLicense } from '../licensing/lookup.ts';
import { activateSite, assertDomainAllowed, requireSiteDomain } from './site-activation.ts';
import { SCOPES, type Scope, type TokenSet } from './token-set.ts';

const CONNECT_CODE_TTL_MS = 60_000;

/**
 * What Connect grants a site (issue 23). A public domain and the developer's own machine
 * (loopback) get `site admin`: leads, results and billing. Any other development host (a
 * private-network address, `*.test`) gets `site` only: its redirect travels over plain HTTP on a
 * network others share, so a code intercepted there must not open the firm's leads.
 */
export function connectScopeOf(domain: string): Scope {
  return isDevHost(domain) && !isLoopbackHost(domain) ? 'site' : 'site admin';
}

/**
 * The `scope` parameter of `/oauth/authorize` read as a Scope: space-separated words from `site`,
 * `leads:read` and `admin` (`site` is implied). Absent or empty means "what the host may have",
 * today's behaviour. Returns null for anything else (billing or writes alone are never offered).
 */
export function parseScopeParam(value: string | undefined): Scope | undefined | null {
  const words = (value ?? '').split(' ').filter((w) => w !== '');
  if (words.length === 0) return undefined;
  if (!words.every((w) => w === 'site' || w === 'leads:read' || w === 'admin')) return null;
  if (words.includes('admin')) return 'site admin';
  return words.includes('leads:read') ? 'site leads:read' : 'site';
}

/** The narrower of what the site asked for and what its host may have (`connectScopeOf`). */
export function grantedScope(domain: string, requested?: Scope): Scope {
  const allowed = connectScopeOf(domain);
  if (!requested) return allowed;
  return SCOPES.indexOf(requested) < SCOPES.indexOf(allowed) ? requested : allowed;
}

const invalidGrant = (message: string) => new AppError('INVALID_GRANT', message);

export { pkceChallenge } from '../credentials/pkce.ts';

/**
 * Mints a connect code for the portal's Connect flow (a firm admin consented). The code lives 60 s,
 * is single use, and is bound to the redirect URI, the PKCE S256 challenge and the site domain.
 */
export async function createConnectCode(
  deps: LicensingDeps,
  input: {
    licenseId: string;
    redirectUri: string;
    codeChallenge: string;
    siteDomain: string;
    clientId?: string;
    /** What the site asked for; never widens what the host may have. */
    scope?: Scope;
  },
): Promise<{ code: string; expiresAt: Date }> {
  if (!PKCE_CHALLENGE.test(input.codeChallenge)) {
    throw new AppError('INVALID_REQUEST', 'codeChallenge must be a base64url SHA-256 (S256) challenge.');
  }
  if (!URL.canParse(input.redirectUri))
    throw new AppError('INVALID_REQUEST', 'redirectUri must be an absolute URL.');
  const found = await findUsableLicenseById(deps, input.licenseId);
  if (!found) throw invalidLicense();
  const domain = requireSiteDomain(input.siteDomain);
  assertDomainAllowed(found.license, domain);
  const code = generateOpaqueToken('svc_ac_');
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + CONNECT_CODE_TTL_MS);
  await insertAuthCode(deps.db, {
    id: newId('code'),
    codeHmac: hmacSecret(deps.pepper, code),
    licenseId: found.license.id,
    clientId: input.clientId ?? null,
    redirectUri: input.redirectUri,
    codeChallenge: input.codeChallenge,
    codeChallengeMethod: 'S256',
    domain,
    scope: grantedScope(domain, input.scope),
    expiresAt,
    createdAt: now,
  });
  return { code, expiresAt };
}

/**
 * `POST /licenses/exchange`. The code is claimed atomically before anything else; a second
 * redemption is refused and revokes the tokens the first one produced (RFC 6749 §4.1.2). The PKCE
 * verifier is required (RFC 9700): without it a stolen code would be enough.
 */
export async function exchangeConnectCode(
  deps: LicensingDeps,
  input: { code: string; siteDomain: string; codeVerifier: string; redirectUri: string },
): Promise<TokenSet> {
  const codeHmac = hmacSecret(deps.pepper, input.code);
  const now = deps.clock.now();
  // The family is fixed when the code is claimed, so a reuse can revoke it at any moment after.
  const claimed = await claimAuthCode(deps.db, codeHmac, now, newId('fam'));
  if (!claimed) {
    const used = await findAuthCodeByHmac(deps.db, codeHmac);
    if (used?.familyId) {
      await recordAudit(deps.db, { actor: 'exchange', action: 'code.reused', subject: used.id, at: now });
      await revokeFamily(deps.db, used.familyId, now);
      await invalidateCaches(deps);
    }
    throw invalidGrant('The code is not valid or was already used.');
  }
  if (claimed.expiresAt.getTime() <= now.getTime()) throw invalidGrant('The code has expired.');
  if (claimed.redirectUri !== input.redirectUri) throw invalidGrant('redirectUri does not match the code.');
  if (requireSiteDomain(input.siteDomain) !== claimed.domain)
    throw invalidGrant('siteDomain does not match the code.');
  if (!pkceMatches(input.codeVerifier, claimed.codeChallenge))
    throw invalidGrant('codeVerifier does not match the code challenge.');
  const found = await findUsableLicenseById(deps, claimed.licenseId);
  if (!found) throw invalidLicense();
  const { tokenSet } = await activateSite(
    deps,
    found.license,
    claimed.domain,
    grantedScope(claimed.domain, claimed.scope as Scope),
    claimed.familyId!,
  );
  // A reuse that raced ahead of our token insert revoked nothing yet: it left a mark; honour it.
  if (await hasAudit(deps.db, 'code.reused', claimed.id)) {
    await revokeFamily(deps.db, claimed.familyId!, deps.clock.now());
    await invalidateCaches(deps);
    throw invalidGrant('The code was used twice; its tokens are revoked.');
  }
  return tokenSet;
}
