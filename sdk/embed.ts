import type { EventType } from '../protocol/index.ts';

/**
 * The ESM entry for single-page apps, served at `{embed_url}/embed.mjs` (types at
 * `{embed_url}/embed.d.ts`). It loads loader.js from the same origin once, in manual mount
 * mode, and forwards to `window.Svc`.
 *
 * @example
 * ```js
 * import { mount, on } from 'https://embed.svc.example/embed.mjs';
 * on('svc-result', (payload) => console.log(payload.outputs));
 * await mount(document.querySelector('#calc'), { key: 'svc_pk_…', calculator: 'estate-tax' });
 * ```
 */

type Listener = (payload: never, meta: { widgetId: string; element: HTMLElement }) => void;
interface Svc {
  on(type: EventType, listener: Listener): () => void;
  mount(element: HTMLElement, calculator?: string): string | undefined;
  unmount(element: HTMLElement): void;
  destroy(): void;
}

export interface MountOptions {
  /** The publishable key (`svc_pk_…`). */
  key: string;
  calculator?: string;
  /** API base, when the embed host does not write one into loader.js. */
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

const ORIGIN = new URL(import.meta.url).origin;
let loading: Promise<Svc> | undefined;
const pending: [EventType, Listener, { stop?: () => void }][] = [];

function load(options: MountOptions): Promise<Svc> {
  const win = window as unknown as { Svc?: Svc };
  loading ??= new Promise<Svc>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `${ORIGIN}/loader.js`;
    const data: Record<string, string | undefined> = {
      key: options.key,
      mount: 'manual',
      api: options.api,
      theme: options.theme,
      accent: options.accent,
      radius: options.radius,
      font: options.font,
      state: options.state,
      legacyEvents: options.legacyEvents,
    };
    for (const [name, value] of Object.entries(data)) if (value) script.dataset[name] = value;
    script.onload = () =>
      win.Svc ? resolve(win.Svc) : reject(new Error('svc: loader.js did not start; see the console'));
    script.onerror = () => reject(new Error(`svc: could not load ${script.src}`));
    document.head.appendChild(script);
  }).then(
    (svc) => {
      for (const [type, listener, handle] of pending.splice(0)) handle.stop = svc.on(type, listener);
      return svc;
    },
    (error: unknown) => {
      // A failed load is not kept: the next mount appends a fresh script and tries again.
      document.querySelector(`script[src="${ORIGIN}/loader.js"]`)?.remove();
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Mounts a calculator into `element`; resolves to the widget id (undefined when it cannot). */
export async function mount(element: HTMLElement, options: MountOptions): Promise<string | undefined> {
  const svc = await load(options);
  // The loader reads a container's own language (`data-svc-lang`), so widgets of one page can differ.
  if (options.lang) element.dataset.svcLang = options.lang;
  return svc.mount(element, options.calculator);
}

/** Listens to an event of every widget, before or after the first mount. Returns an unsubscribe function. */
export function on(type: EventType, listener: Listener): () => void {
  const svc = (window as unknown as { Svc?: Svc }).Svc;
  if (loading && svc) return svc.on(type, listener);
  const handle: { stop?: () => void } = {};
  pending.push([type, listener, handle]);
  return () => {
    handle.stop?.();
    const i = pending.findIndex((p) => p[2] === handle);
    if (i >= 0) pending.splice(i, 1);
  };
}

export function unmount(element: HTMLElement): void {
  (window as unknown as { Svc?: Svc }).Svc?.unmount(element);
}

/** Removes every widget and the loader's listeners; a later `mount` loads it again. */
export function destroy(): void {
  (window as unknown as { Svc?: Svc }).Svc?.destroy();
  document.querySelector(`script[src="${ORIGIN}/loader.js"]`)?.remove();
  loading = undefined;
}
