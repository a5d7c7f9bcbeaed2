/**
 * Types for host pages: `{embed_url}/embed.d.ts`. The `Svc` global that loader.js sets, the ESM
 * entry `{embed_url}/embed.mjs`, and every event payload. Kept in step with the widget's protocol
 * by a type test in the svc repository.
 *
 * @example
 * ```ts
 * /// <reference path="./embed.d.ts" />
 * Svc.on('svc-result', (payload) => console.log(payload.outputs.totalTax));
 * ```
 */

export type ErrorReason =
  | 'token_denied'
  | 'domain_not_allowed'
  | 'network'
  | 'rate_limited'
  | 'invalid_input'
  | 'wrong_key_kind'
  | 'resize_loop'
  | 'unknown';

/** `svc-ready`: the widget is interactive (it holds a session). Never sent for a refused key or domain. */
export interface ReadyPayload {
  calculator: string;
}
/** `svc-resize` and the legacy `svc-embed-resize` / `alt-embed-resize`: content height in CSS pixels. */
export interface ResizePayload {
  height: number;
}
/** `svc-result`: the server computed and stored a result. */
export interface ResultPayload {
  resultId: string;
  calculator: string;
  state: string | null;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  ruleSet: { id: string; taxYear: number; effectiveDate: string };
}
/** `svc-lead`: a visitor's contact request was stored for the firm. */
export interface LeadPayload {
  leadId: string;
  calculator: string;
  resultId?: string;
}
/** `svc-error`: a reason and a sentence a person can act on. */
export interface ErrorPayload {
  reason: ErrorReason;
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
export type EventType = keyof PayloadOf;

export type Listener<T extends EventType = EventType> = (
  payload: PayloadOf[T],
  meta: { widgetId: string; element: HTMLElement },
) => void;

/** `window.Svc`, set by loader.js. */
export interface SvcApi {
  version: string;
  on<T extends EventType>(type: T, listener: Listener<T>): () => void;
  off<T extends EventType>(type: T, listener: Listener<T>): void;
  mount(element: HTMLElement, calculator?: string): string | undefined;
  unmount(element: HTMLElement): void;
  destroy(): void;
}

export interface MountOptions {
  key: string;
  calculator?: string;
  api?: string;
  theme?: 'light' | 'dark' | 'auto';
  accent?: string;
  radius?: string;
  font?: string;
  state?: string;
  /** `en`, `es` or `auto` (the visitor's browser language); each mount may choose its own. */
  lang?: 'en' | 'es' | 'auto';
  legacyEvents?: 'on' | 'off';
}

/**
 * embed.mjs: loads loader.js once (manual mount mode) and mounts into `element`. Rejects when
 * loader.js cannot be loaded; the next call tries again.
 */
export function mount(element: HTMLElement, options: MountOptions): Promise<string | undefined>;
export function on<T extends EventType>(type: T, listener: Listener<T>): () => void;
export function unmount(element: HTMLElement): void;
export function destroy(): void;

declare global {
  interface Window {
    Svc?: SvcApi;
  }
  // biome-ignore lint/suspicious/noRedeclare: the global loader.js sets
  var Svc: SvcApi | undefined;
}
