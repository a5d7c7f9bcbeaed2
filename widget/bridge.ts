import {
  createMessage,
  type EventType,
  isConnectMessage,
  isLoaderPortMessage,
  type LoaderPortMessage,
  type PayloadOf,
  PROTOCOL_VERSION,
} from '../protocol/index.ts';

/** How long the widget waits for a renewed token after asking for one. */
export const TOKEN_REQUEST_TIMEOUT_MS = 10_000;

/**
 * The iframe's side of the protocol. The loader wrote the host page's origin into the URL hash;
 * every event is posted to exactly that origin, and the session is accepted only over the
 * MessagePort that the parent window, from that origin, handed over in `svc-connect`, and only
 * with a token whose `org` claim is that same origin.
 */
export interface Bridge {
  widgetId: string;
  hostOrigin: string;
  emit<T extends EventType>(type: T, payload: PayloadOf[T]): void;
  /** Asks the loader for the channel (`svc-hello`); the session follows over it. */
  hello(): void;
  /** Session messages from the loader (init, renewed token, refusal). Returns an unsubscribe function. */
  onSession(listener: (message: LoaderPortMessage) => void): () => void;
  /** Asks the loader for a fresh token; true once one arrives, false on refusal or timeout. */
  requestToken(): Promise<boolean>;
}

/** The `org` claim of an embed token (read, not verified: the API verifies; this only binds the port). */
function tokenOrigin(token: string): string | undefined {
  try {
    const part = token.split('.')[1] ?? '';
    const claims = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { org?: unknown };
    return typeof claims.org === 'string' ? claims.org : undefined;
  } catch {
    return undefined;
  }
}

function hostOriginOf(value: string | null): string | undefined {
  try {
    const url = new URL(value ?? '');
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** Undefined when the page is not inside a loader's iframe (opened directly, or a bad hash). */
export function createBridge(win: Window = window): Bridge | undefined {
  const params = new URLSearchParams(win.location.hash.slice(1));
  const widgetId = params.get('widgetId');
  const hostOrigin = hostOriginOf(params.get('host'));
  if (!widgetId || !hostOrigin || win.parent === win) return undefined;
  const listeners = new Set<(message: LoaderPortMessage) => void>();
  let port: MessagePort | undefined;

  win.addEventListener('message', (event) => {
    // Only the parent, from the origin the loader announced, may hand over the channel.
    if (event.source !== win.parent || event.origin !== hostOrigin) return;
    if (!isConnectMessage(event.data) || event.data.widgetId !== widgetId || !event.ports[0]) return;
    port?.close();
    const current = event.ports[0];
    port = current;
    current.onmessage = (message) => {
      const data = message.data;
      if (!isLoaderPortMessage(data)) return;
      // A token names the page it was issued to: a parent of another origin (a site that framed
      // the widget with a token obtained elsewhere) gets no session, and the channel closes.
      if (data.type !== 'svc-session-error' && tokenOrigin(data.token) !== hostOrigin) {
        current.close();
        if (port === current) port = undefined;
        return;
      }
      for (const listener of [...listeners]) listener(data);
    };
  });

  const onSession = (listener: (message: LoaderPortMessage) => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };

  return {
    widgetId,
    hostOrigin,
    emit(type, payload) {
      win.parent.postMessage(createMessage(type, widgetId, payload), hostOrigin);
    },
    hello() {
      win.parent.postMessage(
        { type: 'svc-hello', v: PROTOCOL_VERSION, widgetId, title: document.title },
        hostOrigin,
      );
    },
    onSession,
    requestToken() {
      const current = port;
      if (!current) return Promise.resolve(false);
      return new Promise((resolve) => {
        const done = (ok: boolean) => {
          stop();
          clearTimeout(timer);
          resolve(ok);
        };
        const stop = onSession((message) => done(message.type !== 'svc-session-error'));
        const timer = setTimeout(() => done(false), TOKEN_REQUEST_TIMEOUT_MS);
        current.postMessage({ type: 'svc-token-request', v: PROTOCOL_VERSION });
      });
    },
  };
}
