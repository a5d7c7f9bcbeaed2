import { findLicenseById, findLicenseByKeyHmac, type LicenseRow } from '../db/licenses-repo.ts';
import { AppError } from '../errors.ts';
import { hmacSecret, normalizeLicenseKey } from './credential-formats.ts';
import { isUsable, type LicenseState, licenseState } from './license-status.ts';
import type { LicensingDeps } from './token-set.ts';

/** One message for unknown, expired and revoked keys, so answers do not reveal which keys exist. */
export const invalidLicense = () => new AppError('INVALID_LICENSE', 'The license key is not valid.');

/**
 * Finds a license that may be used now by its (public) key. The database is asked even for a
 * malformed key, so a typo, an unknown key and a dead license take the same path and time.
 */
export async function findUsableLicenseByKey(
  deps: LicensingDeps,
  licenseKey: string,
): Promise<{ license: LicenseRow; state: LicenseState }> {
  const normalized = normalizeLicenseKey(licenseKey);
  const license = await findLicenseByKeyHmac(deps.db, hmacSecret(deps.pepper, normalized ?? licenseKey));
  if (!normalized || !license) throw invalidLicense();
  const state = licenseState(license, deps.clock.now());
  if (!isUsable(state.status)) throw invalidLicense();
  return { license, state };
}

export async function findUsableLicenseById(
  deps: LicensingDeps,
  id: string,
): Promise<{ license: LicenseRow; state: LicenseState } | undefined> {
  const license = await findLicenseById(deps.db, id);
  if (!license) return undefined;
  const state = licenseState(license, deps.clock.now());
  return isUsable(state.status) ? { license, state } : undefined;
}
