/**
 * A license's status is computed from its stored dates on every request, never stored:
 * trial until the trial ends; active while paid; grace for 7 days after `paidThrough`;
 * then expired; revoked whenever revoked.
 */
export const GRACE_DAYS = 7;
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

export function graceEndOf(paidThrough: Date): Date {
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
