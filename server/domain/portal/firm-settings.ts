import { consentInLanguage, listConsentVersions } from '../accounts/consent.ts';
import type { PortalPrincipal } from '../accounts/portal-deps.ts';
import { showAccount } from '../accounts/settings.ts';
import type { PortalAppDeps } from './deps.ts';

/**
 * Settings → Firm: display name, lead-alert addresses, brand accent, contact details and the consent text in force,
 * with every earlier consent version (leads keep pointing at the words their visitor saw).
 */
export async function firmSettings(deps: PortalAppDeps, principal: PortalPrincipal) {
  const { account } = await showAccount(deps, principal.accountId, principal);
  const versions = await listConsentVersions(deps.db, principal.accountId);
  return {
    name: account.name,
    alertEmails: account.alertEmails,
    accentColor: account.accentColor,
    contact: account.contact,
    leadRetentionMonths: account.leadRetentionMonths,
    consent: account.consent,
    consentEs: account.consentEs,
    // What a Spanish widget shows: never the default Spanish in place of the firm's own English words.
    spanishConsent: consentInLanguage(account.consent?.text, account.consentEs?.text, 'es', account.name),
    consentVersions: versions.map((v) => ({
      id: v.id,
      version: v.version,
      text: v.text,
      createdAt: v.createdAt.toISOString(),
      language: v.language,
    })),
  };
}
