import { z } from 'zod';
import { findAccountById } from '../../db/repos/accounts-repo.ts';
import { findLicenseById, listLicensesByAccount } from '../../db/repos/licenses-repo.ts';
import { AppError } from '../../lib/errors.ts';
import type { Principal } from '../credentials/principal.ts';
import { requirePlan } from '../licensing/input.ts';
import { type BillingDeps, ensureStripeCustomer } from './billing-portal.ts';

const HttpUrl = z.url({ protocol: /^https?$/ }).max(2000);

export const CheckoutSchema = z
  .object({
    licenseId: z.string().min(1).max(64).optional(),
    plan: z.string().min(1).max(40),
    quantity: z.number().int().min(1).max(10_000).optional(),
    successUrl: HttpUrl,
    cancelUrl: HttpUrl,
  })
  .strict();

export type CheckoutInput = z.output<typeof CheckoutSchema>;

export const billingNotConfigured = () =>
  new AppError('BILLING_NOT_CONFIGURED', 'Stripe is not configured on this server (STRIPE_SECRET_KEY).');

/**
 * `POST /billing/checkout`: a Stripe Checkout session that starts a subscription for one license,
 * so a firm in trial can pay. The plan's Stripe price is the active price whose lookup key is the
 * plan name. The subscription carries `license_id` in its metadata, which is how its webhook events
 * find the license; the account's Stripe customer is the one the billing portal uses.
 */
export async function createCheckoutUrl(
  deps: BillingDeps,
  principal: Pick<Principal, 'accountId'>,
  input: CheckoutInput,
): Promise<{ url: string; id: string }> {
  const stripe = deps.stripe;
  if (!stripe) throw billingNotConfigured();
  const plan = requirePlan(deps.plans, input.plan);
  const account = await findAccountById(deps.db, principal.accountId);
  if (!account) throw new AppError('NOT_FOUND', `No account ${principal.accountId}.`);
  const licenseId = await licenseFor(deps, principal.accountId, input.licenseId);
  const prices = await stripe.prices.list({ lookup_keys: [plan.name], active: true, limit: 1 });
  const price = prices.data[0];
  if (!price) {
    throw new AppError('INVALID_REQUEST', `No active Stripe price has the lookup key "${plan.name}".`, {
      details: [{ path: 'plan', message: 'Give the plan’s Stripe price this lookup key' }],
    });
  }
  const customer = await ensureStripeCustomer(deps, stripe, account);
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer,
    client_reference_id: licenseId,
    line_items: [{ price: price.id, quantity: input.quantity ?? 1 }],
    subscription_data: { metadata: { license_id: licenseId } },
    metadata: { license_id: licenseId },
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
  });
  if (!session.url) throw new AppError('SERVICE_UNAVAILABLE', 'Stripe returned no Checkout URL.');
  return { url: session.url, id: session.id };
}

async function licenseFor(
  deps: BillingDeps,
  accountId: string,
  licenseId: string | undefined,
): Promise<string> {
  if (licenseId) {
    const license = await findLicenseById(deps.db, licenseId);
    if (!license || license.accountId !== accountId)
      throw new AppError('NOT_FOUND', `No license ${licenseId}.`);
    return license.id;
  }
  const licenses = await listLicensesByAccount(deps.db, accountId);
  if (licenses.length !== 1) {
    throw new AppError('INVALID_REQUEST', 'The account has several licenses: name one with licenseId.', {
      details: [{ path: 'licenseId', message: 'Required when the account has several licenses' }],
    });
  }
  return licenses[0]!.id;
}
