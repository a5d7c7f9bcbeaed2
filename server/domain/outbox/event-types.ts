import type { WebhookBody } from '../../contracts/webhook.ts';

/** The events an endpoint can subscribe to (`leads.digest` also reaches `lead.created` subscribers). */
export const WEBHOOK_EVENT_TYPES = [
  'lead.created',
  'lead.updated',
  'result.created',
  'leads.digest',
] as const satisfies readonly WebhookBody['type'][];
export type WebhookEventType = WebhookBody['type'];
// Compile-time: the list and the contract name the same events.
const _sameEvents: [WebhookEventType, (typeof WEBHOOK_EVENT_TYPES)[number]] extends [
  (typeof WEBHOOK_EVENT_TYPES)[number],
  WebhookEventType,
]
  ? true
  : never = true;

/** What a receiver gets: the event type, when it happened, and the record as the REST API shows it. */
export type { WebhookBody };
