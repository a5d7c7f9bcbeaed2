/** The events an endpoint can subscribe to (`leads.digest` also reaches `lead.created` subscribers). */
export const WEBHOOK_EVENT_TYPES = [
  'lead.created',
  'lead.updated',
  'result.created',
  'leads.digest',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What a receiver gets: the event type, when it happened, and the record as the REST API shows it. */
export interface WebhookBody {
  type: WebhookEventType;
  timestamp: string;
  data: Record<string, unknown>;
}
