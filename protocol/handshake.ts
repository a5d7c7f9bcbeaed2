import type { ErrorReason, PROTOCOL_VERSION } from './events.ts';

/**
 * The private channel between the loader and one widget iframe (internal: host pages never see
 * these). After the iframe's `svc-hello`, the loader posts `svc-connect` to the iframe's window,
 * targeted at the embed origin, transferring one end of a `MessageChannel`. Everything else,
 * the embed token above all, travels over that port and never through a URL or `window`.
 *
 * ```
 * iframe ──svc-hello──▶ loader            (window.postMessage, target = host origin; not relayed)
 * loader ──svc-connect + port──▶ iframe   (window.postMessage, target = embed origin)
 * loader ──svc-init { token, … }──▶ port
 * loader ──svc-token { token, … }──▶ port (renewals, before expiry or on request)
 * loader ──svc-session-error──▶ port      (the session could not be opened)
 * iframe ──svc-token-request──▶ port      (the API refused the token, e.g. after the laptop slept)
 * iframe ──svc-ready──▶ host page         (only once the token's `org` is the parent's origin)
 * ```
 */

/** Iframe → loader window: the page has loaded and wants its channel. Internal; never relayed. */
export interface HelloMessage {
  type: 'svc-hello';
  v: typeof PROTOCOL_VERSION;
  widgetId: string;
  /** The calculator's name, for the iframe's `title`. */
  title?: string;
}

/** The firm behind the license, as its settings name it: the widget, consent text and PDF agree. */
export interface FirmInfo {
  name: string;
  /** `#rrggbb`, when the firm chose one. */
  accent?: string;
  /** How a visitor reaches the firm (its settings' contact details), for the thank-you state. */
  phone?: string;
  email?: string;
}

/**
 * The firm's consent version in force, from the embed session: the widget shows `text` verbatim
 * beside the consent box and names `versionId` with the lead. No consent wording lives in widget
 * code, so the words stored with a lead are the words its visitor read.
 */
export interface ConsentInfo {
  versionId: string;
  text: string;
  /** SHA-256 of `text` (hex), as the firm's consent version was published. */
  sha256: string;
  /** The language `text` is written in (`en` when absent: sessions before languages). */
  language?: string;
  /**
   * The version a widget in another language shows, by language (`es`). One embed session serves
   * the page's widgets in every language. When the firm wrote its own English text and no Spanish
   * one, `es` is that English version (`language: 'en'`): the firm's own words, never a default.
   */
  byLanguage?: Record<string, ConsentInfo>;
}

/** Loader → iframe window, once per `svc-ready`; `ports[0]` is the widget's end of the channel. */
export interface ConnectMessage {
  type: 'svc-connect';
  v: typeof PROTOCOL_VERSION;
  widgetId: string;
}

/** Loader → iframe over the port, first: the session. */
interface InitMessage {
  type: 'svc-init';
  v: typeof PROTOCOL_VERSION;
  token: string;
  /** ISO time the token expires. */
  expiresAt: string;
  /** API base without `/v1`, e.g. `https://api.svc.example`. */
  apiUrl: string;
  firm?: FirmInfo;
  consent?: ConsentInfo;
  /** The host page, origin + path (`pageOf(location.href)`), as reported by the page; the widget sends it with results and leads. */
  page?: string;
}

/** Loader → iframe over the port: a renewed token. */
interface TokenMessage {
  type: 'svc-token';
  v: typeof PROTOCOL_VERSION;
  token: string;
  expiresAt: string;
}

/** Loader → iframe over the port: no session, so the widget can say why instead of waiting. */
interface SessionErrorMessage {
  type: 'svc-session-error';
  v: typeof PROTOCOL_VERSION;
  reason: ErrorReason;
  message: string;
}

/** Iframe → loader over the port: the API refused the current token; please renew now. */
export interface TokenRequestMessage {
  type: 'svc-token-request';
  v: typeof PROTOCOL_VERSION;
}

/** What the loader sends over the port. */
export type LoaderPortMessage = InitMessage | TokenMessage | SessionErrorMessage;
