import {
  createMessage,
  type ErrorPayload,
  type EventType,
  isEnvelope,
  isHelloMessage,
  type LoaderPortMessage,
  PROTOCOL_VERSION,
  pageOf,
} from '../protocol/index.ts';
import { findTargets, type LoaderConfig, PER_WIDGET } from './config.ts';
import { createEmitter, type Listener } from './emitter.ts';
import { createFallback, createFrame, resizeFrame, SLUG } from './frame.ts';
import { isPermanent, toErrorPayload } from './reasons.ts';
import { createSession, type EmbedSession } from './session.ts';

declare const __SVC_VERSION__: string | undefined;

/**
 * After the iframe's load event, this long without its hello means it never will: an unknown
 * `data-calculator` (the page is a 404) or a host CSP without `frame-src` for the embed origin.
 */
export const READY_TIMEOUT_MS = 5_000;

/**
 * `window.Svc`, set by loader.js.
 *
 * @example
 * ```js
 * const stop = Svc.on('svc-result', (payload) => analytics.track('estimate', payload.outputs));
 * const id = Svc.mount(document.querySelector('#slot'), 'rmd'); // single-page apps
 * Svc.unmount(document.querySelector('#slot'));
 * Svc.destroy(); // every widget, listener and timer gone
 * ```
 */
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
  /** Removes the widget from `element` and releases its channel; the container itself stays. */
  unmount(element: HTMLElement): void;
  /** Removes every widget, stops watching the page and forgets every listener. */
  destroy(): void;
}

/** What main.ts drives besides the public API. */
export interface Loader extends SvcApi {
  /** Mounts the page's placeholders not tried yet and unmounts widgets whose container left the page. */
  sync(): void;
  /** Keeps `sync` running as the page changes (MutationObserver). */
  watch(): void;
}

/** One mounted widget, its state kept in a closure (nothing for page scripts to poke at). */
interface Widget {
  id: string;
  element: HTMLElement;
  iframe: HTMLIFrameElement;
  fail(error: ErrorPayload): void;
  deliver(session: EmbedSession): void;
  /** Anything a session request rejects with (made a payload here). */
  refuse(error: unknown): void;
  receive(data: unknown): void;
  release(): void;
}

const isElement = (value: unknown): value is HTMLElement => (value as Node | null)?.nodeType === 1;

export function createLoader(config: LoaderConfig, win: Window = window, onDestroy?: () => void): Loader {
  const widgets = new Map<string, Widget>();
  const { on, off, emit } = createEmitter();
  let counter = 0;
  const session = createSession(config);

  function createWidget(element: HTMLElement, id: string, iframe: HTMLIFrameElement): Widget {
    let port: MessagePort | undefined;
    /** The last reason reported, so one failure gives one `svc-error` per widget. */
    let reported: string | undefined;
    let readyTimer: ReturnType<typeof setTimeout> | undefined;
    let fallback: HTMLElement | undefined;
    const post = (message: LoaderPortMessage) => port?.postMessage(message);

    const widget: Widget = {
      id,
      element,
      iframe,
      fail(error) {
        if (reported === error.reason) return;
        reported = error.reason;
        emit(widget, createMessage('svc-error', id, error));
      },
      deliver({ token, expiresAt, firm, consent }) {
        if (!port) return; // not connected yet: it gets the session when it says hello
        // Renewals are an `svc-init` again: the widget takes the newest, and stays ready. The page is
        // read each time, so a single-page app's current path travels with the next calculation.
        // Absent parts travel as undefined: the widget reads each as optional.
        post({
          type: 'svc-init',
          v: PROTOCOL_VERSION,
          token,
          expiresAt,
          apiUrl: config.apiUrl,
          firm,
          consent,
          page: pageOf(win.location),
        });
        reported = undefined;
      },
      /** No session: the widget is told why, the host gets `svc-error`, a refusal collapses to the fallback. */
      refuse(thrown) {
        const error = toErrorPayload(thrown);
        post({ type: 'svc-session-error', v: PROTOCOL_VERSION, ...error });
        widget.fail(error);
        if (isPermanent(error.reason) && !fallback) {
          console.error(`[svc] ${error.message}`);
          fallback = createFallback(win.document, element.dataset.svcLang ?? config.lang);
          iframe.replaceWith(fallback);
          // The room the page kept for the calculator goes too: a short notice, not a hole.
          element.style.minHeight = '0';
        }
      },
      receive(data) {
        if (isHelloMessage(data)) {
          // The page is up: a private channel, then the session over it.
          if (data.title) iframe.title = data.title;
          clearTimeout(readyTimer);
          port?.close();
          const channel = new MessageChannel();
          port = channel.port1;
          port.onmessage = (event) => {
            // The port is private to this widget: its only request is `svc-token-request`.
            if (event.data?.type === 'svc-token-request') session.renew().then(widget.deliver, widget.refuse);
          };
          iframe.contentWindow?.postMessage(
            { type: 'svc-connect', v: PROTOCOL_VERSION, widgetId: id },
            config.embedOrigin,
            [channel.port2],
          );
          session.get().then(widget.deliver, widget.refuse);
          return;
        }
        // Origin and source are checked by the caller: the envelope is enough.
        if (!isEnvelope(data)) return;
        if (data.type === 'svc-resize') resizeFrame(iframe, data.payload.height);
        emit(widget, data);
      },
      release() {
        // A closed port delivers nothing more: the frame's later requests go nowhere.
        port?.close();
        port = undefined;
        clearTimeout(readyTimer);
        iframe.remove();
        fallback?.remove();
        widgets.delete(id);
        delete element.dataset.svcWidgetId;
      },
    };
    iframe.addEventListener('load', () => {
      if (port) return;
      clearTimeout(readyTimer);
      readyTimer = setTimeout(
        () =>
          !port &&
          widget.fail({
            reason: 'network',
            message: 'The page did not start: check data-calculator and CSP frame-src',
          }),
        READY_TIMEOUT_MS,
      );
    });
    return widget;
  }

  function onMessage(event: MessageEvent): void {
    const widget = widgets.get((event.data as { widgetId: string } | null)?.widgetId as string);
    // The id alone proves nothing: the message must come from that widget's own frame.
    if (event.origin === config.embedOrigin && widget && event.source === widget.iframe.contentWindow) {
      widget.receive(event.data);
    }
  }

  function mount(element: HTMLElement, calculator?: string): string | undefined {
    if (!isElement(element)) return undefined;
    const existing = element.dataset.svcWidgetId;
    if (existing && widgets.has(existing)) return existing;
    const slug = calculator ?? element.dataset.svcCalculator ?? config.defaultCalculator;
    // Not a secret: what proves a message is the widget's is its frame (`event.source`), not its id.
    const id = `svc-${++counter}`;
    if (!SLUG.test(slug)) {
      emit(
        { id, element },
        createMessage('svc-error', id, { reason: 'invalid_input', message: `No calculator "${slug}"` }),
      );
      return undefined;
    }
    const iframe = createFrame(win.document, config.embedOrigin, slug, element.clientWidth, {
      widgetId: id,
      host: win.location.origin,
      // The look and the language: per container first (`data-svc-theme`), so two embeds on one
      // page (a WordPress block each) can differ, then the script's (`data-theme`).
      ...Object.fromEntries(
        PER_WIDGET.map((key) => [
          key,
          element.dataset[`svc${key[0]!.toUpperCase()}${key.slice(1)}`] ?? config[key],
        ]),
      ),
      font: config.font === 'inherit' ? win.getComputedStyle(element).fontFamily : config.font,
      legacy: config.legacyEvents ? undefined : 'off',
    });
    const widget = createWidget(element, id, iframe);
    widgets.set(id, widget);
    element.dataset.svcWidgetId = id;
    element.appendChild(iframe);
    // Asked now, in parallel with the page load (the hello delivers it); a refusal shows the fallback at once.
    session.get().catch(widget.refuse);
    return id;
  }

  function unmount(element: HTMLElement): void {
    const widget = widgets.get(isElement(element) ? (element.dataset.svcWidgetId ?? '') : '');
    if (!widget) return;
    widget.release();
    if (widgets.size === 0) session.stop();
  }

  /** Placeholders added later mount (each tried once); containers removed from the page unmount. */
  const tried = new WeakSet<HTMLElement>();
  function sync(): void {
    for (const widget of [...widgets.values()]) if (!widget.element.isConnected) unmount(widget.element);
    if (config.manual) return;
    for (const target of findTargets(win.document, config)) {
      if (!tried.has(target)) {
        tried.add(target);
        mount(target);
      }
    }
  }
  const observer = new MutationObserver(sync);

  win.addEventListener('message', onMessage);
  return {
    sync,
    watch: () => observer.observe(win.document.documentElement, { childList: true, subtree: true }),
    version: typeof __SVC_VERSION__ === 'string' ? __SVC_VERSION__ : 'dev',
    on,
    off,
    mount,
    unmount,
    destroy() {
      observer.disconnect();
      win.removeEventListener('message', onMessage);
      for (const widget of [...widgets.values()]) widget.release();
      session.stop();
      onDestroy?.();
    },
  };
}
