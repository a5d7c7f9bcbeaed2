import { type Db, withTransaction } from '../../db/engine/database.ts';
import {
  countLiveProdActivations,
  findLiveActivation,
  insertActivation,
  listIdleActivations,
  lockLicense,
  releaseActivation,
  touchActivation,
} from '../../db/repos/activations-repo.ts';
import { findLicenseById } from '../../db/repos/licenses-repo.ts';
import { revokeActivationTokens } from '../../db/repos/refresh-tokens-repo.ts';
import { AppError } from '../../lib/errors.ts';
import { invalidateCaches } from '../caches/lookup-caches.ts';
import type { LicensingDeps } from '../deps.ts';
import { canonicalHost, isDevHost, isDomainAllowed } from '../licensing/domains.ts';
import { idleCutoff } from '../licensing/seat-idleness.ts';
import {
  type LicenseForToken,
  newRefreshToken,
  type Scope,
  storeRefreshToken,
  type TokenSet,
  toTokenSet,
} from './token-set.ts';

export interface ActivatableLicense extends LicenseForToken {
  seats: number;
  allowedDomains: string[];
}

/** Canonical host of a caller-supplied site domain, or INVALID_REQUEST. */
export function requireSiteDomain(siteDomain: string): string {
  const host = canonicalHost(siteDomain);
  if (!host) {
    throw new AppError('INVALID_REQUEST', 'siteDomain is not a valid domain.', {
      details: [{ path: 'siteDomain', message: 'Expected a host name such as example.com' }],
    });
  }
  return host;
}

export function assertDomainAllowed(license: ActivatableLicense, host: string): void {
  if (!isDevHost(host) && !isDomainAllowed(host, license.allowedDomains)) {
    throw new AppError('DOMAIN_NOT_ALLOWED', `The license does not cover ${host}.`);
  }
}

/**
 * Binds a license to a site domain and starts a refresh family of `scope`. Activating the same
 * domain again takes no new seat and replaces only that activation's families of the same scope:
 * a site activation (secret key) never revokes the admin family a Connect login produced there,
 * and a new Connect login leaves the plugin's site family alone. A new production domain takes a
 * seat; development hosts take none. Idle activations (see `isIdleActivation`) are released first,
 * with their tokens, so they hold no seat. The license row is locked so concurrent activations
 * count seats one at a time.
 */
export async function activateSite(
  deps: LicensingDeps,
  license: ActivatableLicense,
  host: string,
  scope: Scope,
  familyId?: string,
): Promise<{ tokenSet: TokenSet; familyId: string }> {
  assertDomainAllowed(license, host);
  const now = deps.clock.now();
  const refreshToken = newRefreshToken();
  const row = await withTransaction(deps.db, async (tx) => {
    await lockLicense(tx, license.id);
    // Domains and seats as they are under the lock: a concurrent `license update` may have
    // removed this domain or lowered the seats since the license was read.
    const current = (await findLicenseById(tx, license.id)) ?? license;
    assertDomainAllowed(current, host);
    await releaseIdleActivations(tx, license.id, now);
    let activation = await findLiveActivation(tx, license.id, host);
    if (activation) {
      await revokeActivationTokens(tx, activation.id, now, scope);
      await touchActivation(tx, activation.id, now);
    } else {
      const env = isDevHost(host) ? 'dev' : 'prod';
      const used = await countLiveProdActivations(tx, license.id, idleCutoff(now));
      if (env === 'prod' && used >= current.seats) {
        throw new AppError('SEATS_EXHAUSTED', `All ${current.seats} seats of this license are in use.`);
      }
      activation = await insertActivation(tx, { licenseId: license.id, domain: host, env, at: now });
    }
    return storeRefreshToken(deps, tx, {
      token: refreshToken,
      activationId: activation.id,
      licenseId: license.id,
      domain: host,
      scope,
      ...(familyId ? { familyId } : {}),
    });
  });
  // Families revoked, an activation added, idle ones released: seats and revocations changed.
  await invalidateCaches(deps);
  return { tokenSet: await toTokenSet(deps, license, row, refreshToken), familyId: row.familyId };
}

/** Frees the seats of idle activations and revokes their token families. */
async function releaseIdleActivations(tx: Db, licenseId: string, now: Date): Promise<void> {
  for (const idle of await listIdleActivations(tx, licenseId, idleCutoff(now))) {
    await revokeActivationTokens(tx, idle.id, now);
    await releaseActivation(tx, idle.id, now);
  }
}
