/**
 * A license's status is computed from its stored dates on every request, never stored:
 * trial until the trial ends; active while paid; grace for 7 days after `paidThrough`;
 * then expired; revoked whenever revoked.
 */
const GRACE_DAYS = 7;
const DAY_MS = 86_400_000;

export type LicenseStatus = 'trial' | 'active' | 'grace' | 'expired' | 'revoked';

export interface LicenseDates {
  trialEndsAt: Date | null;
  paidThrough: Date | null;
  revokedAt: Date | null;
}

export interface LicenseState {
  status: LicenseStatus;
  /** The license's own end: trial end, or the paid-through date. */
  expiresAt: Date | null;
  trialEndsAt?: Date;
  graceEndsAt?: Date;
  /** The latest instant any token of this license may live to. */
  usableUntil: Date | null;
}

function graceEndOf(paidThrough: Date): Date {
  return new Date(paidThrough.getTime() + GRACE_DAYS * DAY_MS);
}

export function licenseState(dates: LicenseDates, now: Date): LicenseState {
  const t = now.getTime();
  const { trialEndsAt, paidThrough } = dates;
  const graceEndsAt = paidThrough ? graceEndOf(paidThrough) : undefined;
  const extra = {
    ...(trialEndsAt ? { trialEndsAt } : {}),
    ...(graceEndsAt ? { graceEndsAt } : {}),
  };
  const paidUsable = graceEndsAt && graceEndsAt.getTime() > t ? graceEndsAt : null;
  const trialUsable = trialEndsAt && trialEndsAt.getTime() > t ? trialEndsAt : null;
  const usableUntil = latest(paidUsable, trialUsable);
  if (dates.revokedAt)
    return { status: 'revoked', expiresAt: paidThrough ?? trialEndsAt, usableUntil: null, ...extra };
  if (paidThrough && paidThrough.getTime() > t)
    return { status: 'active', expiresAt: paidThrough, usableUntil, ...extra };
  if (trialUsable) return { status: 'trial', expiresAt: trialEndsAt, usableUntil, ...extra };
  if (paidUsable) return { status: 'grace', expiresAt: paidThrough, usableUntil, ...extra };
  return { status: 'expired', expiresAt: paidThrough ?? trialEndsAt, usableUntil: null, ...extra };
}

function latest(a: Date | null, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return a.getTime() >= b.getTime() ? a : b;
}

export const isUsable = (status: LicenseStatus) =>
  status === 'trial' || status === 'active' || status === 'grace';

/** What the outlook needs of a license row. */
export interface OutlookLicense {
  seats: number;
  trialEndsAt: Date | null;
  paidThrough: Date | null;
  revokedAt: Date | null;
  renewsAt: Date | null;
  cancelAt: Date | null;
}

export interface LicenseOutlook {
  state: LicenseState;
  /** More production sites are activated than the license has seats (after a seat cut by billing). */
  overSeat: boolean;
  /** When Stripe will renew the subscription, if it will. */
  renewsAt: Date | null;
  /** When the subscription ends (or ended), if it was cancelled. */
  cancelAt: Date | null;
  /** One sentence saying what happens next, e.g. "Grace ends 2026-03-17; widgets stop then." */
  next: string;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The status of a license at `now` together with what happens next, in words, for the status
 * endpoint, `license show` and the portal. Renewal and cancellation dates come from Stripe and only
 * inform: the status itself is decided by the stored dates alone (licenseState above).
 */
export function licenseOutlook(license: OutlookLicense, seatsUsed: number, now: Date): LicenseOutlook {
  const state = licenseState(license, now);
  const overSeat = seatsUsed > license.seats;
  const renewsAt = license.cancelAt ? null : license.renewsAt;
  const words = [nextStep(license, state, renewsAt, now)];
  if (overSeat && state.usableUntil) {
    const extra = seatsUsed - license.seats;
    words.push(
      `${seatsUsed} sites use ${license.seats} seat${license.seats === 1 ? '' : 's'}: they keep working, new sites are refused until ${extra} ${extra === 1 ? 'is' : 'are'} released.`,
    );
  }
  return { state, overSeat, renewsAt, cancelAt: license.cancelAt, next: words.join(' ') };
}

function nextStep(license: OutlookLicense, state: LicenseState, renewsAt: Date | null, now: Date): string {
  const graceEnds = state.graceEndsAt ? day(state.graceEndsAt) : undefined;
  switch (state.status) {
    case 'revoked':
      return `Revoked on ${day(license.revokedAt ?? now)}; widgets are stopped.`;
    case 'expired':
      return `Expired on ${day(state.graceEndsAt ?? state.trialEndsAt ?? now)}; widgets are stopped until the license is paid.`;
    case 'grace':
      return `Payment is overdue since ${day(license.paidThrough!)}; grace ends ${graceEnds}; widgets stop then.`;
    case 'trial':
      return `Trial ends ${day(state.trialEndsAt!)}; widgets stop then unless the license is paid.`;
    case 'active':
      if (license.cancelAt)
        return `Cancelled: paid through ${day(license.paidThrough!)}, no renewal; grace ends ${graceEnds}; widgets stop then.`;
      if (renewsAt) return `Renews on ${day(renewsAt)}.`;
      return `Paid through ${day(license.paidThrough!)}; unless renewed, grace ends ${graceEnds} and widgets stop then.`;
  }
}
