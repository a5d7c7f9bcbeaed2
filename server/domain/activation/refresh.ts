import { withTransaction } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import { touchActivation } from '../../db/repos/activations-repo.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import {
  claimRefreshToken,
  findRefreshToken,
  findRefreshTokenByHmac,
  revokeFamily,
} from '../../db/repos/refresh-tokens-repo.ts';
import { AppError } from '../../lib/errors.ts';
import { invalidateCaches } from '../caches/lookup-caches.ts';
import { hmacSecret } from '../credentials/formats.ts';
import { isRotationRetry } from '../credentials/rotation.ts';
import type { LicensingDeps } from '../deps.ts';
import { findUsableLicenseById, invalidLicense } from '../licensing/lookup.ts';
import { requireSiteDomain } from './site-activation.ts';
import {
  childRefreshToken,
  REFRESH_RETRY_WINDOW_MS,
  type Scope,
  storeRefreshToken,
  type TokenSet,
  toTokenSet,
} from './token-set.ts';

const invalidGrant = (message = 'The refresh token is not valid.') => new AppError('INVALID_GRANT', message);

/**
 * `POST /licenses/refresh`. Every use rotates the token. The use is claimed with one atomic
 * UPDATE, so two concurrent refreshes (on any instances) rotate once. Reusing an already rotated
 * token revokes its whole family, except a retry of the immediately previous token within
 * REFRESH_RETRY_WINDOW_MS (a lost response), which gets the same new pair back. A different
 * site domain (a staging clone of the site) is refused without touching the family.
 */
export async function refreshTokenSet(
  deps: LicensingDeps,
  input: { refreshToken: string; siteDomain: string },
): Promise<TokenSet> {
  const host = requireSiteDomain(input.siteDomain);
  const row = await findRefreshTokenByHmac(deps.db, hmacSecret(deps.pepper, input.refreshToken));
  const now = deps.clock.now();
  if (!row || row.revokedAt) throw invalidGrant();
  if (row.domain !== host) throw invalidGrant('The refresh token was issued for another site domain.');
  if (row.expiresAt.getTime() <= now.getTime()) throw invalidGrant('The refresh token has expired.');
  const found = await findUsableLicenseById(deps, row.licenseId);
  if (!found) throw invalidLicense();

  const childToken = childRefreshToken(deps.pepper, input.refreshToken);
  const child = await withTransaction(deps.db, async (tx) => {
    const childId = newId('rt');
    if (!(await claimRefreshToken(tx, row.id, now, childId))) return undefined;
    await touchActivation(tx, row.activationId, now);
    return storeRefreshToken(deps, tx, {
      token: childToken,
      id: childId,
      familyId: row.familyId,
      parentId: row.id,
      activationId: row.activationId,
      licenseId: row.licenseId,
      domain: row.domain,
      scope: row.scope as Scope,
    });
  });
  if (child) return toTokenSet(deps, found.license, child, childToken);
  return retryOrRevoke(deps, row.id, childToken, found.license);
}

async function retryOrRevoke(
  deps: LicensingDeps,
  parentId: string,
  childToken: string,
  license: Parameters<typeof toTokenSet>[1],
): Promise<TokenSet> {
  const now = deps.clock.now();
  const parent = (await findRefreshToken(deps.db, parentId))!;
  const child = parent.replacedById ? await findRefreshToken(deps.db, parent.replacedById) : undefined;
  if (isRotationRetry(parent, child, now, REFRESH_RETRY_WINDOW_MS))
    return toTokenSet(deps, license, child!, childToken);
  await revokeFamily(deps.db, parent.familyId, now);
  await invalidateCaches(deps);
  await recordAudit(deps.db, {
    actor: 'refresh',
    action: 'refresh.reused',
    subject: parent.familyId,
    data: { licenseId: parent.licenseId },
    at: now,
  });
  throw invalidGrant('The refresh token was already used; its token family is revoked.');
}
