import {
  createEvent,
  type EventType,
  isConnectMessage,
  isTokenMessage,
  type PayloadOf,
  type TokenMessage,
} from '../protocol/index.ts';

/**
 * The iframe's side of the protocol. The host origin comes from the URL hash the loader wrote;
 * every event is posted to exactly that origin, and the token is accepted only over the
 * MessagePort that the parent window (from that origin) handed over.
 */
export interface Bridge {
  widgetId: string;
  hostOrigin: string;
  emit<T extends EventType>(type: T, payload: PayloadOf[T]): void;
  onToken(listener: (message: TokenMessage) => void): void;
}

export function createBridge(win: Window = window): Bridge | undefined {
  const params = new URLSearchParams(win.location.hash.slice(1));
  const widgetId = params.get('widgetId');
  const host = params.get('host');
  if (!widgetId || !host || !URL.canParse(host) || win.parent === win) return undefined;
  const hostOrigin = new URL(host).origin;
  const tokenListeners: ((m: TokenMessage) => void)[] = [];
  let port: MessagePort | undefined;

  win.addEventListener('message', (event) => {
    if (event.origin !== hostOrigin || event.source !== win.parent || !isConnectMessage(event.data)) return;
    if (event.data.widgetId !== widgetId || !event.ports[0]) return;
    port?.close();
    port = event.ports[0];
    port.onmessage = (message) => {
      if (isTokenMessage(message.data)) for (const listener of tokenListeners) listener(message.data);
    };
  });

  return {
    widgetId,
    hostOrigin,
    emit(type, payload) {
      win.parent.postMessage(createEvent(type, widgetId, payload), hostOrigin);
    },
    onToken(listener) {
      tokenListeners.push(listener);
    },
  };
}
