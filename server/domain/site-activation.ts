import {
  countLiveProdActivations,
  findLiveActivation,
  insertActivation,
  lockLicense,
  touchActivation,
} from '../db/activations-repo.ts';
import type { Db } from '../db/database.ts';
import { findLicenseById } from '../db/licenses-repo.ts';
import { revokeActivationTokens } from '../db/refresh-tokens-repo.ts';
import { AppError } from '../errors.ts';
import { canonicalHost, isDevHost, isDomainAllowed } from './domains.ts';
import {
  type LicenseForToken,
  type LicensingDeps,
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
 * Binds a license to a site domain and starts a refresh family. Activating the same domain again
 * replaces that activation's family and takes no new seat; a new production domain takes a seat;
 * development hosts take none. The license row is locked so concurrent activations count seats
 * one at a time.
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
  const row = await deps.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    await lockLicense(tx, license.id);
    // Domains and seats as they are under the lock: a concurrent `license update` may have
    // removed this domain or lowered the seats since the license was read.
    const current = (await findLicenseById(tx, license.id)) ?? license;
    assertDomainAllowed(current, host);
    let activation = await findLiveActivation(tx, license.id, host);
    if (activation) {
      await revokeActivationTokens(tx, activation.id, now);
      await touchActivation(tx, activation.id, now);
    } else {
      const env = isDevHost(host) ? 'dev' : 'prod';
      if (env === 'prod' && (await countLiveProdActivations(tx, license.id)) >= current.seats) {
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
  return { tokenSet: await toTokenSet(deps, license, row, refreshToken), familyId: row.familyId };
}
