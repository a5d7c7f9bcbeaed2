import { releaseActivation } from '../db/activations-repo.ts';
import type { Db } from '../db/database.ts';
import { findRefreshTokenByHmac, revokeActivationTokens } from '../db/refresh-tokens-repo.ts';
import { invalidateCaches } from './caches/lookup-caches.ts';
import { hmacSecret } from './credential-formats.ts';
import type { LicensingDeps } from './token-set.ts';

/**
 * `POST /licenses/revoke` (RFC 7009 style): a refresh or access token ends its site activation,
 * which frees the seat and stops every token of it at once. Unknown or already revoked tokens are
 * not an error, so the answer says nothing about which tokens exist.
 */
export async function revokeSiteToken(deps: LicensingDeps, token: string): Promise<void> {
  const activationId = await activationOfToken(deps, token);
  if (!activationId) return;
  const now = deps.clock.now();
  await deps.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    await revokeActivationTokens(tx, activationId, now);
    await releaseActivation(tx, activationId, now);
  });
  await invalidateCaches(deps);
}

async function activationOfToken(deps: LicensingDeps, token: string): Promise<string | undefined> {
  if (token.startsWith('svc_rt_')) {
    return (await findRefreshTokenByHmac(deps.db, hmacSecret(deps.pepper, token)))?.activationId;
  }
  try {
    const claims = await deps.tokens.verify('access', token);
    return typeof claims.act === 'string' ? claims.act : undefined;
  } catch {
    return undefined;
  }
}
