import {
  createMessage,
  type ErrorPayload,
  type EventType,
  isResizeMessage,
  isSvcMessage,
  isTokenRequestMessage,
  type LoaderPortMessage,
  PROTOCOL_VERSION,
} from '../protocol/index.ts';
import type { LoaderConfig } from './config.ts';
import { createEmitter, type Listener } from './emitter.ts';
import { createFrame, resizeFrame, SLUG } from './frame.ts';
import { toErrorPayload } from './reasons.ts';
import { createSession, type EmbedSession } from './session.ts';

declare const __SVC_VERSION__: string | undefined;

/** After the iframe's page has loaded, this long without `svc-ready` means it never will. */
export const READY_TIMEOUT_MS = 15_000;

/**
 * `window.Svc`, set by loader.js.
 *
 * @example
 * ```js
 * const stop = Svc.on('svc-result', (payload) => analytics.track('estimate', payload.outputs));
 * const id = Svc.mount(document.querySelector('#slot'), 'rmd'); // single-page apps
 * Svc.unmount(document.querySelector('#slot'));
 * ```
 */
export type { Listener };

export interface SvcApi {
  /** The loader's version, e.g. `0.1.0`. */
  version: string;
  /** Calls `listener` for every event of `type` from any widget on the page. Returns an unsubscribe function. */
  on<T extends EventType>(type: T, listener: Listener<T>): () => void;
  off<T extends EventType>(type: T, listener: Listener<T>): void;
  /**
   * Mounts a calculator into `element` (default: its `data-svc-calculator`, then the script's
   * `data-calculator`). Returns the widget id, the same id if already mounted, or undefined
   * (with an `svc-error` or a console message) when it cannot.
   */
  mount(element: HTMLElement, calculator?: string): string | undefined;
  /** Removes the widget from `element`; the container itself stays. */
  unmount(element: HTMLElement): void;
}

interface Widget {
  id: string;
  element: HTMLElement;
  iframe: HTMLIFrameElement;
  calculator: string;
  ready: boolean;
  port?: MessagePort;
  /** The current port has had its `svc-init`. */
  initialized: boolean;
  readyTimer?: ReturnType<typeof setTimeout>;
  /** The last reason reported, so one failure gives one `svc-error` per widget. */
  reported?: string;
}

type Target = Pick<Widget, 'id' | 'element'> & Partial<Widget>;

function mountProblem(slug: string, hostOrigin: string): ErrorPayload | undefined {
  if (!SLUG.test(slug)) {
    return {
      reason: 'invalid_input',
      message: `"${slug}" is not a calculator name; write e.g. data-svc-calculator="estate-tax".`,
    };
  }
  if (!/^https?:/.test(hostOrigin)) {
    return {
      reason: 'domain_not_allowed',
      message: 'Widgets run only on pages served over http(s), not from a file.',
    };
  }
  return undefined;
}

const isElement = (value: unknown): value is HTMLElement =>
  typeof value === 'object' && value !== null && (value as Node).nodeType === 1;

export function createLoader(config: LoaderConfig, win: Window = window): SvcApi {
  const widgets = new Map<string, Widget>();
  const { on, off, emit } = createEmitter();
  let counter = 0;
  const session = createSession(config, {
    onRenewed: (s) => {
      for (const widget of widgets.values()) deliver(widget, s);
    },
    onRenewFailed: (error) => {
      for (const widget of widgets.values()) refuse(widget, error);
    },
  });

  function fail(target: Target, error: ErrorPayload): void {
    if (target.reported === error.reason) return;
    target.reported = error.reason;
    emit(target, createMessage('svc-error', target.id, error));
  }

  const post = (widget: Widget, message: LoaderPortMessage) => widget.port?.postMessage(message);

  function deliver(widget: Widget, s: EmbedSession): void {
    if (!widget.port) return; // not ready yet: it gets the session when it connects
    const { token, expiresAt } = s;
    post(
      widget,
      widget.initialized
        ? { type: 'svc-token', v: PROTOCOL_VERSION, token, expiresAt }
        : { type: 'svc-init', v: PROTOCOL_VERSION, token, expiresAt, apiUrl: config.apiUrl },
    );
    widget.initialized = true;
    widget.reported = undefined;
  }

  function refuse(widget: Widget, error: ErrorPayload): void {
    post(widget, { type: 'svc-session-error', v: PROTOCOL_VERSION, ...error });
    fail(widget, error);
  }

  /** The iframe said it is ready: give it a private channel, then the session over it. */
  function connect(widget: Widget): void {
    widget.port?.close();
    const channel = new MessageChannel();
    widget.port = channel.port1;
    widget.initialized = false;
    channel.port1.onmessage = (event) => {
      if (isTokenRequestMessage(event.data)) renewFor(widget);
    };
    widget.iframe.contentWindow?.postMessage(
      { type: 'svc-connect', v: PROTOCOL_VERSION, widgetId: widget.id },
      config.embedOrigin,
      [channel.port2],
    );
    session.get().then(
      (s) => deliver(widget, s),
      (error: unknown) => refuse(widget, toErrorPayload(error)),
    );
  }

  function renewFor(widget: Widget): void {
    // Another widget may have just renewed: then this one only needs the current token.
    if (session.renewNow() === 'fresh') {
      session.get().then(
        (s) => deliver(widget, s),
        (error: unknown) => refuse(widget, toErrorPayload(error)),
      );
    }
  }

  function onMessage(event: MessageEvent): void {
    if (event.origin !== config.embedOrigin || !isSvcMessage(event.data)) return;
    const message = event.data;
    const widget = widgets.get(message.widgetId);
    const frame = widget?.iframe.contentWindow;
    // The id alone proves nothing: the message must come from that widget's own frame.
    if (!widget || !frame || event.source !== frame) return;
    if (message.type === 'svc-ready') {
      widget.ready = true;
      clearTimeout(widget.readyTimer);
      connect(widget);
    } else if (isResizeMessage(message)) {
      resizeFrame(widget.iframe, message.payload.height);
    }
    emit(widget, message);
  }

  function watchLoad(widget: Widget): void {
    widget.iframe.addEventListener('load', () => {
      if (widget.ready) return;
      clearTimeout(widget.readyTimer);
      widget.readyTimer = setTimeout(() => {
        if (widget.ready || !widgets.has(widget.id)) return;
        fail(widget, {
          reason: 'network',
          message: `The calculator page did not start. If this site sends a Content-Security-Policy, allow frame-src ${config.embedOrigin}.`,
        });
      }, READY_TIMEOUT_MS);
    });
  }

  /** Checks the slug against the license once the session says which calculators it covers. */
  function checkCalculator(widget: Widget): void {
    session.get().then(
      (s) => {
        if (!s.calculators || s.calculators.includes(widget.calculator)) return;
        unmount(widget.element);
        fail(widget, {
          reason: 'invalid_input',
          message: `There is no calculator "${widget.calculator}". Use one of: ${s.calculators.join(', ')}.`,
        });
      },
      (error: unknown) => fail(widget, toErrorPayload(error)),
    );
  }

  function mount(element: HTMLElement, calculator?: string): string | undefined {
    if (!isElement(element)) {
      console.error('[svc] Svc.mount(element, calculator?) needs a DOM element.');
      return undefined;
    }
    const existing = element.dataset.svcWidgetId;
    if (existing && widgets.has(existing)) return existing;
    const slug = calculator ?? element.dataset.svcCalculator ?? config.defaultCalculator;
    const id = `svc-${++counter}-${Math.random().toString(36).slice(2, 8)}`;
    const hostOrigin = win.location.origin;
    const problem = mountProblem(slug, hostOrigin);
    if (problem) {
      fail({ id, element }, problem);
      return undefined;
    }
    const iframe = createFrame(win.document, {
      embedOrigin: config.embedOrigin,
      calculator: slug,
      widgetId: id,
      hostOrigin,
    });
    const widget: Widget = { id, element, iframe, calculator: slug, ready: false, initialized: false };
    widgets.set(id, widget);
    element.dataset.svcWidgetId = id;
    watchLoad(widget);
    element.appendChild(iframe);
    checkCalculator(widget);
    return id;
  }

  function unmount(element: HTMLElement): void {
    const id = isElement(element) ? element.dataset.svcWidgetId : undefined;
    const widget = id ? widgets.get(id) : undefined;
    if (!widget) return;
    widget.port?.close();
    clearTimeout(widget.readyTimer);
    widget.iframe.remove();
    widgets.delete(widget.id);
    delete element.dataset.svcWidgetId;
    if (widgets.size === 0) session.stop();
  }

  win.addEventListener('message', onMessage);
  return {
    version: typeof __SVC_VERSION__ === 'string' ? __SVC_VERSION__ : 'dev',
    on,
    off,
    mount,
    unmount,
  };
}
