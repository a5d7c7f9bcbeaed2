import type { Db } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import { insertRefreshToken, type RefreshTokenRow } from '../../db/repos/refresh-tokens-repo.ts';
import { AppError } from '../../lib/errors.ts';
import { generateOpaqueToken, hmacSecret } from '../credentials/formats.ts';
import { childTokenOf } from '../credentials/rotation.ts';
import type { LicensingDeps } from '../deps.ts';
import { REFRESH_IDLE_TTL_MS } from '../licensing/seat-idleness.ts';
import { type LicenseDates, licenseState } from '../licensing/status.ts';

const ACCESS_TOKEN_TTL_MS = 15 * 60_000;

/** A retry of the just-rotated refresh token inside this window gets the same new pair back. */
export const REFRESH_RETRY_WINDOW_MS = 30_000;

/**
 * What a site token may do, narrowest first. `site`: status, calculations, own PDFs.
 * `site leads:read`: also read the firm's leads (what the WordPress plugin asks for).
 * `site admin`: leads read and write, results and billing.
 */
import type { TokenSet } from '../../contracts/license.ts';

export type { TokenSet };
/** A site token's scope (the public `TokenSet.scope`). */
export type Scope = TokenSet['scope'];
/** Every scope, narrowest first (a Connect code grants at most the scope it was made for). */
export const SCOPES = ['site', 'site leads:read', 'site admin'] as const satisfies readonly Scope[];
// Compile-time: the list holds every scope the contract names.
const _everyScope: Scope extends (typeof SCOPES)[number] ? true : never = true;

export interface LicenseForToken extends LicenseDates {
  id: string;
  accountId: string;
}

/** The access token of one refresh token: deterministic given the row, so a retry re-creates it. */
async function accessTokenFor(
  deps: LicensingDeps,
  license: LicenseForToken,
  row: RefreshTokenRow,
): Promise<{ token: string; expiresAt: Date }> {
  const usableUntil = licenseState(license, deps.clock.now()).usableUntil;
  if (!usableUntil) throw new AppError('INVALID_LICENSE', 'The license is not valid.');
  const ttl = deps.accessTokenTtlMs ?? ACCESS_TOKEN_TTL_MS;
  const end = Math.min(row.createdAt.getTime() + ttl, usableUntil.getTime());
  const { token, expiresAt } = await deps.tokens.issue('access', {
    subject: license.id,
    claims: {
      acc: license.accountId,
      act: row.activationId,
      fam: row.familyId,
      dom: row.domain,
      scope: row.scope,
    },
    expiresAt: new Date(end),
    jti: row.id,
    issuedAt: row.createdAt,
  });
  return { token, expiresAt };
}

export async function toTokenSet(
  deps: LicensingDeps,
  license: LicenseForToken,
  row: RefreshTokenRow,
  refreshToken: string,
): Promise<TokenSet> {
  const access = await accessTokenFor(deps, license, row);
  return {
    accessJwt: access.token,
    refreshToken,
    expiresAt: access.expiresAt.toISOString(),
    tokenType: 'Bearer',
    expiresIn: Math.max(0, Math.round((access.expiresAt.getTime() - deps.clock.now().getTime()) / 1000)),
    scope: row.scope as Scope,
  };
}

/** The rotated successor of a site refresh token (`childTokenOf`: a retry gets the same one). */
export const childRefreshToken = (pepper: Buffer, parentToken: string) =>
  childTokenOf(pepper, parentToken, 'svc_rt_');

export async function storeRefreshToken(
  deps: LicensingDeps,
  db: Db,
  values: {
    token: string;
    id?: string;
    familyId?: string;
    parentId?: string;
    activationId: string;
    licenseId: string;
    domain: string;
    scope: Scope;
  },
): Promise<RefreshTokenRow> {
  const now = deps.clock.now();
  return insertRefreshToken(db, {
    id: values.id ?? newId('rt'),
    familyId: values.familyId ?? newId('fam'),
    parentId: values.parentId ?? null,
    activationId: values.activationId,
    licenseId: values.licenseId,
    domain: values.domain,
    scope: values.scope,
    tokenHmac: hmacSecret(deps.pepper, values.token),
    expiresAt: new Date(now.getTime() + REFRESH_IDLE_TTL_MS),
    createdAt: now,
  });
}

export const newRefreshToken = () => generateOpaqueToken('svc_rt_');
