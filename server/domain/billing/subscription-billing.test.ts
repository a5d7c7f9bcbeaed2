import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS } from '../licensing/plans.ts';
import { subscriptionBilling } from './subscription-billing.ts';

const START = Date.parse('2026-03-01T00:00:00Z') / 1000;
const END = START + 30 * 86_400;
const at = (s: number) => new Date(s * 1000);

function sub(over: Record<string, unknown> = {}, item: Record<string, unknown> = {}): Stripe.Subscription {
  return {
    id: 'sub_1',
    object: 'subscription',
    status: 'active',
    customer: 'cus_1',
    metadata: {},
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    ended_at: null,
    trial_end: null,
    latest_invoice: { id: 'in_1', object: 'invoice', status: 'paid' },
    items: {
      object: 'list',
      data: [
        {
          id: 'si_1',
          quantity: 1,
          current_period_start: START,
          current_period_end: END,
          price: { id: 'price_1', lookup_key: 'pro', metadata: {} },
          ...item,
        },
      ],
    },
    ...over,
  } as unknown as Stripe.Subscription;
}

describe('subscriptionBilling: what a subscription says about its license', () => {
  it.each([
    ['active', sub(), { paidThrough: at(END), renewsAt: at(END), cancelAt: null }],
    ['past_due', sub({ status: 'past_due' }), { paidThrough: at(START), renewsAt: null, cancelAt: null }],
    ['unpaid', sub({ status: 'unpaid' }), { paidThrough: at(START), renewsAt: null }],
    [
      'cancel at period end',
      sub({ cancel_at_period_end: true, cancel_at: END }),
      { paidThrough: at(END), renewsAt: null, cancelAt: at(END) },
    ],
    [
      'canceled now, last invoice paid',
      sub({ status: 'canceled', canceled_at: START + 86_400, ended_at: START + 86_400 }),
      { paidThrough: at(START + 86_400), renewsAt: null, cancelAt: at(START + 86_400) },
    ],
    [
      'canceled after failed payments',
      sub({
        status: 'canceled',
        ended_at: END - 86_400,
        latest_invoice: { id: 'in_2', object: 'invoice', status: 'open' },
      }),
      { paidThrough: at(START), cancelAt: at(END - 86_400) },
    ],
    ['trialing', sub({ status: 'trialing', trial_end: END }), { trialEndsAt: at(END), renewsAt: at(END) }],
  ])('%s', (_name, subscription, expected) => {
    const { changes } = subscriptionBilling(subscription, DEFAULT_PLANS, 'trial');
    expect(changes).toMatchObject({ stripeSubscriptionId: 'sub_1', ...expected });
  });

  it.each([
    ['incomplete', sub({ status: 'incomplete' })],
    ['incomplete_expired', sub({ status: 'incomplete_expired' })],
    ['paused', sub({ status: 'paused' })],
  ])('%s moves no date', (_name, subscription) => {
    const { changes } = subscriptionBilling(subscription, DEFAULT_PLANS, 'trial');
    expect(changes.paidThrough).toBeUndefined();
    expect(changes.trialEndsAt).toBeUndefined();
  });

  it.each([
    ['lookup key, plan seats × quantity', { quantity: 2 }, { plan: 'pro', seats: 6 }],
    [
      'metadata plan and seats per unit',
      { quantity: 4, price: { id: 'p', lookup_key: null, metadata: { plan: 'starter', seats: '1' } } },
      { plan: 'starter', seats: 4 },
    ],
    [
      'unknown plan keeps the plan, seats from quantity',
      { quantity: 2, price: { id: 'p', lookup_key: 'platinum', metadata: {} } },
      { seats: 2 },
    ],
  ])('plan and seats: %s', (_name, item, expected) => {
    const { changes, unknownPlan } = subscriptionBilling(sub({}, item), DEFAULT_PLANS, 'trial');
    expect(changes).toMatchObject(expected);
    if (!('plan' in expected)) {
      expect(changes.plan).toBeUndefined();
      expect(unknownPlan).toBe('platinum');
    }
  });

  it('reads the period from the subscription on objects of older API versions', () => {
    const legacy = sub({ current_period_start: START, current_period_end: END });
    (legacy.items.data[0] as unknown as Record<string, unknown>).current_period_end = undefined;
    (legacy.items.data[0] as unknown as Record<string, unknown>).current_period_start = undefined;
    expect(subscriptionBilling(legacy, DEFAULT_PLANS, 'pro').changes.paidThrough).toEqual(at(END));
  });
});
