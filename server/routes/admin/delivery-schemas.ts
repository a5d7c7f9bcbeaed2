import { z } from '@hono/zod-openapi';
import { Iso } from '../schemas.ts';
import {
  Deleted,
  DeliveryQueued,
  SubjectExport,
  WebhookDelivery,
  WebhookEndpoint,
} from '../shared-schemas.ts';

/** Answers of the admin API's webhook, privacy and retention routes. */

const EndpointSchema = WebhookEndpoint;

export const EndpointAnswerSchema = z
  .object({ endpoint: EndpointSchema })
  .openapi('AdminWebhookEndpointAnswer');

export const EndpointWithSecretSchema = EndpointAnswerSchema.extend({
  secret: z.string().openapi({ description: 'The whsec_ signing secret: shown in this answer only' }),
}).openapi('AdminWebhookEndpointWithSecret');

export const EndpointListSchema = z
  .object({ endpoints: z.array(EndpointSchema) })
  .openapi('AdminWebhookEndpoints');

export const EndpointDeletedSchema = Deleted;

export const DeliveryListSchema = z
  .object({ deliveries: z.array(WebhookDelivery) })
  .openapi('AdminWebhookDeliveries');

export const DeliveryQueuedSchema = DeliveryQueued;

export const LeadErasedSchema = z
  .object({
    leadId: z.string(),
    deleted: z.boolean(),
    resultDeleted: z.string().nullable(),
    outboxEventsDeleted: z.number().int(),
    mailsDeleted: z.number().int(),
  })
  .openapi('AdminLeadErased');

export const SubjectExportSchema = SubjectExport;

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
    destinationWaitsCancelled: z.number().int(),
  })
  .openapi('AdminRetentionReport', { description: 'How many rows each rule deleted' });
