import { licenseKeyKindOf } from '../credentials/formats.ts';
import type { LicensingDeps } from '../deps.ts';
import { findUsableLicenseBySecretKey, wrongKeyKind } from '../licensing/lookup.ts';
import { activateSite, requireSiteDomain } from './site-activation.ts';
import type { TokenSet } from './token-set.ts';

/**
 * `POST /licenses/activate`: the secret license key and a site domain become a site-scope token
 * set. A publishable key (public, in every page) is refused by its format before any lookup: it
 * must never be able to take a seat or touch a site's tokens.
 */
export async function activateLicense(
  deps: LicensingDeps,
  input: { licenseKey: string; siteDomain: string },
): Promise<TokenSet> {
  if (licenseKeyKindOf(input.licenseKey) === 'publishable') throw wrongKeyKind('publishable');
  const { license } = await findUsableLicenseBySecretKey(deps, input.licenseKey);
  const host = requireSiteDomain(input.siteDomain);
  const { tokenSet } = await activateSite(deps, license, host, 'site');
  return tokenSet;
}
