import { z } from '@hono/zod-openapi';
import { Iso } from './schemas.ts';

/** Answers of the admin API's webhook, privacy and retention routes. */

const IsoOrNull = Iso.nullable();
const DeliveryStatus = z.enum(['pending', 'succeeded', 'failed', 'cancelled']);

export const EndpointSchema = z
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
  .openapi('AdminWebhookEndpoint');

export const EndpointAnswerSchema = z
  .object({ endpoint: EndpointSchema })
  .openapi('AdminWebhookEndpointAnswer');

export const EndpointWithSecretSchema = EndpointAnswerSchema.extend({
  secret: z.string().openapi({ description: 'The whsec_ signing secret: shown in this answer only' }),
}).openapi('AdminWebhookEndpointWithSecret');

export const EndpointListSchema = z
  .object({ endpoints: z.array(EndpointSchema) })
  .openapi('AdminWebhookEndpoints');

export const EndpointDeletedSchema = z
  .object({ deleted: z.boolean(), id: z.string() })
  .openapi('AdminDeleted');

const Exchange = z.object({
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  truncated: z.boolean(),
});

export const DeliveryListSchema = z
  .object({
    deliveries: z.array(
      z.object({
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
        log: z.array(
          z.object({
            attempt: z.number().int(),
            startedAt: Iso,
            durationMs: z.number(),
            statusCode: z.number().int().nullable(),
            error: z.string().nullable(),
            responseExcerpt: z.string().nullable(),
            request: Exchange.nullable(),
            response: Exchange.extend({ statusCode: z.number().int() }).nullable(),
          }),
        ),
      }),
    ),
  })
  .openapi('AdminWebhookDeliveries');

export const DeliveryQueuedSchema = z
  .object({
    delivery: z.object({
      id: z.string(),
      eventId: z.string(),
      endpointId: z.string(),
      status: DeliveryStatus,
      type: z.string().optional(),
    }),
  })
  .openapi('AdminWebhookDeliveryQueued');

export const LeadErasedSchema = z
  .object({
    leadId: z.string(),
    deleted: z.boolean(),
    resultDeleted: z.string().nullable(),
    outboxEventsDeleted: z.number().int(),
    mailsDeleted: z.number().int(),
  })
  .openapi('AdminLeadErased');

const Rows = z.array(z.record(z.string(), z.unknown()));

export const SubjectExportSchema = z
  .object({
    email: z.string(),
    accountId: z.string(),
    generatedAt: Iso,
    leads: Rows,
    results: Rows,
    outboxEvents: Rows,
    webhookDeliveries: Rows,
    mails: Rows,
  })
  .openapi('AdminSubjectExport', {
    description: 'Every stored row that names the address, as stored (a data-subject export)',
  });

export const ClosureSchema = z
  .object({ accountId: z.string(), closedAt: Iso, deleteAfter: Iso, graceDays: z.number().int() })
  .openapi('AdminAccountClosure');

export const RetentionReportSchema = z
  .object({
    results: z.number().int(),
    idempotencyKeys: z.number().int(),
    connectCodes: z.number().int(),
    refreshTokens: z.number().int(),
    deliveryLogs: z.number().int(),
    mails: z.number().int(),
    portalMails: z.number().int(),
    accountsDeleted: z.number().int(),
  })
  .openapi('AdminRetentionReport', { description: 'How many rows each rule deleted' });
