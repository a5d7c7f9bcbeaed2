import { API_URL_PLACEHOLDER, configFromScript, findTargets, type LoaderConfig } from './config.ts';
import { createLoader, type Loader, type SvcApi } from './loader.ts';

declare global {
  interface Window {
    Svc?: SvcApi;
  }
}

/**
 * The run-once flag. A symbol, not `window.Svc`: page content such as `<a id="Svc">` (a
 * visitor's comment can add one) makes `window.Svc` truthy through named access, and must not
 * switch the loader off. No markup can create a symbol-keyed property.
 */
const STARTED = Symbol.for('svc.loader');

function mountAll(loader: Loader, config: LoaderConfig, script: HTMLScriptElement): void {
  if (!config.manual && !config.target && findTargets(document, config).length === 0) {
    // No container on the page: the widget goes right after the script tag.
    const container = document.createElement('div');
    script.insertAdjacentElement('afterend', container);
    loader.mount(container);
  }
  loader.sync();
  loader.watch();
}

/**
 * Entry of loader.js (one IIFE). Runs once even if included twice, does nothing without a DOM,
 * and never throws into the host page.
 *
 * @example
 * ```html
 * <div data-svc-calculator="estate-tax"></div>
 * <script src="https://embed.svc.example/loader.js" data-key="svc_pk_…" async></script>
 * ```
 */
function start(): void {
  if (typeof document === 'undefined') return;
  const flags = window as unknown as Record<symbol, boolean>;
  if (flags[STARTED]) return;
  const script =
    (document.currentScript as HTMLScriptElement | null) ??
    document.querySelector<HTMLScriptElement>('script[data-key][src*="loader"]');
  const config = configFromScript(script, API_URL_PLACEHOLDER);
  if (!config || !script) return;
  flags[STARTED] = true;
  // The API's connection is warm by the time the session is asked for. No preconnect to the embed
  // origin: browsers key connections by top-level site and frame, so the widget's cross-site
  // frame opens its own and could not use one made from this page (the bench shows a fresh connect).
  const link = document.createElement('link');
  link.rel = 'preconnect';
  link.href = config.apiUrl;
  link.crossOrigin = '';
  document.head.appendChild(link);
  const loader = createLoader(config, window, () => {
    delete window.Svc;
    flags[STARTED] = false;
  });
  window.Svc = loader;
  const run = () => {
    try {
      mountAll(loader, config, script);
    } catch (error) {
      console.error(error);
    }
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run, { once: true });
  else run();
}

try {
  start();
} catch (error) {
  console.error(error);
}
