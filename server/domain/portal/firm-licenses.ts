import type { LicenseKeyKind } from '../../db/license-keys-repo.ts';
import type { PortalDeps, PortalPrincipal } from '../accounts/portal-deps.ts';
import { requireRole } from '../accounts/roles.ts';
import { createBillingPortalUrl } from '../billing/billing-portal.ts';
import { type CheckoutInput, createCheckoutUrl } from '../billing/checkout.ts';
import { rollLicenseKey } from '../licensing/keys.ts';
import { releaseSeat, updateLicense } from '../licensing/lifecycle.ts';
import { DEFAULT_PLANS } from '../licensing/plans.ts';
import { actorOf } from './firm-actions.ts';

const actingAs = (p: PortalPrincipal) => ({ actor: actorOf(p), accountId: p.accountId });

/**
 * Licenses → Allowed domains. The firm changes only its domains here (seats, plan and dates move
 * with billing): the same `updateLicense` the operator's CLI uses, so entries are normalised as
 * activation normalises them and removing one ends the sites it no longer covers. Admins and
 * owners only; another firm's license is NOT_FOUND.
 */
export async function changeFirmDomains(
  deps: PortalDeps,
  principal: PortalPrincipal,
  licenseId: string,
  input: { addDomains?: string[] | undefined; removeDomains?: string[] | undefined },
) {
  requireRole(principal, 'admin');
  const lifecycle = { ...deps, plans: deps.plans ?? DEFAULT_PLANS };
  return updateLicense(
    lifecycle,
    licenseId,
    {
      ...(input.addDomains ? { addDomains: input.addDomains } : {}),
      ...(input.removeDomains ? { removeDomains: input.removeDomains } : {}),
    },
    actingAs(principal),
  );
}

/** Licenses → Release seat: the site's tokens stop on their next request; its seat is free at once. */
export async function releaseFirmSeat(deps: PortalDeps, principal: PortalPrincipal, activationId: string) {
  requireRole(principal, 'admin');
  return releaseSeat(deps, activationId, actingAs(principal));
}

/** Licenses → Roll key: a new key (returned once), the old one valid for the overlap (0 = now). */
export async function rollFirmKey(
  deps: PortalDeps,
  principal: PortalPrincipal,
  licenseId: string,
  input: { kind: LicenseKeyKind; overlapMs: number },
) {
  requireRole(principal, 'admin');
  return rollLicenseKey(deps, {
    licenseId,
    kind: input.kind,
    overlapMs: input.overlapMs,
    actor: actorOf(principal),
    accountId: principal.accountId,
  });
}

/** The billing portal (Stripe's, or the built-in page without Stripe), for admins and owners. */
export async function firmBillingPortal(deps: PortalDeps, principal: PortalPrincipal, returnUrl: string) {
  requireRole(principal, 'admin');
  return createBillingPortalUrl(deps.billing, principal, returnUrl);
}

/** Stripe Checkout for one of the firm's licenses (501 BILLING_NOT_CONFIGURED without Stripe). */
export async function firmCheckout(deps: PortalDeps, principal: PortalPrincipal, input: CheckoutInput) {
  requireRole(principal, 'admin');
  return createCheckoutUrl(deps.billing, principal, input);
}

/** What the Licenses page offers for billing: Checkout needs Stripe; the plans a firm can buy. */
export const billingOptions = (deps: PortalDeps) => ({
  checkout: Boolean(deps.billing.stripe),
  plans: Object.keys(deps.billing.plans).filter((name) => name !== 'trial'),
});
