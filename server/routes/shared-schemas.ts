import { z } from '@hono/zod-openapi';
import { Iso } from './schemas.ts';

/**
 * Answers that the portal API and the admin API both give: a license as the operator sees it, a
 * webhook endpoint, a delivery with its attempts. One schema each, so the two documents (and the
 * portal and the CLI that compile against them) cannot drift apart.
 */

export const IsoOrNull = Iso.nullable();

export const License = z
  .object({
    id: z.string(),
    accountId: z.string(),
    keyLast4: z.string(),
    plan: z.string(),
    seats: z.number().int(),
    seatsUsed: z.number().int(),
    overSeat: z.boolean(),
    allowedDomains: z.array(z.string()),
    status: z.enum(['trial', 'active', 'grace', 'expired', 'revoked']),
    next: z.string(),
    expiresAt: IsoOrNull,
    trialEndsAt: IsoOrNull,
    paidThrough: IsoOrNull,
    graceEndsAt: IsoOrNull,
    renewsAt: IsoOrNull,
    cancelAt: IsoOrNull,
    revokedAt: IsoOrNull,
    stripeSubscriptionId: z.string().nullable(),
    createdAt: Iso,
    updatedAt: Iso,
  })
  .openapi('License');

const Activation = z
  .object({
    id: z.string(),
    domain: z.string(),
    env: z.enum(['prod', 'dev']),
    firstSeenAt: Iso,
    lastSeenAt: Iso,
    releasedAt: IsoOrNull,
    idle: z
      .boolean()
      .openapi({ description: 'Live but unused longer than a refresh token lives: holds no seat' }),
  })
  .openapi('Activation');

export const LicenseDetail = z
  .object({
    license: License,
    publishableKey: z.string().nullable(),
    overlapping: z.array(
      z.object({ kind: z.enum(['secret', 'publishable']), last4: z.string(), expiresAt: Iso }),
    ),
    activations: z.array(Activation),
  })
  .openapi('LicenseDetail');

export const ActivationReleased = LicenseDetail.extend({ activation: Activation }).openapi(
  'ActivationReleased',
);

export const WebhookEndpoint = z
  .object({
    id: z.string(),
    accountId: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    includeTest: z.boolean(),
    status: z.enum(['enabled', 'disabled']),
    disabledAt: IsoOrNull,
    disabledReason: z.string().nullable(),
    failingSince: IsoOrNull,
    previousSecretValidUntil: IsoOrNull,
    createdAt: Iso,
  })
  .openapi('WebhookEndpoint');

export const Deleted = z.object({ deleted: z.boolean(), id: z.string() }).openapi('Deleted');

const DeliveryStatus = z.enum(['pending', 'succeeded', 'failed', 'cancelled']);

const Exchange = z.object({
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  truncated: z.boolean(),
});

export const DeliveryAttempt = z
  .object({
    attempt: z.number().int(),
    startedAt: Iso,
    durationMs: z.number().int(),
    statusCode: z.number().int().nullable(),
    error: z.string().nullable(),
    responseExcerpt: z.string().nullable(),
    request: Exchange.nullable().openapi({ description: 'What was sent, credentials redacted' }),
    response: Exchange.extend({ statusCode: z.number().int() }).nullable(),
  })
  .openapi('WebhookDeliveryAttempt');

export const WebhookDelivery = z
  .object({
    id: z.string(),
    endpointId: z.string(),
    eventId: z.string(),
    type: z.string(),
    test: z.boolean(),
    status: DeliveryStatus,
    attempts: z.number().int(),
    nextAttemptAt: IsoOrNull,
    completedAt: IsoOrNull,
    createdAt: Iso,
    log: z.array(DeliveryAttempt),
  })
  .openapi('WebhookDelivery');

export const DeliveryQueued = z
  .object({
    delivery: z.object({
      id: z.string(),
      eventId: z.string(),
      endpointId: z.string(),
      status: DeliveryStatus,
      type: z.string().optional(),
    }),
  })
  .openapi('WebhookDeliveryQueued');

const Rows = z.array(z.record(z.string(), z.unknown()));

export const SubjectExport = z
  .object({
    email: z.string(),
    accountId: z.string(),
    generatedAt: Iso,
    leads: Rows,
    results: Rows,
    outboxEvents: Rows,
    webhookDeliveries: Rows,
    mails: Rows,
    leadNotes: Rows,
  })
  .openapi('SubjectExport', {
    description: 'Every stored row that names the address, as stored (a data-subject export)',
  });
