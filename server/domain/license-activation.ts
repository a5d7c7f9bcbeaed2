import { findUsableLicenseByKey } from './license-lookup.ts';
import { activateSite, requireSiteDomain } from './site-activation.ts';
import type { LicensingDeps, TokenSet } from './token-set.ts';

/** `POST /licenses/activate`: a license key and a site domain become a site-scope token set. */
export async function activateLicense(
  deps: LicensingDeps,
  input: { licenseKey: string; siteDomain: string },
): Promise<TokenSet> {
  const { license } = await findUsableLicenseByKey(deps, input.licenseKey);
  const host = requireSiteDomain(input.siteDomain);
  const { tokenSet } = await activateSite(deps, license, host, 'site');
  return tokenSet;
}
