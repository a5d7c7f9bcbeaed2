import { recordAudit } from '../../db/repos/audit-repo.ts';
import { listLicensesByAccount } from '../../db/repos/licenses-repo.ts';
import { AppError } from '../../lib/errors.ts';
import type { PortalDeps, PortalPrincipal } from '../accounts/portal-deps.ts';
import { createConnectCode, grantedScope, parseScopeParam } from '../activation/connect-codes.ts';
import type { Scope } from '../activation/token-set.ts';
import { canonicalHost, isDevHost, isDomainAllowed, isLoopbackHost } from '../licensing/domains.ts';
import { isUsable, licenseState } from '../licensing/status.ts';
import { domainView } from './firm-views.ts';

/** The query of `GET /oauth/authorize` (RFC 6749 §4.1.1 with PKCE, plus the site being connected). */
export interface AuthorizeParams {
  response_type: string;
  client_id: string;
  redirect_uri: string;
  state?: string;
  code_challenge: string;
  code_challenge_method: string;
  site_domain: string;
  /** Space-separated: `site`, `leads:read`, `admin`. Absent: what the host may have. */
  scope?: string;
}

const bad = (message: string, field: string) =>
  new AppError('INVALID_REQUEST', message, { details: [{ path: field, message }] });

/**
 * Checks an authorization request before anything is shown. `redirect_uri` must be HTTPS on the
 * site being connected (its host, canonical, equals `site_domain`), or any scheme on a development
 * host; otherwise the page shows the error and redirects nowhere (RFC 6749 §4.1.2.1: never send a
 * user to an unchecked URI).
 */
function checkAuthorizeRequest(params: AuthorizeParams) {
  if (!/^[\p{L}\p{N} .,'&()_:/-]{1,100}$/u.test(params.client_id))
    throw bad('client_id names the integration, e.g. "svc for WordPress".', 'client_id');
  const site = canonicalHost(params.site_domain);
  if (!site) throw bad('site_domain is not a valid domain.', 'site_domain');
  let redirect: URL;
  try {
    redirect = new URL(params.redirect_uri);
  } catch {
    throw bad('redirect_uri must be an absolute URL.', 'redirect_uri');
  }
  if (redirect.hash || redirect.username || redirect.password)
    throw bad('redirect_uri must not carry a fragment or credentials.', 'redirect_uri');
  const dev = isDevHost(site);
  if (canonicalHost(redirect.hostname) !== site)
    throw bad(`redirect_uri must be on the site being connected (${site}).`, 'redirect_uri');
  if (redirect.protocol !== 'https:' && !(dev && redirect.protocol === 'http:'))
    throw bad('redirect_uri must use HTTPS (plain HTTP only on a development host).', 'redirect_uri');
  if (params.response_type !== 'code') throw bad('response_type must be "code".', 'response_type');
  if (params.code_challenge_method !== 'S256')
    throw bad('code_challenge_method must be S256.', 'code_challenge_method');
  if (!/^[A-Za-z0-9_-]{43}$/.test(params.code_challenge))
    throw bad('code_challenge must be a base64url SHA-256 challenge.', 'code_challenge');
  if (params.state !== undefined && params.state.length > 500) throw bad('state is too long.', 'state');
  const requested = parseScopeParam(params.scope);
  if (requested === null)
    throw bad('scope must be words from "site", "leads:read" and "admin", e.g. "site leads:read".', 'scope');
  return { site, redirectUri: redirect.toString(), dev, scope: grantedScope(site, requested) };
}

/** What the consent page shows: who asks, for which site, which access, and which licenses fit. */
export async function describeConnectRequest(
  deps: PortalDeps,
  principal: PortalPrincipal,
  params: AuthorizeParams,
) {
  const { site, dev, scope } = checkAuthorizeRequest(params);
  const now = deps.clock.now();
  const licenses = (await listLicensesByAccount(deps.db, principal.accountId))
    .filter((l) => isUsable(licenseState(l, now).status))
    .filter((l) => dev || isDomainAllowed(site, l.allowedDomains))
    .map((l) => ({
      id: l.id,
      plan: l.plan,
      keyLast4: l.keyLast4,
      domains: l.allowedDomains.map(domainView),
    }));
  return {
    clientId: params.client_id,
    site: domainView(site),
    developmentHost: dev,
    hostKind: !dev
      ? ('public' as const)
      : isLoopbackHost(site)
        ? ('loopback' as const)
        : ('private' as const),
    scope,
    redirectOrigin: new URL(params.redirect_uri).origin,
    ...grantOf(scope),
    licenses,
    canApprove: principal.role !== 'viewer',
  };
}

/** In plain words, what approving gives the site and what it does not (the consent page lists both). */
function grantOf(scope: Scope): { access: string[]; withheld: string[] } {
  const site = ['Show your calculators on this site', 'Read this license’s status'];
  const readLeads = 'Read your leads and their contact details';
  const writeLeads = 'Change your leads';
  const billing = 'Manage billing';
  if (scope === 'site admin')
    return {
      access: [...site, 'Read and update your leads and their contact details', billing],
      withheld: [],
    };
  if (scope === 'site leads:read') return { access: [...site, readLeads], withheld: [writeLeads, billing] };
  return { access: site, withheld: [readLeads, writeLeads, billing] };
}

function redirectWith(redirectUri: string, values: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(values))
    if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

/**
 * Approval: mints a 60-second single-use code bound to the redirect URI, the PKCE challenge and
 * the site, and answers where to send the browser (`redirect_uri?code=…&state=…`). Only admins
 * and owners may hand a site admin access (the route's role); the license must be the firm's.
 */
export async function approveConnectRequest(
  deps: PortalDeps,
  principal: PortalPrincipal,
  params: AuthorizeParams & { license_id: string },
): Promise<{ redirectTo: string }> {
  const { site, redirectUri, scope } = checkAuthorizeRequest(params);
  const owned = (await listLicensesByAccount(deps.db, principal.accountId)).find(
    (l) => l.id === params.license_id,
  );
  if (!owned) throw new AppError('NOT_FOUND', 'No such license.');
  const { code } = await createConnectCode(deps, {
    licenseId: owned.id,
    redirectUri: params.redirect_uri,
    codeChallenge: params.code_challenge,
    siteDomain: site,
    clientId: params.client_id,
    scope,
  });
  await recordAudit(deps.db, {
    accountId: principal.accountId,
    actor: `user:${principal.email}`,
    action: 'connect.approved',
    subject: owned.id,
    data: { clientId: params.client_id, site, scope },
    at: deps.clock.now(),
  });
  return { redirectTo: redirectWith(redirectUri, { code, state: params.state }) };
}

/** Denial: back to the integration with `error=access_denied` (and the state). */
export function denyConnectRequest(params: AuthorizeParams): { redirectTo: string } {
  const { redirectUri } = checkAuthorizeRequest(params);
  return { redirectTo: redirectWith(redirectUri, { error: 'access_denied', state: params.state }) };
}
