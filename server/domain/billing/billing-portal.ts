import type Stripe from 'stripe';
import type { Db } from '../../db/engine/database.ts';
import { findAccountById, setStripeCustomerId } from '../../db/repos/accounts-repo.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { LookupCaches } from '../caches/lookup-caches.ts';
import type { Principal } from '../credentials/principal.ts';
import type { TokenService } from '../credentials/tokens.ts';
import type { PlanTable } from '../licensing/plans.ts';

const BILLING_LINK_TTL_MS = 10 * 60_000;

export interface BillingDeps {
  db: Db;
  clock: Clock;
  tokens: TokenService;
  /** Invalidated when a subscription changes a license. */
  caches?: LookupCaches;
  publicApiUrl: string;
  /** Set when STRIPE_SECRET_KEY is configured; otherwise the built-in billing page is used. */
  stripe?: Stripe;
  /** STRIPE_WEBHOOK_SECRET: without it `POST /webhooks/stripe` answers 501. */
  webhookSecret?: string;
  /** The plan table (PLANS): Stripe prices name their plan by metadata `plan` or lookup key. */
  plans: PlanTable;
}

/**
 * `POST /billing/customer-portal`: with Stripe, a billing-portal session for the account's
 * customer (created on first use); without it, a signed, short-lived link to the built-in page.
 */
export async function createBillingPortalUrl(
  deps: BillingDeps,
  principal: Pick<Principal, 'accountId'>,
  returnUrl: string | undefined,
): Promise<{ url: string; expiresAt?: string }> {
  const account = await findAccountById(deps.db, principal.accountId);
  if (!account) throw new AppError('NOT_FOUND', 'The account does not exist.');
  if (deps.stripe) {
    const customer = await ensureStripeCustomer(deps, deps.stripe, account);
    const session = await deps.stripe.billingPortal.sessions.create({
      customer,
      ...(returnUrl ? { return_url: returnUrl } : {}),
    });
    return { url: session.url };
  }
  const expiresAt = new Date(deps.clock.now().getTime() + BILLING_LINK_TTL_MS);
  const { token } = await deps.tokens.issue('billing', {
    subject: account.id,
    claims: returnUrl ? { ret: returnUrl } : {},
    expiresAt,
  });
  return {
    url: `${deps.publicApiUrl}/billing/portal?token=${encodeURIComponent(token)}`,
    expiresAt: expiresAt.toISOString(),
  };
}

/** The account's Stripe customer, created (once, idempotently) on first use and linked to the account. */
export async function ensureStripeCustomer(
  deps: BillingDeps,
  stripe: Stripe,
  account: { id: string; name: string; email: string | null; stripeCustomerId: string | null },
): Promise<string> {
  return account.stripeCustomerId ?? createCustomer(deps, stripe, account);
}

async function createCustomer(
  deps: BillingDeps,
  stripe: Stripe,
  account: { id: string; name: string; email: string | null },
): Promise<string> {
  const customer = await stripe.customers.create(
    {
      name: account.name,
      ...(account.email ? { email: account.email } : {}),
      metadata: { svc_account_id: account.id },
    },
    { idempotencyKey: `svc-customer-${account.id}` },
  );
  await setStripeCustomerId(deps.db, account.id, customer.id);
  return customer.id;
}
