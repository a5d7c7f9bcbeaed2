import type { LicenseStatusView } from '../../contracts/license.ts';
import { cachedLicenseById, cachedPublishableKey, cachedSeatsUsed } from '../caches/cached-lookups.ts';
import type { Principal } from '../credentials/principal.ts';
import { invalidToken } from '../credentials/tokens.ts';
import type { LicensingDeps } from '../deps.ts';
import { idleCutoff, REFRESH_IDLE_TTL_MS } from './seat-idleness.ts';
import type { LicenseStatus } from './status.ts';
import { licenseOutlook } from './status.ts';

export type { LicenseStatusView };

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
