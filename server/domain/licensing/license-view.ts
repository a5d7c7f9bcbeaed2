import type { ActivationRow } from '../../db/repos/activations-repo.ts';
import type { LicenseRow } from '../../db/repos/licenses-repo.ts';
import { isIdleActivation } from './seat-idleness.ts';
import { licenseOutlook } from './status.ts';

const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;

/** A license as the admin API, the CLI and the portal show it (never the key, only its last four). */
export function toLicenseView(license: LicenseRow, seatsUsed: number, now: Date) {
  const outlook = licenseOutlook(license, seatsUsed, now);
  return {
    id: license.id,
    accountId: license.accountId,
    keyLast4: license.keyLast4,
    plan: license.plan,
    seats: license.seats,
    seatsUsed,
    overSeat: outlook.overSeat,
    allowedDomains: license.allowedDomains,
    status: outlook.state.status,
    next: outlook.next,
    expiresAt: iso(outlook.state.expiresAt),
    trialEndsAt: iso(license.trialEndsAt),
    paidThrough: iso(license.paidThrough),
    graceEndsAt: iso(outlook.state.graceEndsAt),
    renewsAt: iso(outlook.renewsAt),
    cancelAt: iso(outlook.cancelAt),
    revokedAt: iso(license.revokedAt),
    stripeSubscriptionId: license.stripeSubscriptionId,
    createdAt: license.createdAt.toISOString(),
    updatedAt: license.updatedAt.toISOString(),
  };
}

/** An activation; `idle` = live but unused for longer than a refresh token lives, so it holds no seat. */
export function toActivationView(activation: ActivationRow, now: Date) {
  return {
    id: activation.id,
    domain: activation.domain,
    env: activation.env,
    firstSeenAt: activation.firstSeenAt.toISOString(),
    lastSeenAt: activation.lastSeenAt.toISOString(),
    releasedAt: iso(activation.releasedAt),
    idle: activation.releasedAt === null && isIdleActivation(activation, now),
  };
}
