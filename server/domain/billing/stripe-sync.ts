import type Stripe from 'stripe';
import { type Db, withTransaction } from '../../db/engine/database.ts';
import {
  findAccountById,
  findAccountByStripeCustomerId,
  setStripeCustomerId,
} from '../../db/repos/accounts-repo.ts';
import { lockLicense } from '../../db/repos/activations-repo.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import {
  findLicenseById,
  findLicenseBySubscriptionId,
  type LicenseChanges,
  type LicenseRow,
  listLicensesByAccount,
  updateLicense,
} from '../../db/repos/licenses-repo.ts';
import { claimStripeEvent, findStripeEvent } from '../../db/repos/stripe-events-repo.ts';
import { diff } from '../../lib/audit-diff.ts';
import { AppError } from '../../lib/errors.ts';
import { invalidateCaches } from '../caches/lookup-caches.ts';
import type { BillingDeps } from './billing-portal.ts';
import { subscriptionBilling } from './subscription-billing.ts';

/** The events that carry (or point to) a subscription; docs/licensing.md lists them for the operator. */
const HANDLED_EVENTS = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'invoice.paid',
  'invoice.payment_succeeded',
  'invoice.payment_failed',
] as const;

export interface StripeEventResult {
  eventId: string;
  outcome: 'applied' | 'unchanged' | 'duplicate' | 'ignored';
  reason?: string;
  licenseId?: string;
}

type Loose = Record<string, unknown>;
const idOf = (value: unknown): string | undefined =>
  typeof value === 'string'
    ? value
    : typeof (value as Loose)?.id === 'string'
      ? String((value as Loose).id)
      : undefined;

/** The subscription an event is about: its own id, an invoice's parent, or a checkout's result. */
function subscriptionIdOf(event: Stripe.Event): string | undefined {
  const object = event.data.object as unknown as Loose;
  if (event.type.startsWith('customer.subscription.')) return idOf(object);
  if (event.type.startsWith('invoice.')) {
    const parent = object.parent as Loose | null | undefined;
    const details = parent?.subscription_details as Loose | null | undefined;
    return idOf(details?.subscription) ?? idOf(object.subscription);
  }
  if (event.type === 'checkout.session.completed') return idOf(object.subscription);
  return undefined;
}

/**
 * Applies one verified Stripe event. The subscription is always read back from Stripe (with its
 * latest invoice) rather than taken from the event, so a late or replayed event cannot roll the
 * license back: every event leads to the subscription's present state. The event id is recorded
 * in the transaction that writes the license, so of two deliveries of one event exactly one
 * applies it, and an event that failed half-way (Stripe unreachable) is retried by Stripe, not lost.
 * Once a license has a subscription, Stripe owns its plan, seats and paid-through date; an
 * operator's later change holds until the next event.
 */
export async function applyStripeEvent(deps: BillingDeps, event: Stripe.Event): Promise<StripeEventResult> {
  const seen = await findStripeEvent(deps.db, event.id);
  if (seen)
    return {
      eventId: event.id,
      outcome: 'duplicate',
      ...(seen.licenseId ? { licenseId: seen.licenseId } : {}),
    };
  const subscriptionId = (HANDLED_EVENTS as readonly string[]).includes(event.type)
    ? subscriptionIdOf(event)
    : undefined;
  const subscription = subscriptionId ? await readSubscription(deps, event, subscriptionId) : undefined;
  if (!subscription)
    return ignore(deps, event, subscriptionId ? 'subscription not found' : 'not a subscription event');
  const license = await licenseOf(deps.db, subscription);
  if (!license) return ignore(deps, event, 'no license for this subscription (set metadata license_id)');
  const superseded =
    license.stripeSubscriptionId &&
    license.stripeSubscriptionId !== subscription.id &&
    (subscription.status === 'canceled' || subscription.status === 'incomplete_expired');
  if (superseded)
    return ignore(deps, event, 'an ended subscription the license has since replaced', license.id);
  const customerId = idOf(subscription.customer);
  const account = await findAccountById(deps.db, license.accountId);
  if (account?.stripeCustomerId && customerId && account.stripeCustomerId !== customerId)
    return ignore(deps, event, 'the subscription belongs to another Stripe customer', license.id);
  return applySubscription(
    deps,
    event,
    subscription,
    license.id,
    !account?.stripeCustomerId ? customerId : undefined,
  );
}

async function applySubscription(
  deps: BillingDeps,
  event: Stripe.Event,
  subscription: Stripe.Subscription,
  licenseId: string,
  linkCustomer: string | undefined,
): Promise<StripeEventResult> {
  const now = deps.clock.now();
  const outcome = await withTransaction(deps.db, async (tx) => {
    await lockLicense(tx, licenseId);
    const license = (await findLicenseById(tx, licenseId))!;
    const { changes, unknownPlan } = subscriptionBilling(subscription, deps.plans, license.plan);
    const changed = changedFields(license, changes);
    const applied = Object.keys(changed).length > 0;
    if (
      !(await claimStripeEvent(tx, {
        id: event.id,
        type: event.type,
        licenseId,
        outcome: applied ? 'applied' : 'unchanged',
        receivedAt: now,
      }))
    )
      return 'duplicate' as const;
    if (linkCustomer) await setStripeCustomerId(tx, license.accountId, linkCustomer);
    if (!applied) return 'unchanged' as const;
    await updateLicense(tx, licenseId, changed, now);
    await recordAudit(tx, {
      accountId: license.accountId,
      actor: 'stripe',
      action: 'license.billing_synced',
      subject: licenseId,
      data: {
        eventId: event.id,
        eventType: event.type,
        subscriptionStatus: subscription.status,
        ...(unknownPlan ? { unknownPlan } : {}),
        ...diff(license, changed),
      },
      at: now,
    });
    return 'applied' as const;
  });
  if (outcome === 'applied') await invalidateCaches(deps);
  return { eventId: event.id, outcome, licenseId };
}

function changedFields(license: LicenseRow, changes: LicenseChanges): LicenseChanges {
  const same = (a: unknown, b: unknown) =>
    a instanceof Date || b instanceof Date
      ? (a as Date | null)?.getTime() === (b as Date | null)?.getTime()
      : a === b;
  return Object.fromEntries(
    Object.entries(changes).filter(([key, value]) => !same(license[key as keyof LicenseRow], value)),
  ) as LicenseChanges;
}

async function readSubscription(
  deps: BillingDeps,
  event: Stripe.Event,
  id: string,
): Promise<Stripe.Subscription | undefined> {
  if (!deps.stripe) {
    // Without an API key only the event's own snapshot is known (subscription events carry one).
    const object = event.data.object as unknown as Loose;
    return object.object === 'subscription' ? (object as unknown as Stripe.Subscription) : undefined;
  }
  try {
    return await deps.stripe.subscriptions.retrieve(id, { expand: ['latest_invoice'] });
  } catch (error) {
    if ((error as { code?: string }).code === 'resource_missing') return undefined;
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'Stripe could not be asked for the subscription; Stripe retries the event.',
      {
        cause: error,
      },
    );
  }
}

/** metadata `license_id` first; else the license already linked; else the customer's only license. */
async function licenseOf(db: Db, sub: Stripe.Subscription): Promise<LicenseRow | undefined> {
  const named = sub.metadata?.license_id;
  if (named) return findLicenseById(db, named);
  const linked = await findLicenseBySubscriptionId(db, sub.id);
  if (linked) return linked;
  const customerId = idOf(sub.customer);
  const account = customerId ? await findAccountByStripeCustomerId(db, customerId) : undefined;
  const licenses = account ? await listLicensesByAccount(db, account.id) : [];
  return licenses.length === 1 ? licenses[0] : undefined;
}

async function ignore(
  deps: BillingDeps,
  event: Stripe.Event,
  reason: string,
  licenseId?: string,
): Promise<StripeEventResult> {
  await claimStripeEvent(deps.db, {
    id: event.id,
    type: event.type,
    licenseId: licenseId ?? null,
    outcome: `ignored: ${reason}`,
    receivedAt: deps.clock.now(),
  });
  return { eventId: event.id, outcome: 'ignored', reason, ...(licenseId ? { licenseId } : {}) };
}
