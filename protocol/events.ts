/**
 * Events the widget iframe sends to the host page (DESIGN.md §6). The loader checks where each
 * one came from and relays it to `window.Svc.on(...)` listeners and as a DOM `CustomEvent` on
 * the widget's container element.
 *
 * @example
 * ```js
 * Svc.on('svc-result', (payload, { widgetId }) => console.log(widgetId, payload.outputs));
 * document.querySelector('#calc').addEventListener('svc-lead', (e) => console.log(e.detail.leadId));
 * ```
 */

/** The envelope's `v`. A receiver ignores messages of any other version. */
export const PROTOCOL_VERSION = 1 as const;

/** Every event name, the legacy resize aliases included. */
export const EVENT_TYPES = [
  'svc-ready',
  'svc-resize',
  'svc-embed-resize',
  'alt-embed-resize',
  'svc-result',
  'svc-lead',
  'svc-error',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** `svc-resize` and the names older host pages listen for; all three carry `{ height }`. */
export const RESIZE_TYPES = ['svc-resize', 'svc-embed-resize', 'alt-embed-resize'] as const;

/** Why something failed, in words a host developer can act on. */
export const ERROR_REASONS = [
  /** The license key was refused (unknown, expired or revoked) or the session ended. */
  'token_denied',
  /** This site's domain is not in the license's allowed domains. */
  'domain_not_allowed',
  /** The API or the widget page could not be reached. */
  'network',
  /** Too many requests from this visitor; retry later. */
  'rate_limited',
  /** The visitor's inputs (or the page's `data-*` attributes) are not valid. */
  'invalid_input',
  /** `data-key` holds the secret license key: pages take the publishable key (`svc_pk_…`). */
  'wrong_key_kind',
  /** The widget's height kept changing (oscillation or runaway growth); resizing was stopped. */
  'resize_loop',
  'unknown',
] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];

/**
 * `svc-ready`: the widget is interactive: its page has loaded and it holds a valid session.
 * Never sent when the key or the domain is refused (then only `svc-error`).
 * @example `{ calculator: 'estate-tax' }`
 */
interface ReadyPayload {
  calculator: string;
}

/**
 * `svc-resize` (and its legacy aliases): the widget's content height changed. The loader already
 * resizes the iframe; listen only to lay out something around it.
 * @example `{ height: 742 }`
 */
interface ResizePayload {
  /** Content height in CSS pixels. */
  height: number;
}

/**
 * `svc-result`: the server computed and stored a result (the authoritative figures).
 * @example
 * ```js
 * { resultId: 'res_…', calculator: 'estate-tax', state: 'NY',
 *   inputs: { estateValue: 16000000, state: 'NY' },
 *   outputs: { federalTax: …, stateTax: …, totalTax: …, effectiveRate: … },
 *   ruleSet: { id: 'us-estate-2026', taxYear: 2026, effectiveDate: '2026-01-01' } }
 * ```
 */
export interface ResultPayload {
  resultId: string;
  calculator: string;
  /** Two-letter US state the result applies to, when the calculator has one. */
  state: string | null;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  ruleSet: { id: string; taxYear: number; effectiveDate: string };
}

/**
 * `svc-lead`: a visitor's contact request was stored for the firm.
 * @example `{ leadId: 'lead_…', calculator: 'estate-tax', resultId: 'res_…' }`
 */
interface LeadPayload {
  leadId: string;
  calculator: string;
  resultId?: string;
}

/**
 * `svc-error`: something failed. Emitted by the widget (calls to the API) and by the loader
 * (session, page load); nothing is ever thrown into the host page.
 * @example `{ reason: 'domain_not_allowed', message: 'This site is not in the license’s allowed domains. …' }`
 */
export interface ErrorPayload {
  reason: ErrorReason;
  /** A sentence a person can act on. */
  message: string;
}

/** The payload type of each event name. */
export interface PayloadOf {
  'svc-ready': ReadyPayload;
  'svc-resize': ResizePayload;
  'svc-embed-resize': ResizePayload;
  'alt-embed-resize': ResizePayload;
  'svc-result': ResultPayload;
  'svc-lead': LeadPayload;
  'svc-error': ErrorPayload;
}

/**
 * What every iframe → host `postMessage` carries.
 * @example `{ type: 'svc-ready', v: 1, widgetId: 'svc-1-k3x9', payload: { calculator: 'rmd' } }`
 */
export interface SvcMessageOf<T extends EventType> {
  type: T;
  v: typeof PROTOCOL_VERSION;
  /** The id the loader gave the widget; `Svc.mount` returns it. */
  widgetId: string;
  payload: PayloadOf[T];
}

/** Any event envelope, discriminated by `type`. */
export type SvcMessage = { [T in EventType]: SvcMessageOf<T> }[EventType];

/** Builds an envelope. */
export function createMessage<T extends EventType>(
  type: T,
  widgetId: string,
  payload: PayloadOf[T],
): SvcMessageOf<T> {
  return { type, v: PROTOCOL_VERSION, widgetId, payload };
}
