import type Stripe from 'stripe';
import type { LicenseChanges } from '../../db/repos/licenses-repo.ts';
import { findPlan, type PlanTable } from '../licensing/plans.ts';

const fromUnix = (seconds: number | null | undefined) =>
  typeof seconds === 'number' ? new Date(seconds * 1000) : null;

/** Loose reads of fields that moved between Stripe API versions (events keep the version they were made in). */
type Loose = Record<string, unknown>;

function period(sub: Stripe.Subscription): { start: Date | null; end: Date | null } {
  const item = sub.items?.data?.[0] as unknown as Loose | undefined;
  const legacy = sub as unknown as Loose;
  return {
    start: fromUnix((item?.current_period_start ?? legacy.current_period_start) as number | undefined),
    end: fromUnix((item?.current_period_end ?? legacy.current_period_end) as number | undefined),
  };
}

function latestInvoicePaid(sub: Stripe.Subscription): boolean | undefined {
  const invoice = sub.latest_invoice;
  if (!invoice || typeof invoice === 'string') return undefined;
  return invoice.status === 'paid';
}

/** Plan and seats from the first item: price metadata `plan` (or the lookup key) and `seats` per unit. */
function planAndSeats(
  sub: Stripe.Subscription,
  plans: PlanTable,
  currentPlan: string,
): { plan?: string; seats?: number; unknownPlan?: string | undefined } {
  const item = sub.items?.data?.[0];
  if (!item) return {};
  const price = item.price;
  const named = price?.metadata?.plan ?? price?.lookup_key ?? undefined;
  const plan = named ? findPlan(plans, named) : undefined;
  const perUnitText = price?.metadata?.seats;
  const perUnit =
    perUnitText && /^\d+$/.test(perUnitText)
      ? Number(perUnitText)
      : ((plan ?? findPlan(plans, currentPlan))?.seats ?? 1);
  const seats = Math.min(10_000, perUnit * (item.quantity ?? 1));
  return { ...(plan ? { plan: plan.name } : {}), seats, unknownPlan: named && !plan ? named : undefined };
}

/**
 * What a subscription says about its license, derived from the subscription object alone, so the
 * order in which events arrive does not matter: the latest object always gives the same answer.
 * - active (or its latest invoice paid): paid through the current period's end;
 * - past_due / unpaid: paid only through the current period's start, so the license runs into
 *   grace and then expires on its dates while Stripe retries;
 * - canceled: paid through the earlier of the period end and the end of the subscription (when its
 *   last invoice was paid), never renewed;
 * - trialing: the trial end becomes the license's trial end;
 * - incomplete, incomplete_expired, paused: nothing paid, no date moves.
 * Plan and seats follow the first item's price and quantity; seats are never refused here (the
 * license goes over seat instead; see license-outlook.ts).
 */
export function subscriptionBilling(
  sub: Stripe.Subscription,
  plans: PlanTable,
  currentPlan: string,
): { changes: LicenseChanges; unknownPlan?: string } {
  const { start, end } = period(sub);
  const changes: LicenseChanges = { stripeSubscriptionId: sub.id };
  const endedAt = fromUnix(sub.ended_at) ?? fromUnix(sub.canceled_at);
  switch (sub.status) {
    case 'active':
      if (end) changes.paidThrough = end;
      break;
    case 'trialing':
      if (sub.trial_end) changes.trialEndsAt = fromUnix(sub.trial_end);
      break;
    case 'past_due':
    case 'unpaid':
      if (start) changes.paidThrough = start;
      break;
    case 'canceled': {
      const paid = latestInvoicePaid(sub) !== false;
      const until = paid ? end : start;
      if (until) changes.paidThrough = endedAt && endedAt < until ? endedAt : until;
      break;
    }
  }
  const cancels = sub.status === 'canceled' || sub.status === 'incomplete_expired';
  changes.cancelAt =
    fromUnix(sub.cancel_at) ??
    (sub.cancel_at_period_end ? end : null) ??
    (cancels ? (endedAt ?? fromUnix(sub.canceled_at)) : null);
  changes.renewsAt = (sub.status === 'active' || sub.status === 'trialing') && !changes.cancelAt ? end : null;
  const { unknownPlan, ...planSeats } = planAndSeats(sub, plans, currentPlan);
  Object.assign(changes, planSeats);
  return { changes, ...(unknownPlan ? { unknownPlan } : {}) };
}
