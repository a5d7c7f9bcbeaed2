import { createRoute, z } from '@hono/zod-openapi';
import Stripe from 'stripe';
import type { BillingDeps } from '../../domain/billing/billing-portal.ts';
import { billingNotConfigured } from '../../domain/billing/checkout.ts';
import { applyStripeEvent } from '../../domain/billing/stripe-sync.ts';
import { createRouter } from '../../http/openapi-router.ts';
import { AppError } from '../../lib/errors.ts';
import { errorResponses, jsonResponse } from '../schemas.ts';

const webhook = createRoute({
  method: 'post',
  path: '/webhooks/stripe',
  tags: ['Billing'],
  summary: 'Stripe events (signed with STRIPE_WEBHOOK_SECRET); each event id is applied once',
  description:
    'Verified with the `Stripe-Signature` header over the raw body. Subscription, invoice and checkout events update the license named by the subscription metadata `license_id`.',
  request: {
    headers: z.object({ 'stripe-signature': z.string().max(2000).optional() }),
  },
  responses: {
    200: jsonResponse(
      'Received',
      z.object({
        received: z.literal(true),
        eventId: z.string(),
        outcome: z.enum(['applied', 'unchanged', 'duplicate', 'ignored']),
        reason: z.string().optional(),
        licenseId: z.string().optional(),
      }),
    ),
    ...errorResponses(400, 501, 503),
  },
});

const badSignature = () =>
  new AppError(
    'INVALID_SIGNATURE',
    'The Stripe-Signature header does not match the body (check STRIPE_WEBHOOK_SECRET).',
  );

/** How far a signature's time may be from ours, either way (Stripe's own default, five minutes). */
const SIGNATURE_TOLERANCE_S = 300;

/**
 * The signature's time (`t=`) is no later than `receivedAt` plus the tolerance. Stripe's check
 * measures only the age, so a header dated in the future would pass, and stay replayable for as
 * long as it is ahead.
 */
function notFromTheFuture(header: string, receivedAt: number): boolean {
  const t = /(?:^|,)\s*t=(\d{1,12})\s*(?:,|$)/.exec(header)?.[1];
  return t !== undefined && Number(t) <= receivedAt / 1000 + SIGNATURE_TOLERANCE_S;
}

/** `POST /v1/webhooks/stripe`: no bearer credential; the signature over the raw body is the proof. */
export function createStripeWebhookRoutes(billing: BillingDeps) {
  const router = createRouter();
  router.openapi(webhook, async (c) => {
    if (!billing.webhookSecret) throw billingNotConfigured();
    const signature = c.req.header('stripe-signature');
    if (!signature) throw badSignature();
    const payload = await c.req.text();
    let event: Stripe.Event;
    try {
      // The business clock, not the wall clock, judges the signature's age (tests freeze time).
      const receivedAt = billing.clock.now().getTime();
      event = Stripe.webhooks.constructEvent(
        payload,
        signature,
        billing.webhookSecret,
        SIGNATURE_TOLERANCE_S,
        undefined,
        receivedAt,
      );
      if (!notFromTheFuture(signature, receivedAt)) throw badSignature();
    } catch {
      throw badSignature();
    }
    const result = await applyStripeEvent(billing, event);
    c.get('logger')?.info(
      { requestId: c.get('requestId'), stripeEvent: event.id, type: event.type, outcome: result.outcome },
      'stripe event',
    );
    return c.json({ received: true as const, ...result }, 200);
  });
  return router;
}
