import { cachedLicenseById, cachedPublishableKey, cachedSeatsUsed } from '../caches/cached-lookups.ts';
import type { Principal } from '../credentials/principal.ts';
import { invalidToken } from '../credentials/tokens.ts';
import type { LicensingDeps } from '../deps.ts';
import { idleCutoff, REFRESH_IDLE_TTL_MS } from './seat-idleness.ts';
import type { LicenseStatus } from './status.ts';
import { licenseOutlook } from './status.ts';

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
  /**
   * The license's current publishable key (public by design), so a site-side client such as the
   * WordPress plugin prints the loader without anyone typing a key. Null only for a license made
   * before publishable keys that start-up has not yet given one.
   */
  publishableKey: string | null;
}

/** `GET /licenses/status`, computed from the stored dates at this instant. */
export async function licenseStatusOf(
  deps: LicensingDeps,
  principal: Extract<Principal, { kind: 'access' }>,
): Promise<LicenseStatusView> {
  const license = await cachedLicenseById(deps, principal.licenseId);
  if (!license) throw invalidToken();
  const now = deps.clock.now();
  const [seatsUsed, publishableKey] = await Promise.all([
    cachedSeatsUsed(deps, license.id, idleCutoff(now), REFRESH_IDLE_TTL_MS),
    cachedPublishableKey(deps, license.id),
  ]);
  const outlook = licenseOutlook(license, seatsUsed, now);
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
    publishableKey,
  };
}
