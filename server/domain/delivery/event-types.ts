/** The events an endpoint can subscribe to. */
export const WEBHOOK_EVENT_TYPES = ['lead.created', 'lead.updated', 'result.created'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What a receiver gets: the event type, when it happened, and the record as the REST API shows it. */
export interface WebhookBody {
  type: WebhookEventType;
  timestamp: string;
  data: Record<string, unknown>;
}
