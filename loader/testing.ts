import { vi } from 'vitest';
import { createMessage, type EventType, type PayloadOf } from '../protocol/index.ts';

/** Test helpers for the loader (happy-dom loads no iframe pages, so frames are faked here). */

export const EMBED = 'https://embed.svc.test';
export const API = 'https://api.svc.test';
const SLUGS = ['estate-tax', 'inheritance-tax', 'probate-fees', 'executor-commission', 'rmd'];

let issued = 0;

/** A fetch double for `license/activate`: answers in order, then repeats the last answer. */
export function stubActivate(...answers: (() => Response | Promise<Response>)[]) {
  const fetch = vi.fn(async (_url: string, _init?: RequestInit) => {
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    return answer();
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** The firm's consent version as the embed session answers it. */
export const CONSENT = { versionId: 'cv_1', text: 'Smith & Lee LLP may call me.', sha256: 'ab'.repeat(32) };

export const granted =
  (ttlMs = 600_000, calculators: string[] = SLUGS) =>
  () =>
    new Response(
      JSON.stringify({
        token: `token-${++issued}`,
        expiresAt: new Date(Date.now() + ttlMs).toISOString(),
        embedUrl: EMBED,
        calculators,
        firm: { name: 'Smith & Lee LLP' },
        consent: CONSENT,
      }),
      { status: 200, headers: { 'content-type': 'application/json' } },
    );

export const refused = (status: number, code: string) => () =>
  new Response(JSON.stringify({ error: { code, message: 'no', status } }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

export const offline = () => Promise.reject(new TypeError('Failed to fetch'));

/**
 * Gives a mounted iframe a stand-in window that records what the loader posts to it and keeps
 * the port it is handed, so a test can play the widget's side.
 */
export function fakeFrame(iframe: HTMLIFrameElement, widgetId: string) {
  const posted: { data: unknown; targetOrigin: string }[] = [];
  const received: unknown[] = [];
  let port: MessagePort | undefined;
  const win = {
    postMessage: (data: unknown, targetOrigin: string, transfer?: Transferable[]) => {
      posted.push({ data, targetOrigin });
      port = transfer?.[0] as MessagePort | undefined;
      if (port) port.onmessage = (event) => received.push(event.data);
    },
  };
  Object.defineProperty(iframe, 'contentWindow', { value: win, configurable: true });
  return {
    win,
    posted,
    received,
    port: () => port,
    send<T extends EventType>(type: T, payload: PayloadOf[T], origin = EMBED, id = widgetId) {
      window.dispatchEvent(
        new MessageEvent('message', { data: createMessage(type, id, payload), origin, source: win as never }),
      );
    },
    /** The page has loaded: `svc-hello`, as the widget sends it. */
    hello(origin = EMBED, source: unknown = win) {
      window.dispatchEvent(
        new MessageEvent('message', {
          data: { type: 'svc-hello', v: 1, widgetId, title: 'Required minimum distribution calculator' },
          origin,
          source: source as never,
        }),
      );
    },
  };
}
