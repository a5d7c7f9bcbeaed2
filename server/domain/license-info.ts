import { countLiveProdActivations } from '../db/activations-repo.ts';
import { findLicenseById } from '../db/licenses-repo.ts';
import { type LicenseStatus, licenseState } from './license-status.ts';
import type { Principal } from './principal.ts';
import { idleCutoff } from './site-activation.ts';
import type { LicensingDeps } from './token-set.ts';
import { invalidToken } from './tokens.ts';

export interface LicenseStatusView {
  status: LicenseStatus;
  plan: string;
  seats: number;
  seatsUsed: number;
  allowedDomains: string[];
  expiresAt: string | null;
  trialEndsAt?: string;
  graceEndsAt?: string;
}

/** `GET /licenses/status`, computed from the stored dates at this instant. */
export async function licenseStatusOf(
  deps: LicensingDeps,
  principal: Extract<Principal, { kind: 'access' }>,
): Promise<LicenseStatusView> {
  const license = await findLicenseById(deps.db, principal.licenseId);
  if (!license) throw invalidToken();
  const state = licenseState(license, deps.clock.now());
  return {
    status: state.status,
    plan: license.plan,
    seats: license.seats,
    seatsUsed: await countLiveProdActivations(deps.db, license.id, idleCutoff(deps.clock.now())),
    allowedDomains: license.allowedDomains,
    expiresAt: state.expiresAt?.toISOString() ?? null,
    ...(state.trialEndsAt ? { trialEndsAt: state.trialEndsAt.toISOString() } : {}),
    ...(state.graceEndsAt ? { graceEndsAt: state.graceEndsAt.toISOString() } : {}),
  };
}
