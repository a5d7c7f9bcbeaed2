import { countLiveProdActivations } from '../db/activations-repo.ts';
import { findLicenseById } from '../db/licenses-repo.ts';
import type { LicenseStatus } from './license-status.ts';
import { licenseOutlook } from './licensing/license-outlook.ts';
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
  /** When Stripe renews the subscription, where it says so. */
  renewsAt?: string;
  /** When the subscription ends (or ended), where it was cancelled. */
  cancelAt?: string;
  /** More production sites than seats: they keep working, new ones are refused. */
  overSeat: boolean;
  /** What happens next, in words ("Grace ends 2026-03-17; widgets stop then."). */
  next: string;
}

/** `GET /licenses/status`, computed from the stored dates at this instant. */
export async function licenseStatusOf(
  deps: LicensingDeps,
  principal: Extract<Principal, { kind: 'access' }>,
): Promise<LicenseStatusView> {
  const license = await findLicenseById(deps.db, principal.licenseId);
  if (!license) throw invalidToken();
  const seatsUsed = await countLiveProdActivations(deps.db, license.id, idleCutoff(deps.clock.now()));
  const outlook = licenseOutlook(license, seatsUsed, deps.clock.now());
  const { state } = outlook;
  return {
    status: state.status,
    plan: license.plan,
    seats: license.seats,
    seatsUsed,
    allowedDomains: license.allowedDomains,
    expiresAt: state.expiresAt?.toISOString() ?? null,
    ...(state.trialEndsAt ? { trialEndsAt: state.trialEndsAt.toISOString() } : {}),
    ...(state.graceEndsAt ? { graceEndsAt: state.graceEndsAt.toISOString() } : {}),
    ...(outlook.renewsAt ? { renewsAt: outlook.renewsAt.toISOString() } : {}),
    ...(outlook.cancelAt ? { cancelAt: outlook.cancelAt.toISOString() } : {}),
    overSeat: outlook.overSeat,
    next: outlook.next,
  };
}
