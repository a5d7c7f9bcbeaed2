import {
  type ConnectMessage,
  type ErrorPayload,
  type ErrorReason,
  type EventType,
  isResizeEvent,
  isSvcEvent,
  type PayloadOf,
  PROTOCOL_VERSION,
  type SvcEvent,
  type TokenMessage,
} from '../protocol/index.ts';

/** Replaced with the configured API URL by the embed host when it serves this file. */
const API_URL_PLACEHOLDER = '__SVC_API_URL__';
const VERSION = '1.0.0';
const RENEW_BEFORE_MS = 60_000;

export type Listener<T extends EventType = EventType> = (
  payload: PayloadOf[T],
  meta: { widgetId: string; element: HTMLElement },
) => void;

export interface SvcApi {
  version: string;
  /** Listen to widget events: `Svc.on('svc-result', (payload) => …)`. Returns an unsubscribe function. */
  on<T extends EventType>(type: T, listener: Listener<T>): () => void;
  off<T extends EventType>(type: T, listener: Listener<T>): void;
  /** Mount a calculator into `element` (e.g. after a SPA route change). */
  mount(element: HTMLElement, calculator?: string): string | undefined;
  /** Remove a mounted widget. */
  unmount(element: HTMLElement): void;
}

interface Session {
  token: string;
  expiresAt: string;
}

interface Widget {
  id: string;
  element: HTMLElement;
  iframe: HTMLIFrameElement;
  calculator: string;
  port?: MessagePort;
}

interface LoaderConfig {
  licenseKey: string;
  apiUrl: string;
  embedOrigin: string;
  defaultCalculator: string;
}

/** Maps an API failure to a reason the firm's developer can act on. */
export function reasonFor(status: number, code?: string): ErrorPayload {
  if (code === 'DOMAIN_NOT_ALLOWED' || status === 403) {
    return {
      reason: 'domain_not_allowed',
      message: 'This site is not in the license’s allowed domains. Add it in the svc portal.',
    };
  }
  if (status === 401)
    return {
      reason: 'token_denied',
      message: 'The license key was refused. Check data-key, or the license’s status.',
    };
  if (status === 429)
    return { reason: 'rate_limited', message: 'Too many requests from this visitor; try again in a minute.' };
  return { reason: 'unknown', message: `The svc API answered ${status}.` };
}

export function createLoader(config: LoaderConfig, win: Window = window): SvcApi {
  const widgets = new Map<string, Widget>();
  const listeners = new Map<EventType, Set<Listener>>();
  let session: Promise<Session> | undefined;
  let renewTimer: ReturnType<typeof setTimeout> | undefined;
  let counter = 0;

  function emit(widget: Pick<Widget, 'id' | 'element'>, event: SvcEvent): void {
    widget.element.dispatchEvent(new CustomEvent(event.type, { detail: event.payload, bubbles: true }));
    for (const listener of listeners.get(event.type) ?? []) {
      try {
        listener(event.payload as never, { widgetId: widget.id, element: widget.element });
      } catch (error) {
        // A host listener's bug must not stop the others.
        console.error('[svc] listener failed', error);
      }
    }
  }

  function fail(widget: Pick<Widget, 'id' | 'element'>, reason: ErrorReason, message: string): void {
    emit(widget, {
      type: 'svc-error',
      v: PROTOCOL_VERSION,
      widgetId: widget.id,
      payload: { reason, message },
    });
  }

  async function requestSession(): Promise<Session> {
    let res: Response;
    try {
      res = await fetch(`${config.apiUrl}/v1/api/license/activate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ licenseKey: config.licenseKey }),
      });
    } catch {
      throw { reason: 'network', message: 'The svc API could not be reached.' } satisfies ErrorPayload;
    }
    if (!res.ok) {
      const body = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
      throw reasonFor(res.status, body.error?.code);
    }
    const body = (await res.json()) as Session;
    scheduleRenewal(body.expiresAt);
    return body;
  }

  function getSession(): Promise<Session> {
    session ??= requestSession();
    session.catch(() => {
      session = undefined;
    });
    return session;
  }

  function scheduleRenewal(expiresAt: string): void {
    if (renewTimer) clearTimeout(renewTimer);
    const wait = Math.max(5_000, Date.parse(expiresAt) - Date.now() - RENEW_BEFORE_MS);
    renewTimer = setTimeout(() => {
      session = undefined;
      getSession().then(
        (s) => {
          for (const widget of widgets.values()) sendToken(widget, s);
        },
        (error: ErrorPayload) => {
          for (const widget of widgets.values()) fail(widget, error.reason, error.message);
        },
      );
    }, wait);
  }

  function sendToken(widget: Widget, s: Session): void {
    const message: TokenMessage = {
      type: 'svc-token',
      v: PROTOCOL_VERSION,
      token: s.token,
      expiresAt: s.expiresAt,
      apiUrl: config.apiUrl,
    };
    widget.port?.postMessage(message);
  }

  /** The iframe said it is ready: hand it a private channel, then the token over it. */
  function connect(widget: Widget): void {
    const channel = new MessageChannel();
    widget.port?.close();
    widget.port = channel.port1;
    const hello: ConnectMessage = { type: 'svc-connect', v: PROTOCOL_VERSION, widgetId: widget.id };
    widget.iframe.contentWindow?.postMessage(hello, config.embedOrigin, [channel.port2]);
    getSession().then(
      (s) => sendToken(widget, s),
      (error: ErrorPayload) => fail(widget, error.reason, error.message),
    );
  }

  function onMessage(event: MessageEvent): void {
    if (event.origin !== config.embedOrigin || !isSvcEvent(event.data)) return;
    const widget = widgets.get(event.data.widgetId);
    // The id alone is not proof: the message must come from that widget's own frame.
    if (!widget || event.source !== widget.iframe.contentWindow) return;
    if (event.data.type === 'svc-ready') connect(widget);
    if (isResizeEvent(event.data))
      widget.iframe.style.height = `${Math.max(120, Math.ceil(event.data.payload.height))}px`;
    emit(widget, event.data);
  }

  function mount(element: HTMLElement, calculator?: string): string | undefined {
    if (element.dataset.svcWidgetId) return element.dataset.svcWidgetId;
    const slug = calculator ?? element.dataset.svcCalculator ?? config.defaultCalculator;
    const id = `svc-${++counter}-${Math.random().toString(36).slice(2, 8)}`;
    const iframe = win.document.createElement('iframe');
    const hash = new URLSearchParams({ widgetId: id, host: win.location.origin });
    iframe.src = `${config.embedOrigin}/w/${encodeURIComponent(slug)}.html#${hash}`;
    iframe.title = `${slug.replace(/-/g, ' ')} calculator`;
    iframe.loading = 'lazy';
    iframe.style.width = '100%';
    iframe.style.border = '0';
    iframe.style.height = '520px';
    iframe.style.display = 'block';
    element.dataset.svcWidgetId = id;
    element.appendChild(iframe);
    widgets.set(id, { id, element, iframe, calculator: slug });
    getSession().catch((error: ErrorPayload) => fail({ id, element }, error.reason, error.message));
    return id;
  }

  function unmount(element: HTMLElement): void {
    const id = element.dataset.svcWidgetId;
    const widget = id ? widgets.get(id) : undefined;
    if (!widget) return;
    widget.port?.close();
    widget.iframe.remove();
    widgets.delete(widget.id);
    delete element.dataset.svcWidgetId;
  }

  win.addEventListener('message', onMessage);
  return {
    version: VERSION,
    on(type, listener) {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type)!.add(listener as Listener);
      return () => listeners.get(type)?.delete(listener as Listener);
    },
    off(type, listener) {
      listeners.get(type)?.delete(listener as Listener);
    },
    mount,
    unmount,
  };
}

/** Reads the `<script data-key>` tag; returns undefined (and says why) when it cannot start. */
export function configFromScript(script: HTMLScriptElement | null, apiUrl: string): LoaderConfig | undefined {
  if (!script?.src) return undefined;
  const licenseKey = script.dataset.key;
  if (!licenseKey) {
    console.error('[svc] loader.js needs data-key="SVC-…" on its <script> tag.');
    return undefined;
  }
  const api = script.dataset.api ?? (apiUrl.startsWith('__') ? '' : apiUrl);
  return {
    licenseKey,
    apiUrl: api.replace(/\/+$/, ''),
    embedOrigin: new URL(script.src).origin,
    defaultCalculator: script.dataset.calculator ?? 'estate-tax',
  };
}

export { API_URL_PLACEHOLDER };
