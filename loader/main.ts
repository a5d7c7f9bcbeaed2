import { API_URL_PLACEHOLDER, configFromScript, createLoader, type SvcApi } from './loader.ts';

declare global {
  interface Window {
    Svc?: SvcApi;
  }
}

/**
 * Entry of loader.js (one IIFE). Runs once even if included twice, does nothing without a DOM,
 * and never throws into the host page.
 *
 * @example
 * ```html
 * <div data-svc-calculator="estate-tax"></div>
 * <script src="https://embed.example/loader.js" data-key="SVC-…" async></script>
 * ```
 */
function start(): void {
  if (typeof window === 'undefined' || typeof document === 'undefined' || window.Svc) return;
  const script =
    (document.currentScript as HTMLScriptElement | null) ??
    document.querySelector<HTMLScriptElement>('script[data-key][src*="loader"]');
  const config = configFromScript(script, API_URL_PLACEHOLDER);
  if (!config) return;
  const svc = createLoader(config);
  window.Svc = svc;
  const mountAll = () => {
    const targets = document.querySelectorAll<HTMLElement>('[data-svc-calculator]');
    if (targets.length === 0 && script) {
      const container = document.createElement('div');
      script.insertAdjacentElement('afterend', container);
      svc.mount(container);
      return;
    }
    for (const target of targets) svc.mount(target);
  };
  if (document.readyState === 'loading')
    document.addEventListener('DOMContentLoaded', mountAll, { once: true });
  else mountAll();
}

try {
  start();
} catch (error) {
  console.error('[svc] loader failed to start', error);
}
