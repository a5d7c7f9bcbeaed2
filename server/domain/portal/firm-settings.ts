import { listConsentVersions } from '../accounts/consent.ts';
import type { PortalDeps, PortalPrincipal } from '../accounts/portal-deps.ts';
import { showAccount } from '../accounts/settings.ts';

/**
 * Settings → Firm: display name, lead-alert addresses, brand accent and the consent text in force,
 * with every earlier consent version (leads keep pointing at the words their visitor saw).
 */
export async function firmSettings(deps: PortalDeps, principal: PortalPrincipal) {
  const { account } = await showAccount(deps, principal.accountId, principal);
  const versions = await listConsentVersions(deps.db, principal.accountId);
  return {
    name: account.name,
    alertEmails: account.alertEmails,
    accentColor: account.accentColor,
    leadRetentionMonths: account.leadRetentionMonths,
    consent: account.consent,
    consentVersions: versions.map((v) => ({
      id: v.id,
      version: v.version,
      text: v.text,
      createdAt: v.createdAt.toISOString(),
    })),
  };
}
