import {
  ERROR_REASONS,
  EVENT_TYPES,
  type EventType,
  PROTOCOL_VERSION,
  type RESIZE_TYPES,
  type SvcMessage,
  type SvcMessageOf,
} from './events.ts';
import type { ConnectMessage, HelloMessage, LoaderPortMessage, TokenRequestMessage } from './handshake.ts';

type Unknown = Record<string, unknown>;

const isObject = (value: unknown): value is Unknown => typeof value === 'object' && value !== null;
const isString = (value: unknown): value is string => typeof value === 'string';
const isOptionalString = (value: unknown) => value === undefined || isString(value);
const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T =>
  isString(value) && (list as readonly string[]).includes(value);

const isResizePayload = (p: Unknown) =>
  typeof p.height === 'number' && Number.isFinite(p.height) && p.height >= 0;

/** One payload check per event name, so a relayed event always has the shape its type promises. */
const PAYLOAD_CHECKS: Record<EventType, (payload: Unknown) => boolean> = {
  'svc-ready': (p) => isString(p.calculator),
  'svc-resize': isResizePayload,
  'svc-embed-resize': isResizePayload,
  'alt-embed-resize': isResizePayload,
  'svc-result': (p) =>
    isString(p.resultId) &&
    isString(p.calculator) &&
    (p.state === null || isString(p.state)) &&
    isObject(p.inputs) &&
    isObject(p.outputs) &&
    isObject(p.ruleSet),
  'svc-lead': (p) => isString(p.leadId) && isString(p.calculator) && isOptionalString(p.resultId),
  'svc-error': (p) => isOneOf(ERROR_REASONS, p.reason) && isString(p.message),
};

/**
 * True when `value` is a well-formed event envelope of this protocol version whose payload has
 * the shape its type promises. Use it on `event.data` after checking `event.origin` and
 * `event.source` (the loader does all three).
 *
 * @example
 * ```js
 * window.addEventListener('message', (event) => {
 *   if (event.origin !== EMBED_ORIGIN || !isSvcMessage(event.data)) return;
 *   if (event.data.type === 'svc-result') save(event.data.payload.resultId);
 * });
 * ```
 */
export function isSvcMessage(value: unknown): value is SvcMessage {
  return (
    isEnvelope(value) &&
    isOneOf(EVENT_TYPES, value.type) &&
    isString(value.widgetId) &&
    PAYLOAD_CHECKS[value.type](value.payload as unknown as Unknown)
  );
}

/**
 * The envelope alone (version, known type, widget id, an object payload): enough for the loader,
 * which has already checked that the message comes from its own widget's frame on the embed origin.
 */
export const isEnvelope = (value: unknown): value is SvcMessage =>
  isObject(value) &&
  value.v === PROTOCOL_VERSION &&
  /^(svc|alt)-/.test(value.type as string) &&
  isObject(value.payload);

/** True for `svc-resize` and its legacy aliases. */
export const isResizeMessage = (
  message: SvcMessage,
): message is SvcMessageOf<(typeof RESIZE_TYPES)[number]> => /-resize$/.test(message.type);

const isHandshake = (value: unknown, type: string) =>
  isObject(value) && value.type === type && value.v === PROTOCOL_VERSION && isString(value.widgetId);

export const isConnectMessage = (value: unknown): value is ConnectMessage =>
  isHandshake(value, 'svc-connect');

export const isHelloMessage = (value: unknown): value is HelloMessage => isHandshake(value, 'svc-hello');

/** What the widget accepts over its port. */
export function isLoaderPortMessage(value: unknown): value is LoaderPortMessage {
  if (!isObject(value) || value.v !== PROTOCOL_VERSION) return false;
  switch (value.type) {
    case 'svc-init':
      return (
        isString(value.token) &&
        isString(value.expiresAt) &&
        isString(value.apiUrl) &&
        (value.page === undefined || isString(value.page))
      );
    case 'svc-token':
      return isString(value.token) && isString(value.expiresAt);
    case 'svc-session-error':
      return isOneOf(ERROR_REASONS, value.reason) && isString(value.message);
    default:
      return false;
  }
}

/** What the loader accepts over a widget's port. */
export const isTokenRequestMessage = (value: unknown): value is TokenRequestMessage =>
  isObject(value) && value.type === 'svc-token-request' && value.v === PROTOCOL_VERSION;
