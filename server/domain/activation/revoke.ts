import { withTransaction } from '../../db/engine/database.ts';
import { releaseActivation } from '../../db/repos/activations-repo.ts';
import {
  findRefreshTokenByHmac,
  isFamilyRevoked,
  revokeActivationTokens,
} from '../../db/repos/refresh-tokens-repo.ts';
import { invalidateCaches } from '../caches/lookup-caches.ts';
import { hmacSecret } from '../credentials/formats.ts';
import type { LicensingDeps } from '../deps.ts';

/**
 * `POST /licenses/revoke` (RFC 7009 style): a refresh or access token ends its site activation,
 * which frees the seat and stops every token of it at once. Only a live token of a live family
 * may do that: a refresh token that was rotated away, revoked or has expired, or an access token
 * of a replaced family (after a re-activation), ends nothing, or an old token found in a backup
 * would end the site that replaced it. Unknown, dead and already revoked tokens are not an error,
 * so the answer says nothing about which tokens exist.
 */
export async function revokeSiteToken(deps: LicensingDeps, token: string): Promise<void> {
  const activationId = await liveActivationOfToken(deps, token);
  if (!activationId) return;
  const now = deps.clock.now();
  await withTransaction(deps.db, async (tx) => {
    await revokeActivationTokens(tx, activationId, now);
    await releaseActivation(tx, activationId, now);
  });
  await invalidateCaches(deps);
}

async function liveActivationOfToken(deps: LicensingDeps, token: string): Promise<string | undefined> {
  const now = deps.clock.now().getTime();
  if (token.startsWith('svc_rt_')) {
    const row = await findRefreshTokenByHmac(deps.db, hmacSecret(deps.pepper, token));
    const live = row && !row.revokedAt && !row.usedAt && row.expiresAt.getTime() > now;
    return live ? row.activationId : undefined;
  }
  try {
    const claims = await deps.tokens.verify('access', token);
    if (typeof claims.act !== 'string' || typeof claims.fam !== 'string') return undefined;
    return (await isFamilyRevoked(deps.db, claims.fam)) ? undefined : claims.act;
  } catch {
    return undefined;
  }
}
