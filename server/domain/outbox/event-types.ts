import type { WebhookBody } from '../../contracts/webhook.ts';

/**
 * The events an endpoint can subscribe to (`leads.digest` also reaches `lead.created` subscribers).
 * Every event is opt-in: an endpoint receives exactly the types it lists, so an endpoint made before
 * a type existed receives none of it until it is given that type.
 */
export const WEBHOOK_EVENT_TYPES = [
  'lead.created',
  'lead.updated',
  'result.created',
  'leads.digest',
  'rules.updated',
] as const satisfies readonly WebhookBody['type'][];
export type WebhookEventType = WebhookBody['type'];
// Compile-time: the list and the contract name the same events.
const _sameEvents: [WebhookEventType, (typeof WEBHOOK_EVENT_TYPES)[number]] extends [
  (typeof WEBHOOK_EVENT_TYPES)[number],
  WebhookEventType,
]
  ? true
  : never = true;

/**
 * Events about the firm's account rather than a lead: a plain webhook endpoint may choose them, a
 * CRM destination (an endpoint of another kind) never receives them, whatever its list says.
 */
export const FIRM_ONLY_EVENT_TYPES: readonly WebhookEventType[] = ['rules.updated'];

/** What a receiver gets: the event type, when it happened, and the record as the REST API shows it. */
export type { WebhookBody };
