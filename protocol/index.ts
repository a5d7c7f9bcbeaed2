/**
 * The message contract between the widget iframe, the loader and the host page (DESIGN.md §6).
 * Imports nothing: host developers may copy these types as they are.
 *
 * @example
 * ```ts
 * Svc.on('svc-result', (payload) => console.log(payload.outputs.totalTax));
 * document.querySelector('#calc').addEventListener('svc-lead', (e) => console.log(e.detail.leadId));
 * ```
 */

export const PROTOCOL_VERSION = 1 as const;

/** Events the iframe sends to the host page (relayed by the loader). */
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

/** Legacy names of `svc-resize`, still emitted for older host pages. */
export const RESIZE_TYPES = ['svc-resize', 'svc-embed-resize', 'alt-embed-resize'] as const;

export type ErrorReason =
  | 'token_denied'
  | 'domain_not_allowed'
  | 'network'
  | 'rate_limited'
  | 'invalid_input'
  | 'unknown';

export interface ReadyPayload {
  calculator: string;
}
export interface ResizePayload {
  /** Content height in CSS pixels. */
  height: number;
}
export interface ResultPayload {
  resultId: string;
  calculator: string;
  state: string | null;
  inputs: Record<string, unknown>;
  /** e.g. `{ estateValue, federalTax, stateTax, totalTax, effectiveRate }` for `estate-tax`. */
  outputs: Record<string, unknown>;
  ruleSet: { id: string; taxYear: number; effectiveDate: string };
}
export interface LeadPayload {
  leadId: string;
  calculator: string;
  resultId?: string;
}
export interface ErrorPayload {
  reason: ErrorReason;
  /** A sentence a person can act on. */
  message: string;
}

export interface PayloadOf {
  'svc-ready': ReadyPayload;
  'svc-resize': ResizePayload;
  'svc-embed-resize': ResizePayload;
  'alt-embed-resize': ResizePayload;
  'svc-result': ResultPayload;
  'svc-lead': LeadPayload;
  'svc-error': ErrorPayload;
}

/** What travels in every `postMessage` from the iframe: `{ type, v: 1, widgetId, payload }`. */
export type SvcEvent = {
  [T in EventType]: { type: T; v: typeof PROTOCOL_VERSION; widgetId: string; payload: PayloadOf[T] };
}[EventType];

/** Loader → iframe, over the MessagePort handed over in `svc-connect`. */
export interface TokenMessage {
  type: 'svc-token';
  v: typeof PROTOCOL_VERSION;
  token: string;
  expiresAt: string;
  apiUrl: string;
}

/** Loader → iframe once, with `window.postMessage` to the embed origin, carrying the port. */
export interface ConnectMessage {
  type: 'svc-connect';
  v: typeof PROTOCOL_VERSION;
  widgetId: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

export function isSvcEvent(value: unknown): value is SvcEvent {
  return (
    isObject(value) &&
    value.v === PROTOCOL_VERSION &&
    typeof value.type === 'string' &&
    (EVENT_TYPES as readonly string[]).includes(value.type) &&
    typeof value.widgetId === 'string' &&
    isObject(value.payload)
  );
}

export const isResizeEvent = (
  e: SvcEvent,
): e is Extract<SvcEvent, { type: 'svc-resize' | 'svc-embed-resize' | 'alt-embed-resize' }> =>
  (RESIZE_TYPES as readonly string[]).includes(e.type) &&
  typeof (e.payload as ResizePayload).height === 'number';

export function isConnectMessage(value: unknown): value is ConnectMessage {
  return (
    isObject(value) &&
    value.type === 'svc-connect' &&
    value.v === PROTOCOL_VERSION &&
    typeof value.widgetId === 'string'
  );
}

export function isTokenMessage(value: unknown): value is TokenMessage {
  return (
    isObject(value) &&
    value.type === 'svc-token' &&
    value.v === PROTOCOL_VERSION &&
    typeof value.token === 'string' &&
    typeof value.expiresAt === 'string' &&
    typeof value.apiUrl === 'string'
  );
}

export function createEvent<T extends EventType>(type: T, widgetId: string, payload: PayloadOf[T]): SvcEvent {
  return { type, v: PROTOCOL_VERSION, widgetId, payload } as SvcEvent;
}
