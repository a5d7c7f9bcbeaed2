import { findLicenseByKey } from '../../db/repos/license-keys-repo.ts';
import type { LicenseRow } from '../../db/repos/licenses-repo.ts';
import { AppError } from '../../lib/errors.ts';
import {
  cachedLicenseById,
  cachedLicenseByPublishableKey,
  peekLicenseByPublishableKey,
} from '../caches/cached-lookups.ts';
import { hmacSecret, isWellFormedPublishableKey, normalizeLicenseKey } from '../credentials/formats.ts';
import type { LicensingDeps } from '../deps.ts';
import { isUsable, type LicenseState, licenseState } from './status.ts';

/** One message for unknown, expired and revoked keys, so answers do not reveal which keys exist. */
export const invalidLicense = () => new AppError('INVALID_LICENSE', 'The license key is not valid.');

/** A key of the wrong kind, recognised by its format alone; the message says which key goes where. */
export const wrongKeyKind = (sent: 'publishable' | 'secret') =>
  new AppError(
    'WRONG_KEY_KIND',
    sent === 'publishable'
      ? 'This is the publishable key (svc_pk_…), which only opens embed sessions. Site activation needs the secret license key (SVC-…); keep that one out of pages.'
      : 'This is the secret license key (SVC-…), which belongs in a plugin or server only. The loader’s data-key takes the publishable key (svc_pk_…).',
  );

function usable(deps: LicensingDeps, license: LicenseRow | undefined) {
  if (!license) throw invalidLicense();
  const state = licenseState(license, deps.clock.now());
  if (!isUsable(state.status)) throw invalidLicense();
  return { license, state };
}

/**
 * Finds a license that may be used now by its secret key (current, or rolled and inside its
 * overlap). The database is asked even for a malformed key, so a typo, an unknown key and a dead
 * license take the same path and time.
 */
export async function findUsableLicenseBySecretKey(
  deps: LicensingDeps,
  licenseKey: string,
): Promise<{ license: LicenseRow; state: LicenseState }> {
  const normalized = normalizeLicenseKey(licenseKey);
  const found = await findLicenseByKey(
    deps.db,
    'secret',
    { keyHmac: hmacSecret(deps.pepper, normalized ?? licenseKey) },
    deps.clock.now(),
  );
  return usable(deps, normalized ? found?.license : undefined);
}

/** The same for a publishable key (public, so looked up as is). */
export async function findUsableLicenseByPublishableKey(
  deps: LicensingDeps,
  publishableKey: string,
): Promise<{ license: LicenseRow; state: LicenseState }> {
  // A key the caches hold was looked up, so checked, before: its checksum (a SHA-256) is not
  // computed again on every warm embed session.
  const wellFormed =
    peekLicenseByPublishableKey(deps, publishableKey) !== undefined ||
    isWellFormedPublishableKey(publishableKey);
  const found = wellFormed
    ? await cachedLicenseByPublishableKey(deps, publishableKey, deps.clock.now())
    : await findLicenseByKey(deps.db, 'publishable', { keyValue: '' }, deps.clock.now());
  return usable(deps, wellFormed ? found?.license : undefined);
}

export async function findUsableLicenseById(
  deps: LicensingDeps,
  id: string,
): Promise<{ license: LicenseRow; state: LicenseState } | undefined> {
  const license = await cachedLicenseById(deps, id);
  if (!license) return undefined;
  const state = licenseState(license, deps.clock.now());
  return isUsable(state.status) ? { license, state } : undefined;
}
