import type { EventType, PayloadOf, SvcMessage } from '../protocol/index.ts';

/**
 * A `Svc.on` listener: the event's payload, and which widget sent it.
 * @example `Svc.on('svc-lead', (payload, { widgetId, element }) => element.classList.add('done'))`
 */
export type Listener<T extends EventType = EventType> = (
  payload: PayloadOf[T],
  meta: { widgetId: string; element: HTMLElement },
) => void;

/** Where a checked event goes: a DOM event on the container (it bubbles) and every `Svc.on` listener. */
export function createEmitter() {
  const listeners = new Map<string, Set<Listener>>();
  return {
    on<T extends EventType>(type: T, listener: Listener<T>): () => void {
      const set = listeners.get(type) ?? new Set();
      listeners.set(type, set.add(listener as Listener));
      return () => void set.delete(listener as Listener);
    },
    off<T extends EventType>(type: T, listener: Listener<T>): void {
      listeners.get(type)?.delete(listener as Listener);
    },
    emit(target: { id: string; element: HTMLElement }, message: SvcMessage): void {
      target.element.dispatchEvent(new CustomEvent(message.type, { detail: message.payload, bubbles: true }));
      for (const listener of [...(listeners.get(message.type) ?? [])]) {
        try {
          listener(message.payload as never, { widgetId: target.id, element: target.element });
        } catch (error) {
          // A bug in one host listener must not stop the others, nor the loader.
          console.error(error);
        }
      }
    },
  };
}
